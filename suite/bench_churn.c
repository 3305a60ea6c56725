// SPDX-License-Identifier: GPL-2.0
/*
 * bench_churn: allocator churn in the manner of ebizzy: the throughput of
 * an allocator that gives freed memory back with each design.
 *
 * Each thread loops: take a random source chunk, allocate a chunk, copy the
 * source into it, run a number of binary searches in the copy (each search
 * is one "record", as ebizzy counts them), free the chunk.  What differs is
 * how the allocator gives the freed chunk back to the kernel:
 *   munmap     every chunk mmap()ed and munmap()ed (glibc's large malloc)
 *   dontneed   chunks carved from one arena mapping and kept on a free list;
 *              free is madvise(MADV_DONTNEED), reuse faults zero pages in
 *   madv_free  the same free list; free is madvise(MADV_FREE), reuse writes
 *              over the old pages without a fault
 *   vrange     the same free list; free is vrange(VOLATILE), reuse is
 *              vrange(NONVOLATILE) first (a purged chunk reads as zero, which
 *              the copy overwrites anyway)
 *   vrange_own_vma  vrange, but each chunk is a VMA of its own (a guard page
 *              after each keeps them apart): marking a whole VMA flips its
 *              flag, with no split or merge
 *   vma_flag   the same free list; free is madvise(MADV_DONTFORK), reuse is
 *              madvise(MADV_DOFORK): a control, the VMA split and merge that
 *              vrange's marking of a chunk costs, with no design code
 *   keep       the same free list, nothing given back: the upper bound
 * Records/s for 1 and 2 threads; each design's ratio to dontneed measured in
 * the same process; time per iteration split into alloc, copy (with its
 * faults), search and free, and the page faults and counters per iteration,
 * so the report can show where the time goes.
 *
 * Each thread count runs in rounds; a round runs every design once, dontneed
 * first and keep last, so each design's ratios are taken to the dontneed
 * and keep runs of its own round, and background load that changes over
 * the run hits every design.  The figures are the medians over the rounds.  Each design's run is a
 * process of its own: what one design leaves in the process (lazily free
 * pages, VMAs whose next NONVOLATILE walks) must not be charged to the
 * next.
 *
 * Usage: bench_churn [-d SECONDS] [-r ROUNDS] [-s CHUNK] [-n CHUNKS] [-q SEARCHES] [-T THREADS...]
 *   -d  duration of one design in one round (default 0.7)
 *   -r  rounds (default 3)
 *   -s  chunk size (default 512K), -n source chunks (default 8)
 *   -q  searches per iteration (default 64)
 *   -T  comma-separated thread counts (default 1,2)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define FREE_LIST 4	/* chunks an arena keeps for reuse */
#define MAX_THREADS 8
#define MAX_ROUNDS 16

enum design {
	D_MUNMAP, D_DONTNEED, D_MADV_FREE, D_VRANGE, D_VRANGE_OWN_VMA,
	D_VMA_FLAG, D_KEEP, D_NR
};
static const char *const design_name[D_NR] = {
	"munmap", "dontneed", "madv_free", "vrange", "vrange_own_vma",
	"vma_flag", "keep",
};
/* dontneed first: every other design's ratio is to it, in the same run. */
static const enum design run_order[D_NR] = {
	D_DONTNEED, D_MUNMAP, D_MADV_FREE, D_VRANGE, D_VRANGE_OWN_VMA,
	D_VMA_FLAG, D_KEEP,
};

/*
 * The design of lib/designs.h each run gives memory back with, -1 for the
 * controls.  Design C is not run: a droppable page may be dropped while
 * the allocator's user still holds it, so no allocator can hand one out.
 */
static const int run_design_id[D_NR] = {
	[D_MUNMAP] = -1, [D_DONTNEED] = -1, [D_MADV_FREE] = DESIGN_MADV_FREE,
	[D_VRANGE] = DESIGN_VRANGE, [D_VRANGE_OWN_VMA] = DESIGN_VRANGE,
	[D_VMA_FLAG] = -1, [D_KEEP] = -1,
};

static int is_vrange(enum design d)
{
	return run_design_id[d] == DESIGN_VRANGE;
}

struct record {
	uint64_t key;
	char payload[56];
};

static struct {
	int round_ms;
	int rounds;
	size_t chunk;
	int nchunks;
	int searches;
	int threads[MAX_THREADS];
	int nthreads;
} opt = { 700, 3, 512UL << 10, 8, 64, { 1, 2 }, 2 };

static struct record **source;
static size_t nrec;
static volatile int stop;

/* One thread's allocator: an arena mapping carved into chunks, a free list. */
struct arena {
	enum design d;
	char *base;
	size_t stride;		/* from one chunk to the next */
	char *free[FREE_LIST];
	int nfree;
	long purged_reuses;	/* vrange: NONVOLATILE found the chunk purged */
	long errors;
};

struct worker {
	pthread_t tid;
	struct arena a;
	uint64_t rng;
	long iters, records, found;
	uint64_t ns_alloc, ns_copy, ns_search, ns_free;
};

static int arena_init(struct arena *a, enum design d)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->d = d;
	if (d == D_MUNMAP)
		return 0;
	a->stride = opt.chunk + (d == D_VRANGE_OWN_VMA ? PAGE_SZ : 0);
	a->base = map_anon(FREE_LIST * a->stride);
	if (a->base == MAP_FAILED)
		return -1;
	madvise(a->base, FREE_LIST * a->stride, MADV_NOHUGEPAGE);
	for (i = 0; i < FREE_LIST; i++) {
		a->free[a->nfree++] = a->base + i * a->stride;
		/* The guard page: a VMA of other flags between two chunks. */
		if (a->stride != opt.chunk &&
		    mprotect(a->base + i * a->stride + opt.chunk, PAGE_SZ, PROT_NONE))
			return -1;
	}
	return 0;
}

static void arena_fini(struct arena *a)
{
	if (a->base)
		munmap(a->base, FREE_LIST * a->stride);
}

static char *chunk_alloc(struct arena *a)
{
	char *p;
	int purged = 0;

	if (a->d == D_MUNMAP) {
		p = map_anon(opt.chunk);
		if (p == MAP_FAILED) {
			a->errors++;
			return NULL;
		}
		madvise(p, opt.chunk, MADV_NOHUGEPAGE);
		return p;
	}
	if (!a->nfree) {
		a->errors++;
		return NULL;
	}
	p = a->free[--a->nfree];
	if (is_vrange(a->d)) {
		if (designs[DESIGN_VRANGE].take_back(p, opt.chunk, &purged))
			a->errors++;
		a->purged_reuses += purged == 1;
	}
	if (a->d == D_VMA_FLAG && madvise(p, opt.chunk, MADV_DOFORK))
		a->errors++;
	return p;
}

static void chunk_free(struct arena *a, char *p)
{
	long r = 0;

	switch (a->d) {
	case D_MUNMAP:
		r = munmap(p, opt.chunk);
		break;
	case D_DONTNEED:
		r = madvise(p, opt.chunk, MADV_DONTNEED);
		break;
	case D_MADV_FREE:
	case D_VRANGE:
	case D_VRANGE_OWN_VMA:
		r = designs[run_design_id[a->d]].give_back(p, opt.chunk);
		break;
	case D_VMA_FLAG:
		r = madvise(p, opt.chunk, MADV_DONTFORK);
		break;
	default:
		break;
	}
	if (r)
		a->errors++;
	if (a->d != D_MUNMAP)
		a->free[a->nfree++] = p;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	while (!stop) {
		const struct record *src = source[xorshift64(&w->rng) % opt.nchunks];
		struct record *copy;
		uint64_t t0, t1, t2, t3, t4;
		int i;

		t0 = fine_ns();
		copy = (struct record *)chunk_alloc(&w->a);
		if (!copy)
			break;
		t1 = fine_ns();
		memcpy(copy, src, opt.chunk);
		t2 = fine_ns();
		for (i = 0; i < opt.searches; i++) {
			uint64_t key = xorshift64(&w->rng) % (2 * nrec);
			size_t lo = 0, hi = nrec;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (copy[mid].key < key)
					lo = mid + 1;
				else
					hi = mid;
			}
			w->found += lo < nrec && copy[lo].key == key;
			w->records++;
		}
		t3 = fine_ns();
		chunk_free(&w->a, (char *)copy);
		t4 = fine_ns();
		w->ns_alloc += t1 - t0;
		w->ns_copy += t2 - t1;
		w->ns_search += t3 - t2;
		w->ns_free += t4 - t3;
		w->iters++;
	}
	return NULL;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static const char *const counters[] = {
	DK_PGLAZYFREE, DK_PGLAZYFREED, DK_PGVRANGE_PURGED, DK_PSWPOUT,
};
#define NCOUNTERS 4

/* One design at one thread count, summed over the rounds. */
struct config {
	double rps[MAX_ROUNDS], ratio[MAX_ROUNDS];	/* per round */
	double ratio_mf[MAX_ROUNDS];	/* vrange: to madv_free of the same round */
	double ratio_keep[MAX_ROUNDS];	/* to keep of the same round */
	int rounds;
	double seconds;
	long iters, records, purged, errors, faults, counter[NCOUNTERS];
	int have_counter[NCOUNTERS];
	uint64_t ns_alloc, ns_copy, ns_search, ns_free;
	int short_threads;	/* a round started fewer threads than asked */
};

/* One round of one design: records/s, with the totals added to *c. */
static double run_round(enum design d, int threads, struct config *c)
{
	long before[NCOUNTERS], flt0, records = 0;
	struct worker w[MAX_THREADS];
	uint64_t t0, t1;
	int i, started = 0;

	memset(w, 0, sizeof(w));
	for (i = 0; i < NCOUNTERS; i++)
		before[i] = vmstat_get(counters[i]);
	flt0 = minflt();
	stop = 0;
	t0 = fine_ns();
	for (i = 0; i < threads; i++) {
		w[i].rng = 0x9e3779b97f4a7c15ull * (i + 1) + c->rounds;
		if (arena_init(&w[i].a, d) || pthread_create(&w[i].tid, NULL, worker_run, &w[i]))
			break;
		started++;
	}
	if (started == threads)
		usleep(opt.round_ms * 1000);
	stop = 1;
	for (i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	t1 = fine_ns();
	c->short_threads |= started != threads;
	c->faults += minflt() - flt0;
	for (i = 0; i < NCOUNTERS; i++) {
		long now = vmstat_get(counters[i]);

		c->have_counter[i] = before[i] >= 0 && now >= 0;
		if (c->have_counter[i])
			c->counter[i] += now - before[i];
	}
	for (i = 0; i < started; i++) {
		c->iters += w[i].iters;
		records += w[i].records;
		c->purged += w[i].a.purged_reuses;
		c->errors += w[i].a.errors;
		c->ns_alloc += w[i].ns_alloc;
		c->ns_copy += w[i].ns_copy;
		c->ns_search += w[i].ns_search;
		c->ns_free += w[i].ns_free;
		arena_fini(&w[i].a);
	}
	c->records += records;
	c->seconds += (t1 - t0) / 1e9;
	return records / ((t1 - t0) / 1e9);
}

/*
 * run_round() in a child process, its figures passed back through a shared
 * mapping; in this process if there is no memory or no fork for it.
 */
static double run_round_apart(enum design d, int threads, struct config *c)
{
	struct shared { struct config c; double rps; } *sh;
	int status;
	pid_t pid;
	double rps;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return run_round(d, threads, c);
	sh->c = *c;
	pid = fork();
	if (pid == 0) {
		sh->rps = run_round(d, threads, &sh->c);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		munmap(sh, sizeof(*sh));
		if (pid < 0)
			return run_round(d, threads, c);
		c->errors++;
		return 0;
	}
	*c = sh->c;
	rps = sh->rps;
	munmap(sh, sizeof(*sh));
	return rps;
}

static void report(enum design d, int threads, struct config *c, int have_base, int have_mf)
{
	struct vmab_data dd;
	int i, ok = !c->short_threads && !c->errors && c->iters > 0;
	char name[64];

	snprintf(name, sizeof(name), "churn_%s_%dt", design_name[d], threads);
	data_begin(&dd, DKIND_BENCH);
	data_str(&dd, DK_BENCH, "churn");
	data_str(&dd, DK_DESIGN, design_name[d]);
	data_long(&dd, DK_THREADS, threads);
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_long(&dd, DK_ROUNDS, c->rounds);
	data_double(&dd, DK_SECONDS, c->seconds);
	data_long(&dd, DK_CHUNK, (long)opt.chunk);
	data_long(&dd, DK_SEARCHES_PER_ITER, opt.searches);
	data_long(&dd, DK_ITERATIONS, c->iters);
	data_long(&dd, DK_RECORDS, c->records);
	data_double(&dd, DK_RECORDS_PER_S, median(c->rps, c->rounds));
	if (have_base) {
		/* Each round's ratio is to the dontneed run just before it. */
		data_double(&dd, DK_RATIO_TO_DONTNEED, median(c->ratio, c->rounds));
		{
			double lo = c->ratio[0], hi = c->ratio[0];

			for (i = 1; i < c->rounds; i++) {
				lo = c->ratio[i] < lo ? c->ratio[i] : lo;
				hi = c->ratio[i] > hi ? c->ratio[i] : hi;
			}
			data_double(&dd, DK_RATIO_MIN, lo);
			data_double(&dd, DK_RATIO_MAX, hi);
		}
	}
	if (have_mf)
		data_double(&dd, DK_RATIO_TO_MADV_FREE, median(c->ratio_mf, c->rounds));
	data_double(&dd, DK_RATIO_TO_KEEP, median(c->ratio_keep, c->rounds));
	if (c->iters) {
		data_double(&dd, DK_NS_ALLOC_PER_ITER, (double)c->ns_alloc / c->iters);
		data_double(&dd, DK_NS_COPY_PER_ITER, (double)c->ns_copy / c->iters);
		data_double(&dd, DK_NS_SEARCH_PER_ITER, (double)c->ns_search / c->iters);
		data_double(&dd, DK_NS_FREE_PER_ITER, (double)c->ns_free / c->iters);
		data_double(&dd, DK_FAULTS_PER_ITER, (double)c->faults / c->iters);
	}
	for (i = 0; i < NCOUNTERS; i++)
		if (c->have_counter[i])
			data_long(&dd, counters[i], c->counter[i]);
	if (is_vrange(d))
		data_long(&dd, DK_PURGED_REUSES, c->purged);
	data_long(&dd, DK_ERRORS, c->errors);
	data_emit(&dd);
	ksft_test_result(ok, "%s\n", name);
	if (!ok)
		printf("# %s: %s, %ld iterations, %ld failed calls\n", name,
		       c->short_threads ? "threads missing" : "all threads ran",
		       c->iters, c->errors);
}

static int setup_source(void)
{
	size_t i;
	int c;

	nrec = opt.chunk / sizeof(struct record);
	source = calloc(opt.nchunks, sizeof(*source));
	if (!source)
		return -1;
	for (c = 0; c < opt.nchunks; c++) {
		source[c] = map_anon(opt.chunk);
		if (source[c] == MAP_FAILED)
			return -1;
		for (i = 0; i < nrec; i++) {
			source[c][i].key = 2 * i;	/* sorted; odd keys miss */
			memset(source[c][i].payload, c + 1, sizeof(source[c][i].payload));
		}
	}
	return 0;
}

/* Its results, per thread count: a design it lacks skips. */
VMAB_NEEDS("churn_*", "");
VMAB_NEEDS("churn_madv_free_*", "madv_free");
VMAB_NEEDS("churn_vrange_*", "vrange");

int main(int argc, char **argv)
{
	const char *why[D_NR] = { NULL };
	int c, t, k;
	char *s;

	while ((c = getopt(argc, argv, "d:r:s:n:q:T:")) != -1) {
		switch (c) {
		case 'd': opt.round_ms = (int)(atof(optarg) * 1000); break;
		case 'r': opt.rounds = atoi(optarg); break;
		case 's': opt.chunk = strtoul(optarg, &s, 0) << (*s == 'K' || *s == 'k' ? 10 : *s == 'M' || *s == 'm' ? 20 : 0); break;
		case 'n': opt.nchunks = atoi(optarg); break;
		case 'q': opt.searches = atoi(optarg); break;
		case 'T':
			opt.nthreads = 0;
			for (s = strtok(optarg, ","); s && opt.nthreads < MAX_THREADS; s = strtok(NULL, ","))
				opt.threads[opt.nthreads++] = atoi(s);
			break;
		default:
			fprintf(stderr, "usage: %s [-d S] [-r ROUNDS] [-s CHUNK] [-n CHUNKS] [-q SEARCHES] [-T 1,2]\n", argv[0]);
			return 2;
		}
	}
	opt.chunk &= ~(PAGE_SZ - 1);
	if (opt.round_ms < 10 || opt.rounds < 1 || opt.rounds > MAX_ROUNDS ||
	    opt.chunk < PAGE_SZ || opt.nchunks < 1 || opt.searches < 0) {
		fprintf(stderr, "bench_churn: bad arguments\n");
		return 2;
	}
	for (t = 0; t < opt.nthreads; t++) {
		if (opt.threads[t] < 1 || opt.threads[t] > MAX_THREADS) {
			fprintf(stderr, "bench_churn: 1 to %d threads\n", MAX_THREADS);
			return 2;
		}
	}
	for (k = 0; k < D_NR; k++)
		if (run_design_id[k] >= 0)
			why[k] = design_absent(run_design_id[k]);

	ksft_print_header();
	ksft_set_plan(D_NR * opt.nthreads);
	printf("# mode %s, variant %s, chunk %zu bytes, %d source chunks, %d searches an iteration, %d rounds of %d ms, clock %s\n",
	       vmab_mode(), vmab_variant(), opt.chunk, opt.nchunks, opt.searches, opt.rounds,
	       opt.round_ms, fine_clock_name());
	if (setup_source()) {
		printf("# no memory for the source chunks\n");
		for (k = 0; k < D_NR * opt.nthreads; k++)
			ksft_test_result(0, "churn_setup\n");
		return 1;
	}
	for (t = 0; t < opt.nthreads; t++) {
		struct config cfg[D_NR];
		int round;

		memset(cfg, 0, sizeof(cfg));
		/* Rounds interleave the designs, so a change in background load hits all of them. */
		for (round = 0; round < opt.rounds; round++) {
			double base = 0, mf = 0;

			for (k = 0; k < D_NR; k++) {
				enum design d = run_order[k];
				struct config *c = &cfg[d];
				double rps;

				if (why[d])
					continue;
				rps = run_round_apart(d, opt.threads[t], c);
				c->rps[c->rounds] = rps;
				if (d == D_DONTNEED)
					base = rps;
				if (d == D_MADV_FREE)
					mf = rps;
				c->ratio[c->rounds] = base > 0 ? rps / base : 0;
				c->ratio_mf[c->rounds] = mf > 0 ? rps / mf : 0;
				c->rounds++;
			}
			/* keep runs last: each design's share of it in this round. */
			for (k = 0; k < D_NR; k++)
				if (!why[k])
					cfg[k].ratio_keep[round] = cfg[D_KEEP].rps[round] > 0 ?
						cfg[k].rps[round] / cfg[D_KEEP].rps[round] : 0;
		}
		for (k = 0; k < D_NR; k++) {
			enum design d = run_order[k];
			char name[64];

			snprintf(name, sizeof(name), "churn_%s_%dt", design_name[d], opt.threads[t]);
			if (why[d])
				ksft_test_result_skip_named(name, "%s", why[d]);
			else
				report(d, opt.threads[t], &cfg[d], d != D_DONTNEED,
				       is_vrange(d) && !why[D_MADV_FREE]);
		}
	}
	return 0;
}
