// SPDX-License-Identifier: GPL-2.0
/*
 * bench_pressure: churn and a cache inside a memory cgroup whose memory.max
 * is below their combined footprint: what each design gives a cache and an
 * allocator that share too little memory.
 *
 * One child process per design, in a memory cgroup of its own, runs two
 * threads for a few seconds:
 *   churn  bench_churn's loop (copy a random source chunk into a chunk from
 *          an arena, search it, free it) over an arena of many chunks reused
 *          first-in first-out, so freed chunks stay marked for a while
 *   cache  an object cache (64 KiB objects, random accesses): an object is
 *          taken back before use, checked (a canary per page), regenerated
 *          if its content was discarded, used, and marked again after use
 * and what "marked" means is the design:
 *   dontneed   churn frees with MADV_DONTNEED; the cache is plain memory
 *              (nothing to give back: pressure means swap, or OOM)
 *   madv_free  churn frees with MADV_FREE; idle cache objects are MADV_FREE
 *   vrange     churn frees with vrange(VOLATILE), NONVOLATILE on reuse;
 *              idle cache objects are volatile
 * Reported per design: churn records/s and cache accesses/s (and their
 * ratios to dontneed in the same boot), objects regenerated, objects with
 * wrong content (must be 0), pages purged (pgvrange_purged, pglazyfreed),
 * swap traffic (pswpout, pswpin) and whether the memory cgroup OOM-killed
 * anything (memory.events oom_kill).  The run-time mode (VMAB_MODE) says
 * whether swap is on; the driver runs each boot with and without it.
 *
 * Usage: bench_pressure [-d SECONDS] [-l LIMIT] [-c CACHE] [-a ARENA]
 *   defaults: 4 s, memory.max 40M, cache 48M, churn arena 32M
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define CHUNK (256UL << 10)
#define NSRC 8
#define OBJ (64UL << 10)
#define OBJ_PAGES (OBJ / PAGE_SZ)
#define SEARCHES 64

/*
 * The runs: MADV_DONTNEED, the control, then designs B and A of
 * lib/designs.h.  Design C is not run: the churn's chunks are rewritten
 * after they are taken back, and a droppable chunk may be dropped between
 * the copy and the searches, which no allocator user expects.  The cache
 * with C is bench_discardable's.
 */
enum design { D_DONTNEED, D_MADV_FREE, D_VRANGE, D_NR };
static const int run_design_id[D_NR] = { -1, DESIGN_MADV_FREE, DESIGN_VRANGE };

static const char *run_name(enum design d)
{
	return run_design_id[d] < 0 ? "dontneed" : designs[run_design_id[d]].name;
}

static struct {
	int seconds;
	size_t limit, cache, arena;
} opt = { 4, 40UL << 20, 48UL << 20, 32UL << 20 };

/* Written by the child as it goes (shared), read by the parent even after an OOM kill. */
struct shared {
	long churn_records, churn_iters, churn_purged, churn_errors;
	long cache_ops, cache_regenerated, cache_wrong, cache_purged, cache_errors;
	long cache_pages_lost;	/* pages found zero: discarded, seen from user space */
	double seconds;
	int done;
};

static struct shared *sh;
static volatile int stop;
static enum design design;

/* Mark [p, p+len) as lazily free in this design; 0 or -1. */
static int mark(char *p, size_t len)
{
	if (run_design_id[design] < 0)
		return 0;
	return designs[run_design_id[design]].give_back(p, len) ? -1 : 0;
}

/* Take [p, p+len) back; 1 if the kernel says it purged some, 0, or -1. */
static int unmark(char *p, size_t len)
{
	int purged = 0;

	/* B: the memcpy that follows every take-back rewrites the chunk. */
	if (run_design_id[design] < 0 ||
	    designs[run_design_id[design]].loss != LOSS_PURGED_FLAG)
		return 0;
	if (designs[run_design_id[design]].take_back(p, len, &purged))
		return -1;
	return purged == 1;
}

static uint64_t **source;

static void *churn_thread(void *arg)
{
	size_t nchunks = opt.arena / CHUNK, next = 0, nrec = CHUNK / sizeof(uint64_t);
	char *arena = map_anon(opt.arena);
	uint64_t rng = 0x243f6a8885a308d3ull;

	if (arena == MAP_FAILED) {
		sh->churn_errors++;
		return NULL;
	}
	madvise(arena, opt.arena, MADV_NOHUGEPAGE);
	while (!stop) {
		uint64_t *copy = (uint64_t *)(arena + next * CHUNK);
		const uint64_t *src = source[xorshift64(&rng) % NSRC];
		int i, r;

		next = (next + 1) % nchunks;	/* FIFO: the longest-marked chunk */
		r = unmark((char *)copy, CHUNK);
		if (r < 0)
			sh->churn_errors++;
		sh->churn_purged += r > 0;
		memcpy(copy, src, CHUNK);
		for (i = 0; i < SEARCHES; i++) {
			uint64_t key = xorshift64(&rng) % (2 * nrec);
			size_t lo = 0, hi = nrec;

			while (lo < hi) {
				size_t mid = (lo + hi) / 2;

				if (copy[mid] < key)
					lo = mid + 1;
				else
					hi = mid;
			}
			sh->churn_records++;
		}
		if (design == D_DONTNEED ? madvise(copy, CHUNK, MADV_DONTNEED) : mark((char *)copy, CHUNK))
			sh->churn_errors++;
		sh->churn_iters++;
	}
	return NULL;
}

static uint64_t canary(size_t obj, size_t page)
{
	return (uint64_t)obj << 16 | page | 1ull << 63;
}

/* The object's content, made again (what a cache does after a miss: decode, render...). */
static void regenerate(char *o, size_t obj)
{
	size_t pg;

	for (pg = 0; pg < OBJ_PAGES; pg++) {
		uint64_t *w = (uint64_t *)(o + pg * PAGE_SZ);

		memset(w + 1, (int)(obj & 0x7f) | 1, 1024);
		w[0] = canary(obj, pg);
	}
}

static void *cache_thread(void *arg)
{
	size_t nobj = opt.cache / OBJ, i;
	char *cache = map_anon(opt.cache);
	uint64_t rng = 0x13198a2e03707344ull;

	if (cache == MAP_FAILED) {
		sh->cache_errors++;
		return NULL;
	}
	madvise(cache, opt.cache, MADV_NOHUGEPAGE);
	for (i = 0; i < nobj; i++) {
		regenerate(cache + i * OBJ, i);
		if (mark(cache + i * OBJ, OBJ))
			sh->cache_errors++;
	}
	while (!stop) {
		size_t obj = xorshift64(&rng) % nobj, pg;
		char *o = cache + obj * OBJ;
		int r = unmark(o, OBJ), lost = 0, wrong = 0;

		if (r < 0)
			sh->cache_errors++;
		sh->cache_purged += r > 0;
		for (pg = 0; pg < OBJ_PAGES; pg++) {
			uint64_t *w = (uint64_t *)(o + pg * PAGE_SZ);

			if (w[0] == 0) {
				lost = 1;	/* discarded: a zero page */
				sh->cache_pages_lost++;
			}
			else if (w[0] != canary(obj, pg))
				wrong = 1;	/* neither ours nor zero */
		}
		if (r > 0 || lost)
			regenerate(o, obj);
		sh->cache_regenerated += r > 0 || lost;
		sh->cache_wrong += wrong;
		for (pg = 0; pg < OBJ_PAGES; pg++)	/* use it */
			((volatile char *)o)[pg * PAGE_SZ + 8] += 1;
		if (mark(o, OBJ))
			sh->cache_errors++;
		sh->cache_ops++;
	}
	return NULL;
}

static void run_child(const struct memcg *cg)
{
	pthread_t t[2];
	uint64_t t0;
	size_t i, c;

	if (memcg_enter(cg))
		_exit(3);
	source = calloc(NSRC, sizeof(*source));
	for (c = 0; c < NSRC; c++) {
		source[c] = map_anon(CHUNK);
		if (source[c] == MAP_FAILED)
			_exit(4);
		for (i = 0; i < CHUNK / sizeof(uint64_t); i++)
			source[c][i] = 2 * i;
	}
	t0 = fine_ns();
	if (pthread_create(&t[0], NULL, churn_thread, NULL) ||
	    pthread_create(&t[1], NULL, cache_thread, NULL))
		_exit(5);
	sleep(opt.seconds);
	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	sh->seconds = (fine_ns() - t0) / 1e9;
	sh->done = 1;
	_exit(0);
}

static const char *const counters[] = {
	DK_PGVRANGE_PURGED, DK_PGLAZYFREED, DK_PSWPOUT, DK_PSWPIN, DK_PGMAJFAULT,
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))
static const char *const memcg_stats[] = {
	"pgscan", "pgsteal", "pglazyfreed", "pgvrange_purged", "pgmajfault",
	"workingset_refault_anon",
};
#define NMEMCG_STATS (sizeof(memcg_stats) / sizeof(memcg_stats[0]))

struct outcome {
	double churn_rps, cache_ops;
};

static struct outcome run_design(enum design d, const struct outcome *base)
{
	long before[NCOUNTERS], oom_kill, swap_peak = -1;
	struct outcome out = { 0, 0 };
	struct vmab_data dd;
	struct memcg cg;
	char val[32], name[32];
	uint64_t t0 = fine_ns();
	int st = 0, killed = 0, ok;
	size_t k;
	pid_t pid;

	snprintf(name, sizeof(name), "pressure_%s", run_name(d));
	memset(sh, 0, sizeof(*sh));
	if (memcg_create(&cg, run_name(d))) {
		ksft_test_result(0, "%s # memcg_create: %s\n", name, strerror(errno));
		return out;
	}
	snprintf(val, sizeof(val), "%zu", opt.limit);
	memcg_write(&cg, "memory.max", val);
	for (k = 0; k < NCOUNTERS; k++)
		before[k] = vmstat_get(counters[k]);
	design = d;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		run_child(&cg);
	if (pid > 0) {
		/* A thrashing child is stopped, not waited for forever. */
		int waited = 0;

		while (waitpid(pid, &st, WNOHANG) == 0) {
			long sw = memcg_read_long(&cg, "memory.swap.current");

			if (sw > swap_peak)
				swap_peak = sw;
			if (++waited > (opt.seconds + 120) * 10) {
				kill(pid, SIGKILL);
				killed = 1;
				waitpid(pid, &st, 0);
				break;
			}
			usleep(100000);
		}
	}
	oom_kill = -1;
	{
		char p[320], buf[1024], *s;

		snprintf(p, sizeof(p), "%s/memory.events", cg.path);
		if (read_file(p, buf, sizeof(buf)) > 0 && (s = strstr(buf, "oom_kill ")))
			oom_kill = strtol(s + 9, NULL, 10);
	}
	if (!sh->seconds)
		sh->seconds = (fine_ns() - t0) / 1e9;
	out.churn_rps = sh->churn_records / sh->seconds;
	out.cache_ops = sh->cache_ops / sh->seconds;

	data_begin(&dd, DKIND_BENCH);
	data_str(&dd, DK_BENCH, "pressure");
	data_str(&dd, DK_DESIGN, run_name(d));
	data_long(&dd, DK_SWAP, vmab_mode_has_swap());
	data_long(&dd, DK_LIMIT, (long)opt.limit);
	data_long(&dd, DK_FOOTPRINT, (long)(opt.cache + opt.arena + NSRC * CHUNK));
	data_double(&dd, DK_SECONDS, sh->seconds);
	data_long(&dd, DK_COMPLETED, sh->done);
	data_double(&dd, DK_CHURN_RECORDS_PER_S, out.churn_rps);
	data_double(&dd, DK_CACHE_OPS_PER_S, out.cache_ops);
	if (base && base->churn_rps > 0)
		data_double(&dd, DK_CHURN_RATIO_TO_DONTNEED, out.churn_rps / base->churn_rps);
	if (base && base->cache_ops > 0)
		data_double(&dd, DK_CACHE_RATIO_TO_DONTNEED, out.cache_ops / base->cache_ops);
	data_long(&dd, DK_CHURN_PURGED_REUSES, sh->churn_purged);
	data_long(&dd, DK_CACHE_OPS, sh->cache_ops);
	data_long(&dd, DK_CACHE_REGENERATED, sh->cache_regenerated);
	data_long(&dd, DK_CACHE_WRONG, sh->cache_wrong);
	data_long(&dd, DK_CACHE_PAGES_LOST, sh->cache_pages_lost);
	data_long(&dd, DK_CACHE_PURGED_FLAGS, sh->cache_purged);
	for (k = 0; k < NCOUNTERS; k++) {
		long now = vmstat_get(counters[k]);

		if (before[k] >= 0 && now >= 0)
			data_long(&dd, counters[k], now - before[k]);
	}
	/* The memcg's own events exist without CONFIG_VM_EVENT_COUNTERS. */
	for (k = 0; k < NMEMCG_STATS; k++) {
		long v = memcg_stat(&cg, memcg_stats[k]);
		char key[64];

		snprintf(key, sizeof(key), DK_MEMCG_PREFIX "%s", memcg_stats[k]);
		if (v >= 0)
			data_long(&dd, key, v);
	}
	if (swap_peak >= 0)
		data_long(&dd, DK_SWAP_PEAK_KB, swap_peak / 1024);
	data_long(&dd, DK_OOM_KILL, oom_kill);
	data_long(&dd, DK_KILLED_BY_SIGNAL, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	data_long(&dd, DK_TIMED_OUT, killed);
	data_long(&dd, DK_ERRORS, sh->churn_errors + sh->cache_errors);
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_emit(&dd);

	/*
	 * Wrong content or a failed call is a failure in any design; an OOM
	 * kill is one only where the design had marked memory to give up.
	 */
	ok = pid > 0 && !sh->cache_wrong && !sh->churn_errors && !sh->cache_errors &&
	     !killed && (d == D_DONTNEED || (oom_kill <= 0 && sh->done));
	if (!ok)
		printf("# %s: completed %d, oom_kill %ld, wrong %ld, errors %ld, signal %d%s\n",
		       name, sh->done, oom_kill, sh->cache_wrong,
		       sh->churn_errors + sh->cache_errors,
		       WIFSIGNALED(st) ? WTERMSIG(st) : 0, killed ? ", timed out" : "");
	ksft_test_result(ok, "%s\n", name);
	memcg_destroy(&cg);
	return out;
}

/* Every run is under a memory cgroup's limit. */
VMAB_NEEDS("pressure_*", "memcg");
VMAB_NEEDS("pressure_madv_free", "madv_free");
VMAB_NEEDS("pressure_vrange", "vrange");

int main(int argc, char **argv)
{
	const char *why[D_NR] = { NULL };
	struct outcome base = { 0, 0 };
	int c, d, bad = 0;

	while ((c = getopt(argc, argv, "d:l:c:a:")) != -1) {
		switch (c) {
		case 'd': opt.seconds = atoi(optarg); break;
		case 'l': bad |= parse_size(optarg, &opt.limit); break;
		case 'c': bad |= parse_size(optarg, &opt.cache); break;
		case 'a': bad |= parse_size(optarg, &opt.arena); break;
		default:
			fprintf(stderr, "usage: %s [-d S] [-l LIMIT] [-c CACHE] [-a ARENA]\n", argv[0]);
			return 2;
		}
	}
	if (bad || opt.seconds < 1 || opt.cache < OBJ || opt.arena < CHUNK) {
		fprintf(stderr, "bench_pressure: bad arguments\n");
		return 2;
	}
	opt.cache -= opt.cache % OBJ;
	opt.arena -= opt.arena % CHUNK;
	ksft_print_header();
	ksft_set_plan(D_NR);
	printf("# mode %s, variant %s: memory.max %zu bytes for a %zu-byte cache, a %zu-byte churn arena and %lu bytes of sources, %d s a design, clock %s\n",
	       vmab_mode(), vmab_variant(), opt.limit, opt.cache, opt.arena,
	       NSRC * CHUNK, opt.seconds, fine_clock_name());
	for (d = 0; d < D_NR; d++)
		if (run_design_id[d] >= 0)
			why[d] = design_absent(run_design_id[d]);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || !memcg_available()) {
		for (d = 0; d < D_NR; d++) {
			char name[32];

			snprintf(name, sizeof(name), "pressure_%s", run_name(d));
			ksft_test_result_skip_named(name, "%s", sh == MAP_FAILED ? "no shared page"
						    : need_memcg());
		}
		return 0;
	}
	for (d = 0; d < D_NR; d++) {
		char name[32];
		struct outcome o;

		snprintf(name, sizeof(name), "pressure_%s", run_name(d));
		if (why[d]) {
			ksft_test_result_skip_named(name, "%s", why[d]);
			continue;
		}
		o = run_design(d, d == D_DONTNEED ? NULL : &base);
		if (d == D_DONTNEED)
			base = o;
	}
	return 0;
}
