// SPDX-License-Identifier: GPL-2.0
/*
 * bench_mark: what marking and unmarking cost against the size of the range
 * (SPEC 4.5: O(VMAs), not O(pages)).
 *
 * For every size from 4 KiB up to the largest power of two that fits the
 * machine (1 GiB in the 2 GiB guest), a populated private anonymous range
 * (THP off, so every design sees 4 KiB pages) is timed through:
 *   dontneed   madvise(MADV_DONTNEED), then "refault": one write per page
 *   madv_free  madvise(MADV_FREE), then "refault" (no pressure: no fault)
 *   vrange     vrange(VOLATILE), vrange(NONVOLATILE) with nothing purged,
 *              "refault"; then VOLATILE, a purge of everything (memcg
 *              memory.reclaim, else MADV_PAGEOUT), NONVOLATILE after the
 *              purge ("nonvolatile_purged") and "refault_purged" (every
 *              page a new zero page)
 * Each design runs in a child of its own (a broken design cannot take the
 * others down); the figure is the median over the repeats of each size,
 * printed as '# @data {"kind":"bench","bench":"mark",...}'.  The claim under
 * test: vrange marks per VMA, so its cost is flat in size; MADV_FREE and
 * MADV_DONTNEED walk every page.
 *
 * Usage: bench_mark [-m MAX] [-n MIN] [-p MAX] [-r REPS] [-t SECONDS] [-M TRAITS [-s MAX]]
 *   -m MAX     largest size (default 1G; capped to 3/4 of MemAvailable)
 *   -n MIN     smallest size (default 4K); sizes grow by 4x
 *   -p MAX     largest size that gets the purge cycle (default 1G); it runs
 *              once above 64M, as reclaiming and refaulting a GiB under TCG
 *              takes tens of seconds
 *   -r REPS    repeats at the small sizes (default 15; fewer at large ones)
 *   -t SECONDS soft budget per design (default 80): a size that would
 *              overrun it (4x the time of the size before) is skipped
 *   -M TRAITS  the run-time mode that gets the full sweep, as what it has:
 *              swap or noswap, classic or mglru, comma-separated (swap,classic;
 *              from VMAB_SWAP and VMAB_LRU, never the mode's name); in
 *              any other mode the sweep stops at -s (default 16M), since the
 *              cost of marking does not depend on the mode, and the boot's
 *              time under TCG is limited
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define MAX_SIZES 32
#define MAX_REPS 64
#define MARK_OFF 2	/* u64 index in a page: the marker populate() writes */

/*
 * The runs: MADV_DONTNEED, the control (not a design), then designs B and
 * A of lib/designs.h.  Design C has no call to time: its memory is given
 * back by the mapping's type, once, when it is mapped.
 */
enum design { D_DONTNEED, D_MADV_FREE, D_VRANGE, D_NR };
static const int run_design_id[D_NR] = { -1, DESIGN_MADV_FREE, DESIGN_VRANGE };

static const char *run_name(enum design d)
{
	return run_design_id[d] < 0 ? "dontneed" : designs[run_design_id[d]].name;
}

/* The timed operations; each design uses some of them. */
enum op {
	OP_GETPPID, OP_DONTNEED, OP_MADV_FREE, OP_VOLATILE, OP_NONVOLATILE,
	OP_REFAULT, OP_VOLATILE_BEFORE_PURGE, OP_PURGE, OP_NONVOLATILE_PURGED,
	OP_REFAULT_PURGED, OP_NONVOLATILE_AFTER_PURGE, OP_NR
};
static const char *const op_name[OP_NR] = {
	"getppid", "dontneed", "madv_free", "volatile", "nonvolatile",
	"refault", "volatile_before_purge", "purge", "nonvolatile_purged", "refault_purged",
	"nonvolatile_after_purge",
};

static struct {
	size_t max, min, small_max, purge_max;
	int reps;
	int budget_s;
	const char *full_traits;
} opt = { 1UL << 30, PAGE_SZ, 16UL << 20, 1UL << 30, 15, 80, NULL };

static struct memcg cg;
static int have_cg;

/* 1 if this mode has every trait of the list ("swap,classic"), -1 on a bad one. */
static int mode_has(const char *list)
{
	char buf[64], *w, *save;
	int has = 1;

	snprintf(buf, sizeof(buf), "%s", list);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strcmp(w, "swap") || !strcmp(w, "noswap"))
			has &= vmab_mode_has_swap() == !strcmp(w, "swap");
		else if (!strcmp(w, "mglru") || !strcmp(w, "classic"))
			has &= vmab_mode_is_mglru() == !strcmp(w, "mglru");
		else
			return -1;
	}
	return has;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Write the marker of every page: the range is then populated and known. */
static void populate(char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += PAGE_SZ)
		((volatile uint64_t *)(p + i))[MARK_OFF] = i / PAGE_SZ + 1;
}

/*
 * Untimed check after a refault: pages whose marker is gone (the content was
 * discarded), and the marker written again for the next repeat.
 */
static long lost_pages(char *p, size_t len)
{
	long lost = 0;
	size_t i;

	for (i = 0; i < len; i += PAGE_SZ) {
		uint64_t *m = (uint64_t *)(p + i) + MARK_OFF;

		if (*m != i / PAGE_SZ + 1)
			lost++;
		*m = i / PAGE_SZ + 1;
	}
	return lost;
}

/* Reps at a size: fewer at the large sizes, where one repeat takes seconds under TCG. */
static int reps_for(size_t size)
{
	int r = opt.reps;

	if (size > (256UL << 20))
		r = 3;
	else if (size > (16UL << 20))
		r = 5;
	else if (size > (1UL << 20))
		r = 9;
	return r < opt.reps ? r : opt.reps;
}

/* The purge cycle (reclaim of everything, then refault of every page) is the slow part. */
static int purge_reps_for(size_t size)
{
	int r = reps_for(size);

	if (size > opt.purge_max)
		return 0;
	if (size > (64UL << 20))
		return 1;
	return r < 5 ? r : 5;
}

struct samples {
	uint64_t ns[OP_NR][MAX_REPS];
	uint64_t first[OP_NR];	/* the first repeat: pages not marked before */
	int n[OP_NR];
	long lost[OP_NR];	/* after the op's refault, summed over repeats */
	long purged_flag;	/* repeats whose NONVOLATILE reported purged */
	long counter;		/* pgvrange_purged delta over the purges, -1: no counter */
	long resident_after_purge;	/* mincore, summed over the purges */
	int vmas_before, vmas_volatile;	/* /proc/self/maps lines around the first VOLATILE */
	const char *purge_method;
};

#define TIMED(s, op, expr) do {						\
		uint64_t t0_ = fine_ns();					\
		expr;								\
		uint64_t d_ = fine_ns() - t0_;					\
		if (!(s)->n[op])						\
			(s)->first[op] = d_;					\
		(s)->ns[op][(s)->n[op]++] = d_;					\
	} while (0)

/*
 * Everything in [p, p+len) discarded: memcg reclaim first, then MADV_PAGEOUT
 * for what is still resident.  mincore() judges, as /proc/vmstat has no
 * pgvrange_purged without CONFIG_VM_EVENT_COUNTERS; the counter's delta is
 * added to *counter where it exists.
 */
static const char *purge(char *p, size_t len, long *counter)
{
	long before = vmstat_get("pgvrange_purged");
	const char *how = "pageout";

	if (have_cg) {
		memcg_reclaim(&cg, 2 * len + (1UL << 20));
		how = "memory.reclaim";
	}
	if (!have_cg || resident_pages(p, len) != 0) {
		madvise(p, len, MADV_PAGEOUT);
		how = have_cg ? "memory.reclaim+pageout" : "pageout";
	}
	if (before >= 0)
		*counter += vmstat_get("pgvrange_purged") - before;
	else
		*counter = -1;
	return how;
}

/* One repeat of one design at one size; 0, or -1 on a failed call. */
/*
 * One repeat of one design at one size; 0, or -1 on a failed call.  For
 * vrange, the "cycle" is either the mark cycle (VOLATILE, NONVOLATILE,
 * refault) or the purge cycle; every mark cycle of a size runs before its
 * first purge cycle, as the purge leaves work behind (reclaim, refaulted
 * pages) that slowed the next VOLATILE 10-20x under TCG and is not the
 * cost of marking.  The VOLATILE of the purge cycle is timed on its own.
 */
static int one_rep(enum design d, char *p, size_t len, struct samples *s, int purge_cycle)
{
	long r = 0;
	int purged = -1;

	/*
	 * The control: a system call with no memory work, at the same point
	 * as the mark.  Under TCG its cost too grows with the pages the
	 * process touched (emulated TLB), which no design can help.
	 */
	if (!purge_cycle)
		TIMED(s, OP_GETPPID, syscall(SYS_getppid));
	switch (d) {
	case D_DONTNEED:
		TIMED(s, OP_DONTNEED, r = madvise(p, len, MADV_DONTNEED));
		if (r)
			return -1;
		TIMED(s, OP_REFAULT, touch_write(p, len));
		s->lost[OP_DONTNEED] += lost_pages(p, len);
		return 0;
	case D_MADV_FREE:
		TIMED(s, OP_MADV_FREE, r = designs[DESIGN_MADV_FREE].give_back(p, len));
		if (r)
			return -1;
		TIMED(s, OP_REFAULT, touch_write(p, len));
		s->lost[OP_MADV_FREE] += lost_pages(p, len);
		return 0;
	case D_VRANGE:
		if (purge_cycle)
			break;
		if (!s->n[OP_VOLATILE])
			s->vmas_before = count_vmas();
		TIMED(s, OP_VOLATILE, r = sys_vrange((unsigned long)p, len,
						      VRANGE_VOLATILE, NULL));
		if (r != (long)len)
			return -1;
		if (s->n[OP_VOLATILE] == 1)
			s->vmas_volatile = count_vmas();
		TIMED(s, OP_NONVOLATILE, r = sys_vrange((unsigned long)p, len,
							 VRANGE_NONVOLATILE, &purged));
		if (r != (long)len || purged != 0)
			return -1;
		TIMED(s, OP_REFAULT, touch_write(p, len));
		s->lost[OP_NONVOLATILE] += lost_pages(p, len);
		return 0;
	default:
		return -1;
	}

	/* The purge cycle of vrange. */
	TIMED(s, OP_VOLATILE_BEFORE_PURGE, r = sys_vrange((unsigned long)p, len,
							   VRANGE_VOLATILE, NULL));
	if (r != (long)len)
		return -1;
	TIMED(s, OP_PURGE, s->purge_method = purge(p, len, &s->counter));
	s->resident_after_purge += resident_pages(p, len);
	purged = -1;
	TIMED(s, OP_NONVOLATILE_PURGED,
	      r = sys_vrange((unsigned long)p, len, VRANGE_NONVOLATILE, &purged));
	if (r != (long)len)
		return -1;
	s->purged_flag += purged == 1;
	TIMED(s, OP_REFAULT_PURGED, touch_write(p, len));
	s->lost[OP_NONVOLATILE_PURGED] += lost_pages(p, len);
	/*
	 * Unmarking with nothing purged again, after a purge of this range
	 * that the unmark above reported: before vrange patch 20 every unmark
	 * of the process walked the page tables from then on; since, only the
	 * one that reports the purge does.
	 */
	if (sys_vrange((unsigned long)p, len, VRANGE_VOLATILE, NULL) != (long)len)
		return -1;
	TIMED(s, OP_NONVOLATILE_AFTER_PURGE,
	      r = sys_vrange((unsigned long)p, len, VRANGE_NONVOLATILE, &purged));
	if (r != (long)len || purged != 0)
		return -1;
	return 0;
}

static void emit(enum design d, enum op op, size_t len, struct samples *s)
{
	struct vmab_data dd;
	int n = s->n[op];
	uint64_t *v = s->ns[op];
	double pages = (double)len / PAGE_SZ;

	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	data_begin(&dd, DKIND_BENCH);
	data_str(&dd, DK_BENCH, "mark");
	data_str(&dd, DK_DESIGN, run_name(d));
	data_str(&dd, DK_OP, op_name[op]);
	data_long(&dd, DK_SIZE, (long)len);
	data_long(&dd, DK_PAGES, (long)pages);
	data_long(&dd, DK_REPS, n);
	data_long(&dd, DK_NS_MEDIAN, (long)v[n / 2]);
	data_long(&dd, DK_NS_MIN, (long)v[0]);
	data_long(&dd, DK_NS_MAX, (long)v[n - 1]);
	data_long(&dd, DK_NS_FIRST, (long)s->first[op]);
	data_double(&dd, DK_NS_PER_PAGE, v[n / 2] / pages);
	data_str(&dd, DK_THP, "never");
	data_str(&dd, DK_CLOCK, fine_clock_name());
	if (op == OP_DONTNEED || op == OP_MADV_FREE || op == OP_NONVOLATILE ||
	    op == OP_NONVOLATILE_PURGED)
		data_long(&dd, DK_LOST_PAGES_PER_REP, s->lost[op] / n);
	if (op == OP_VOLATILE)	/* 0: the flag of a whole VMA; 1 or 2: splits */
		data_long(&dd, DK_VMAS_ADDED, s->vmas_volatile - s->vmas_before);
	if (op == OP_NONVOLATILE_PURGED) {
		data_long(&dd, DK_PURGED_FLAG_REPS, s->purged_flag);
		if (s->counter >= 0)
			data_long(&dd, DK_PGVRANGE_PURGED_PER_REP, s->counter / n);
	}
	if (op == OP_PURGE) {
		data_str(&dd, DK_PURGE_METHOD, s->purge_method);
		data_long(&dd, DK_RESIDENT_AFTER_PER_REP, s->resident_after_purge / n);
	}
	data_emit(&dd);
}

/*
 * One size of one design; 0 when every call did what it must.  Each size
 * runs in a process of its own: the purge cycles of a smaller size must not
 * change what a larger one costs (before vrange patch 20, a purge anywhere
 * in the process made every later unmark walk its range).
 */
static int run_size(enum design d, size_t len)
{
	struct samples *s;
	int rep, op, bad = 0;
	char *p;

	/*
	 * Pages charged to a cgroup of this process alone, so memory.reclaim
	 * purges just them: the bench's other processes keep their pages in
	 * memory, and the next size's process, forked from them, starts
	 * without swap entries (which make vrange's unmark walk).
	 */
	if (have_cg && (memcg_create(&cg, "mark") || memcg_enter(&cg))) {
		printf("# %s at %zu bytes: memcg_create failed: purging with MADV_PAGEOUT\n",
		       run_name(d), len);
		have_cg = 0;
	}
	p = map_anon(len);
	s = calloc(1, sizeof(*s));
	if (p == MAP_FAILED || !s) {
		printf("# %s: no memory for %zu bytes\n", run_name(d), len);
		return 1;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	populate(p, len);
	for (rep = 0; rep < reps_for(len) + (d == D_VRANGE ? purge_reps_for(len) : 0); rep++) {
		int purge_cycle = rep >= reps_for(len);

		if (one_rep(d, p, len, s, purge_cycle)) {
			printf("# %s at %zu bytes, %s cycle %d: %s\n", run_name(d), len,
			       purge_cycle ? "purge" : "mark", rep, strerror(errno));
			bad = 1;
			break;
		}
	}
	for (op = 0; op < OP_NR; op++)
		emit(d, op, len, s);
	/* The semantics the figures rely on. */
	if (d == D_DONTNEED && s->lost[OP_DONTNEED] != s->n[OP_DONTNEED] * (long)(len / PAGE_SZ))
		printf("# dontneed at %zu: only %ld pages zero\n", len, s->lost[OP_DONTNEED]), bad = 1;
	if (d == D_VRANGE && s->lost[OP_NONVOLATILE])
		printf("# vrange at %zu: %ld pages lost without pressure\n", len, s->lost[OP_NONVOLATILE]), bad = 1;
	if (d == D_VRANGE && s->n[OP_NONVOLATILE_PURGED] &&
	    s->purged_flag != s->n[OP_NONVOLATILE_PURGED])
		printf("# vrange at %zu: purged flag set in %ld of %d repeats (%ld pages purged)\n",
		       len, s->purged_flag, s->n[OP_NONVOLATILE_PURGED], s->counter), bad = 1;
	munmap(p, len);
	free(s);
	if (have_cg) {
		memcg_leave();
		memcg_destroy(&cg);
	}
	fflush(stdout);
	return bad;
}

/* The sweep of one design, in a child; exit status 0 when every size passed. */
static int run_design(enum design d, const size_t *sizes, int nsizes)
{
	uint64_t t_start = fine_ns(), last_ns = 0;
	int i, status, bad = 0;

	for (i = 0; i < nsizes; i++) {
		size_t len = sizes[i];
		uint64_t t_size = fine_ns();
		pid_t pid;

		/* A size costs about 4x the one before it (the sizes grow by 4x). */
		if (t_size - t_start + 4 * last_ns > (uint64_t)opt.budget_s * 1000000000ull) {
			printf("# %s: the budget of %d s would be spent, sizes from %zu bytes on skipped\n",
			       run_name(d), opt.budget_s, len);
			break;
		}
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(run_size(d, len));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad = 1;
		last_ns = fine_ns() - t_size;
	}
	fflush(stdout);
	return bad;
}

static size_t fit_max(size_t want)
{
	long avail_kb = meminfo_kb("MemAvailable");
	size_t fit = avail_kb > 0 ? (size_t)avail_kb * 1024 / 4 * 3 : want;
	size_t m = PAGE_SZ;

	while (m * 2 <= want && m * 2 <= fit)
		m *= 2;
	return m;
}

VMAB_NEEDS("mark_dontneed", "");
VMAB_NEEDS("mark_madv_free", "madv_free");
VMAB_NEEDS("mark_vrange", "vrange");

int main(int argc, char **argv)
{
	size_t sizes[MAX_SIZES], max, sz;
	int nsizes = 0, c, d, bad = 0;
	const char *why[D_NR] = { NULL };

	while ((c = getopt(argc, argv, "m:n:p:r:t:M:s:")) != -1) {
		switch (c) {
		case 'm': bad |= parse_size(optarg, &opt.max); break;
		case 'n': bad |= parse_size(optarg, &opt.min); break;
		case 'p': bad |= parse_size(optarg, &opt.purge_max); break;
		case 'r': opt.reps = atoi(optarg); break;
		case 't': opt.budget_s = atoi(optarg); break;
		case 'M': opt.full_traits = optarg; break;
		case 's': bad |= parse_size(optarg, &opt.small_max); break;
		default:
			fprintf(stderr, "usage: %s [-m MAX] [-n MIN] [-p MAX] [-r REPS] [-t S] [-M TRAITS [-s MAX]]\n", argv[0]);
			return 2;
		}
	}
	if (bad) {
		fprintf(stderr, "bench_mark: a size is a number with an optional K, M or G\n");
		return 2;
	}
	if (opt.reps < 1 || opt.reps > MAX_REPS)
		opt.reps = opt.reps < 1 ? 1 : MAX_REPS;
	max = opt.max;
	if (opt.full_traits && mode_has(opt.full_traits) < 0) {
		fprintf(stderr, "bench_mark: -M wants swap or noswap, classic or mglru\n");
		return 2;
	}
	if (opt.full_traits && !mode_has(opt.full_traits) && opt.small_max < max)
		max = opt.small_max;
	max = fit_max(max);
	for (sz = opt.min < PAGE_SZ ? PAGE_SZ : opt.min; sz <= max && nsizes < MAX_SIZES; sz *= 4)
		sizes[nsizes++] = sz;
	if (nsizes && sizes[nsizes - 1] != max && nsizes < MAX_SIZES)
		sizes[nsizes++] = max;

	for (d = 0; d < D_NR; d++)
		if (run_design_id[d] >= 0)
			why[d] = design_absent(run_design_id[d]);

	ksft_print_header();
	ksft_set_plan(D_NR);
	printf("# mode %s, variant %s, sizes %zu..%zu bytes, budget %d s a design, clock %s\n",
	       vmab_mode(), vmab_variant(), sizes[0], sizes[nsizes - 1], opt.budget_s,
	       fine_clock_name());
	have_cg = memcg_available();
	if (!have_cg)
		printf("# no memory cgroup (%s): purging with MADV_PAGEOUT\n", need_memcg());

	for (d = 0; d < D_NR; d++) {
		char name[32];
		pid_t pid;
		int st = 0;

		snprintf(name, sizeof(name), "mark_%s", run_name(d));
		if (why[d]) {
			ksft_test_result_skip_named(name, "%s", why[d]);
			continue;
		}
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(run_design(d, sizes, nsizes));
		if (pid < 0 || waitpid(pid, &st, 0) < 0) {
			ksft_test_result(0, "%s # fork: %s\n", name, strerror(errno));
			continue;
		}
		if (WIFSIGNALED(st))
			printf("# %s: killed by signal %d (%s)\n", name, WTERMSIG(st),
			       strsignal(WTERMSIG(st)));
		ksft_test_result(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s\n", name);
	}
	return 0;
}
