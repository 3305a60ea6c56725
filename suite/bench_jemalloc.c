// SPDX-License-Identifier: GPL-2.0
/*
 * bench_jemalloc: a real allocator as a client of MADV_FREE, so that the
 * designs are judged by a user the kernel did not write.
 *
 * Several threads churn through the system malloc(): each keeps a table of
 * live blocks (sizes from 16 KiB to 1 MiB, jemalloc's large classes), and
 * each step frees a random one, after checking that every word of it still
 * holds the pattern written when it was allocated, and allocates another,
 * filling it with a new pattern.  The program is built dynamically and runs
 * the churn in a child started with LD_PRELOAD=libjemalloc.so.2 (Debian's
 * libjemalloc2, 5.3) in two configurations:
 *   lazy    MALLOC_CONF=dirty_decay_ms:10,muzzy_decay_ms:-1: dirty pages are
 *           purged lazily, with MADV_FREE, after 10 ms, and kept (muzzy)
 *   forced  MALLOC_CONF=dirty_decay_ms:10,muzzy_decay_ms:0: the same purge,
 *           but forced, with MADV_DONTNEED
 * jemalloc tries MADV_FREE once at start-up and falls back to forced purges
 * where it fails (a kernel without CONFIG_MADV_FREE), so the lazy
 * configuration must then work as well, without a single MADV_FREE.
 *
 * Each configuration runs unconstrained and in a memory cgroup whose
 * memory.max is below what jemalloc would keep (-m), where reclaim must take
 * the lazily freed pages (pglazyfreed).  The forced and lazy runs alternate
 * in rounds; the figures are totals over the rounds.
 *
 * At the end of each run, with every block freed, each thread asks jemalloc
 * to purge what has decayed (arena.<i>.decay), so a run too short or slow
 * to reach jemalloc's decay ticks still takes its purge path once.
 *
 * Results: one @data line per configuration and place (operations per
 * second, the lazy/forced ratio, the pglazyfree and pglazyfreed deltas of
 * /proc/vmstat over the child's run, what jemalloc said its options were),
 * and one TAP result each: the child ran under jemalloc, no block was
 * corrupted, and the purge path was the expected one (lazy on a kernel with
 * MADV_FREE: pglazyfree grew; otherwise it did not).
 *
 * Usage: bench_jemalloc [-d SECONDS] [-r ROUNDS] [-t THREADS] [-m MEMCG_MAX] [-l LIB]
 *   -d  seconds of one configuration in one round (default 1)
 *   -r  rounds (default 2), -t threads (default 2)
 *   -m  memory.max of the cgroup (default 48M: above the forced run's peak,
 *       below the lazy one's, which keeps what it freed until reclaim takes it),
 *       -l the library to preload
 * (-W is the child's: run the churn and print what it did.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define MAX_THREADS 8
#define SLOTS 32
#define MIN_SIZE (16UL << 10)
#define SIZE_SHIFTS 7		/* 16K << 0..6: up to 1 MiB */
#define JEMALLOC "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"

static const char *const conf[2] = {
	"dirty_decay_ms:10,muzzy_decay_ms:0",	/* forced: MADV_DONTNEED */
	"dirty_decay_ms:10,muzzy_decay_ms:-1",	/* lazy: MADV_FREE */
};
static const char *const conf_name[2] = { "forced", "lazy" };

/* ---- the child: churn through malloc() ---- */

struct slot {
	uint64_t *p;
	size_t words;
	uint64_t seed;
};

struct churner {
	pthread_t tid;
	uint64_t rng;
	long ops, errors;
	double bytes;
	uint64_t t_end;		/* churn over, blocks freed, before settle() */
	struct slot s[SLOTS];
};

static volatile int stop;

typedef int (*mallctl_fn)(const char *, void *, size_t *, void *, size_t);
static mallctl_fn mallctl;

/*
 * jemalloc purges when an allocation or free ticks its decay clock (every
 * 1000 events a thread): a short or slow run (KASAN) may make none.  Each
 * thread, its blocks all freed and before it exits, asks its arena to purge
 * what has decayed, so that each run takes its configuration's path at
 * least once.  Twice: the first call after a pause counts every page freed
 * since the last epoch as freed just now.
 */
static void settle(void)
{
	unsigned arena;
	size_t sz = sizeof(arena);
	char name[64];
	int i;

	if (!mallctl || mallctl("thread.arena", &arena, &sz, NULL, 0))
		return;
	snprintf(name, sizeof(name), "arena.%u.decay", arena);
	for (i = 0; i < 2; i++) {
		usleep(30 * 1000);
		mallctl(name, NULL, NULL, NULL, 0);
	}
}

static void fill(struct slot *s)
{
	size_t i;

	for (i = 0; i < s->words; i++)
		s->p[i] = s->seed ^ (i * 0x9e3779b97f4a7c15ULL);
}

static int intact(const struct slot *s)
{
	size_t i;

	for (i = 0; i < s->words; i++)
		if (s->p[i] != (s->seed ^ (i * 0x9e3779b97f4a7c15ULL)))
			return 0;
	return 1;
}

static void release(struct churner *c, struct slot *s)
{
	if (!s->p)
		return;
	if (!intact(s))
		c->errors++;
	free(s->p);
	s->p = NULL;
}

static void *churn(void *arg)
{
	struct churner *c = arg;
	int i;

	while (!stop) {
		struct slot *s = &c->s[xorshift64(&c->rng) % SLOTS];
		size_t top = MIN_SIZE << (xorshift64(&c->rng) % SIZE_SHIFTS);
		size_t size = top / 2 + xorshift64(&c->rng) % (top / 2 + 1);

		if (size < MIN_SIZE)
			size = MIN_SIZE;
		release(c, s);
		s->p = malloc(size);
		if (!s->p) {
			c->errors++;
			continue;
		}
		s->words = size / sizeof(uint64_t);
		s->seed = xorshift64(&c->rng);
		fill(s);
		c->ops++;
		c->bytes += size;
	}
	for (i = 0; i < SLOTS; i++)
		release(c, &c->s[i]);
	c->t_end = now_ns();
	settle();
	return NULL;
}

static int worker(double secs, int threads)
{
	static struct churner c[MAX_THREADS];
	const char *version = "none";
	ssize_t dirty = -2, muzzy = -2;
	size_t sz;
	long ops = 0, errors = 0;
	double bytes = 0;
	uint64_t t0, t1 = 0;
	int i, started = 0;

	mallctl = (mallctl_fn)dlsym(RTLD_DEFAULT, "mallctl");
	if (mallctl) {
		sz = sizeof(version);
		mallctl("version", &version, &sz, NULL, 0);
		sz = sizeof(dirty);
		mallctl("opt.dirty_decay_ms", &dirty, &sz, NULL, 0);
		sz = sizeof(muzzy);
		mallctl("opt.muzzy_decay_ms", &muzzy, &sz, NULL, 0);
	}
	t0 = now_ns();
	for (i = 0; i < threads; i++) {
		c[i].rng = 0x2545f4914f6cdd1dULL * (i + 1) ^ t0;
		if (pthread_create(&c[i].tid, NULL, churn, &c[i]))
			break;
		started++;
	}
	usleep(secs * 1e6);
	stop = 1;
	for (i = 0; i < started; i++) {
		pthread_join(c[i].tid, NULL);
		ops += c[i].ops;
		errors += c[i].errors;
		bytes += c[i].bytes;
		if (c[i].t_end > t1)
			t1 = c[i].t_end;
	}
	if (!t1)
		t1 = now_ns();
	printf("ops %ld errors %ld bytes %.0f ns %llu threads %d jemalloc %s dirty %zd muzzy %zd\n",
	       ops, errors, bytes, (unsigned long long)(t1 - t0), started,
	       version, dirty, muzzy);
	return started == threads ? 0 : 1;
}

/* ---- the parent: run the child in each configuration ---- */

struct run {
	long ops, errors, lazyfree, lazyfreed, faults;
	double bytes, secs;
	char version[64];
	long dirty, muzzy;
	int runs, bad_exit;
	char why[128];
};

static struct {
	double secs;
	int rounds, threads;
	const char *memcg_max, *lib;
} opt = { 1.0, 2, 2, "48M", JEMALLOC };

static void counters(long *lf, long *lfd)
{
	vmstat_refresh();
	*lf = vmstat_get("pglazyfree");
	*lfd = vmstat_get("pglazyfreed");
}

/* One child run of configuration k, in cg when not NULL; adds to *r. */
static void run_child(int k, const struct memcg *cg, struct run *r)
{
	char secs[32], threads[16], line[512];
	int pfd[2], status;
	long lf0, lfd0, lf1, lfd1, ops, errors, dirty, muzzy;
	unsigned long long ns;
	double bytes;
	char version[64];
	FILE *f;
	pid_t pid;

	snprintf(secs, sizeof(secs), "%g", opt.secs);
	snprintf(threads, sizeof(threads), "%d", opt.threads);
	if (pipe(pfd)) {
		snprintf(r->why, sizeof(r->why), "pipe: %s", strerror(errno));
		r->bad_exit++;
		return;
	}
	counters(&lf0, &lfd0);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		if (cg && memcg_enter(cg))
			_exit(126);
		setenv("LD_PRELOAD", opt.lib, 1);
		setenv("MALLOC_CONF", conf[k], 1);
		execl("/proc/self/exe", "bench_jemalloc", "-W", secs, threads, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	line[0] = 0;
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
		fclose(f);
	}
	waitpid(pid, &status, 0);
	counters(&lf1, &lfd1);
	r->runs++;
	r->lazyfree += lf1 - lf0;
	r->lazyfreed += lfd1 - lfd0;
	if (sscanf(line, "ops %ld errors %ld bytes %lf ns %llu threads %*d jemalloc %63s dirty %ld muzzy %ld",
		   &ops, &errors, &bytes, &ns, version, &dirty, &muzzy) != 7) {
		r->bad_exit++;
		snprintf(r->why, sizeof(r->why), "child said nothing (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "exit",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		r->bad_exit++;
		snprintf(r->why, sizeof(r->why), "child exit status %#x", status);
	}
	r->ops += ops;
	r->errors += errors;
	r->bytes += bytes;
	r->secs += ns / 1e9;
	snprintf(r->version, sizeof(r->version), "%s", version);
	r->dirty = dirty;
	r->muzzy = muzzy;
}

static void report(int k, const char *place, struct run *r, const struct run *forced,
		   int lazy_expected)
{
	struct vmab_data d;
	char name[64];
	int jem = strcmp(r->version, "none") && r->version[0];
	int path_ok = k ? (lazy_expected ? r->lazyfree > 0 : r->lazyfree == 0)
			: r->lazyfree == 0;
	int ok = !r->bad_exit && jem && !r->errors && r->ops > 0 && path_ok;

	snprintf(name, sizeof(name), "jemalloc_%s_purge%s%s", conf_name[k],
		 *place ? "_" : "", place);
	data_begin(&d, DKIND_BENCH);
	data_str(&d, DK_BENCH, "jemalloc");
	data_str(&d, DK_CONFIG, conf_name[k]);
	data_str(&d, DK_CGROUP, *place ? place : "none");
	if (*place)
		data_str(&d, DK_MEMORY_MAX, opt.memcg_max);
	data_str(&d, DK_MALLOC_CONF, conf[k]);
	data_str(&d, DK_JEMALLOC, jem ? r->version : NULL);
	data_long(&d, DK_OPT_DIRTY_DECAY_MS, r->dirty);
	data_long(&d, DK_OPT_MUZZY_DECAY_MS, r->muzzy);
	data_long(&d, DK_MADV_FREE_KERNEL, lazy_expected);
	data_long(&d, DK_THREADS, opt.threads);
	data_long(&d, DK_RUNS, r->runs);
	data_double(&d, DK_SECONDS, r->secs);
	data_long(&d, DK_OPS, r->ops);
	data_double(&d, DK_OPS_PER_S, r->secs > 0 ? r->ops / r->secs : 0);
	data_double(&d, DK_MIB_PER_S, r->secs > 0 ? r->bytes / r->secs / (1 << 20) : 0);
	if (k && forced && forced->secs > 0 && forced->ops > 0 && r->secs > 0)
		data_double(&d, DK_RATIO_TO_FORCED,
			    (r->ops / r->secs) / (forced->ops / forced->secs));
	data_long(&d, DK_PGLAZYFREE, r->lazyfree);
	data_long(&d, DK_PGLAZYFREED, r->lazyfreed);
	data_long(&d, DK_CORRUPTED, r->errors);
	data_emit(&d);
	if (!ok)
		printf("# %s: %s%s%s%s%s; pglazyfree +%ld (want %s)\n", name,
		       r->bad_exit ? r->why : "ran",
		       jem ? "" : ", jemalloc not loaded",
		       r->errors ? ", corrupted blocks" : "",
		       r->ops > 0 ? "" : ", no operations",
		       path_ok ? "" : ", wrong purge path", r->lazyfree,
		       k && lazy_expected ? "> 0" : "0");
	ksft_test_result(ok, "%s\n", name);
}

VMAB_NEEDS("jemalloc_*", "");
VMAB_NEEDS("jemalloc_*_memcg", "memcg");

int main(int argc, char **argv)
{
	int o, k, i, place, lazy_expected;

	if (argc == 4 && !strcmp(argv[1], "-W"))
		return worker(atof(argv[2]), atoi(argv[3]));
	while ((o = getopt(argc, argv, "d:r:t:m:l:")) != -1) {
		switch (o) {
		case 'd': opt.secs = atof(optarg); break;
		case 'r': opt.rounds = atoi(optarg); break;
		case 't': opt.threads = atoi(optarg); break;
		case 'm': opt.memcg_max = optarg; break;
		case 'l': opt.lib = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-d SECONDS] [-r ROUNDS] [-t THREADS] [-m MEMCG_MAX] [-l LIB]\n",
				argv[0]);
			return 2;
		}
	}
	if (opt.threads < 1 || opt.threads > MAX_THREADS)
		opt.threads = 2;
	if (opt.rounds < 1)
		opt.rounds = 1;
	lazy_expected = madv_free_supported();
	ksft_print_header();
	ksft_set_plan(4);
	for (place = 0; place < 2; place++) {
		struct run r[2];
		struct memcg cg;
		const char *why = NULL;
		int have_cg = 0;

		memset(r, 0, sizeof(r));
		if (access(opt.lib, R_OK)) {
			for (k = 0; k < 2; k++) {
				printf("# no %s: install libjemalloc2 on the host\n", opt.lib);
				ksft_test_result(0, "jemalloc_%s_purge%s\n", conf_name[k], place ? "_memcg" : "");
			}
			continue;
		}
		if (place) {
			why = need_memcg();
			if (!why && memcg_create(&cg, "jemalloc"))
				why = "cannot create a memory cgroup";
			if (!why && memcg_write(&cg, "memory.max", opt.memcg_max))
				why = "cannot set memory.max";
			have_cg = !why || strcmp(why, "cannot set memory.max") == 0;
			if (why) {
				for (k = 0; k < 2; k++)
					ksft_test_result_skip_named(k ? "jemalloc_lazy_purge_memcg" : "jemalloc_forced_purge_memcg",
								    "%s", why);
				if (have_cg)
					memcg_destroy(&cg);
				continue;
			}
		}
		for (i = 0; i < opt.rounds; i++)
			for (k = 0; k < 2; k++)
				run_child(k, place ? &cg : NULL, &r[k]);
		if (place)
			memcg_destroy(&cg);
		for (k = 0; k < 2; k++)
			report(k, place ? "memcg" : "", &r[k], &r[0], lazy_expected);
	}
	return 0;
}
