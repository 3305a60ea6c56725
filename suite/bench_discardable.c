// SPDX-License-Identifier: GPL-2.0
/*
 * bench_discardable: a discardable-memory cache, shaped like Chromium's
 * (base/memory/discardable_memory), with one lock/unlock API implemented
 * with each design of lib/designs.h:
 *
 *   unlock  the object may be dropped from now on
 *   lock    the object is the cache's again; answers "intact" or "lost"
 *           (and then the cache regenerates it)
 *
 *   A vrange     unlock: vrange(VOLATILE); lock: vrange(NONVOLATILE), and
 *                its purged flag is the answer
 *   B madv_free  unlock: a cookie written in every page, then MADV_FREE;
 *                lock: a compare-and-swap of every page's cookie with
 *                itself (a write, which takes the page back), any missing
 *                cookie answers "lost"
 *   C droppable  the object lives in a MAP_DROPPABLE mapping; unlock: the
 *                cookie in every page; lock: a read of every cookie.  C
 *                cannot take a page back: a locked object may still be
 *                dropped (counted, not failed: it is the design)
 *
 * Part 1, lock and unlock latency without pressure: one populated object
 * of 1, 16 and 256 MiB (the largest that fits a quarter of MemAvailable),
 * the median over rounds of the time of one unlock and of the lock after
 * it.  A's lock is O(VMAs), a cookie check O(pages): the report's goal is
 * A's lock at 256 MiB at least 10x cheaper than B's and C's.
 *
 * Part 2, answers under pressure: 32 objects of 64 KiB; 1,000 cycles, each
 * locks a random object, checks every byte of it against what the cache
 * wrote, regenerates it if the lock said "lost", and unlocks it; every 25
 * cycles, while one object is held locked, memory.reclaim of half the
 * cache in the memory cgroup the design runs in (without a memory
 * controller: MADV_PAGEOUT of the whole cache).  A wrong answer is a lock
 * that said "intact" of an object that lost a byte; one that said "lost"
 * of an object that lost nothing is a false alarm.  Asserted: 0 wrong
 * answers for every design; for A and B also no byte lost by an object
 * held locked across the reclaim.
 *
 * Usage: bench_discardable [-r ROUNDS] [-c CYCLES] [-m MAX]
 *   defaults: 9 rounds (5 at sizes over 16 MiB), 1000 cycles, 256M
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define MIB (1UL << 20)
#define MAX_ROUNDS 31
#define NOBJ 32
#define OBJ_LEN (64UL << 10)
#define RECLAIM_EVERY 25
#define COOKIE 0x636f6f6b69653a29ull	/* "cookie:)", never 0 */

static struct {
	int rounds, cycles;
	size_t max;
} opt = { 9, 1000, 256 * MIB };

/* One cached object. */
struct dobj {
	const struct design_def *d;
	char *p;
	size_t len;
	unsigned int seed;
};

/*
 * The object's content: every 8-byte word but each page's first (the
 * cookie's) is a hash of the seed, the page and the word, so a dropped
 * page (all zero) or a stale one is seen byte for byte.  Written and
 * checked a word at a time: 256 MiB must be regenerated quickly under TCG.
 */
static uint64_t content_word(unsigned int seed, size_t page, size_t w)
{
	uint64_t x = ((uint64_t)seed << 32) ^ (page * 0x9e3779b97f4a7c15ull) ^ (w + 1);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return (x ^ (x >> 29)) | 1;
}

static void regenerate(struct dobj *o)
{
	size_t pg, w;

	for (pg = 0; pg < o->len / PAGE_SZ; pg++) {
		uint64_t *q = (uint64_t *)(o->p + pg * PAGE_SZ);

		q[0] = COOKIE;
		for (w = 1; w < PAGE_SZ / 8; w++)
			q[w] = content_word(o->seed, pg, w);
	}
}

/*
 * Pages of the object that no longer hold what regenerate() wrote, every
 * step-th page looked at (1: every page, byte for byte).
 */
static long pages_lost_every(const struct dobj *o, size_t step)
{
	size_t pg, w;
	long lost = 0;

	for (pg = 0; pg < o->len / PAGE_SZ; pg += step) {
		const uint64_t *q = (const uint64_t *)(o->p + pg * PAGE_SZ);
		int bad = q[0] != COOKIE;

		for (w = 1; w < PAGE_SZ / 8 && !bad; w++)
			bad = q[w] != content_word(o->seed, pg, w);
		lost += bad;
	}
	return lost;
}

static long pages_lost(const struct dobj *o)
{
	return pages_lost_every(o, 1);
}

/* --- the API, three ways ----------------------------------------------------- */

/* 0, or -errno. */
static int dobj_unlock(struct dobj *o)
{
	if (o->d->loss == LOSS_COOKIE)
		cookie_write(o->p, o->len, COOKIE);
	return o->d->give_back(o->p, o->len);
}

/* 1 "intact", 0 "lost" (regenerate it), or -errno. */
static int dobj_lock(struct dobj *o)
{
	int purged = 0, r;

	if (o->d->loss == LOSS_PURGED_FLAG) {
		r = o->d->take_back(o->p, o->len, &purged);
		return r ? r : !purged;
	}
	if (o->d->writes_take_back)
		return cookie_take_back(o->p, o->len, COOKIE) == 0;
	return cookie_lost(o->p, o->len, COOKIE) == 0;
}

static int dobj_map(struct dobj *o, const struct design_def *d, size_t len, unsigned int seed)
{
	o->d = d;
	o->len = len;
	o->seed = seed;
	o->p = d->map(len);
	if (o->p == MAP_FAILED)
		return -1;
	/* 4 KiB pages for every design: a THP would be dropped or kept whole. */
	if (no_hugepage(o->p, len))
		return -1;
	regenerate(o);
	return 0;
}

/* --- part 1: latency ------------------------------------------------------- */

static int rounds_for(size_t len)
{
	return len > 16 * MIB && opt.rounds > 5 ? 5 : opt.rounds;
}

/* One size of one design: 0, or -1 if a call failed or an answer was wrong. */
static int latency(const struct design_def *d, size_t len)
{
	double lock_ns[MAX_ROUNDS], unlock_ns[MAX_ROUNDS];
	int r, n = rounds_for(len), bad = 0, said_lost = 0;
	struct vmab_data dd;
	struct dobj o;

	if (dobj_map(&o, d, len, 0x10c4u)) {
		printf("# %s: no memory for %zu bytes\n", d->name, len);
		return -1;
	}
	for (r = 0; r < n; r++) {
		uint64_t t0, t1, t2;
		int ans, u;
		long lost;

		t0 = fine_ns();
		u = dobj_unlock(&o);
		t1 = fine_ns();
		ans = dobj_lock(&o);
		t2 = fine_ns();
		unlock_ns[r] = t1 - t0;
		lock_ns[r] = t2 - t1;
		if (u || ans < 0) {
			printf("# %s at %zu bytes: unlock %d, lock %d\n", d->name, len, u, ans);
			bad = 1;
			break;
		}
		/* No pressure meant here, but the guest's own may come: then say so. */
		if (!ans) {
			said_lost++;
			regenerate(&o);
		} else if ((lost = pages_lost_every(&o, len > 16 * MIB ? 64 : 1))) {
			/* Past 16 MiB one page in 64: byte for byte is part 2's. */
			printf("# %s at %zu bytes: lock said intact, %ld pages lost\n",
			       d->name, len, lost);
			bad = 1;
		}
	}
	if (!bad) {
		data_begin(&dd, DKIND_BENCH);
		data_str(&dd, DK_BENCH, "discardable");
		data_str(&dd, DK_DESIGN, d->name);
		data_str(&dd, DK_OP, "latency");
		data_long(&dd, DK_SIZE, (long)len);
		data_long(&dd, DK_ROUNDS, n);
		data_double(&dd, DK_NS_LOCK, median(lock_ns, n));
		data_double(&dd, DK_NS_UNLOCK, median(unlock_ns, n));
		data_long(&dd, DK_CACHE_REGENERATED, said_lost);
		data_str(&dd, DK_CLOCK, fine_clock_name());
		data_emit(&dd);
		printf("# %s %4zu MiB: lock %.0f ns, unlock %.0f ns (medians of %d)\n", d->name,
		       len / MIB, median(lock_ns, n), median(unlock_ns, n), n);
	}
	munmap(o.p, len);
	return bad ? -1 : 0;
}

/* --- part 2: answers under pressure ---------------------------------------- */

struct answers {
	long locks, said_intact, said_lost, wrong, false_alarms, pages_lost;
	long lost_while_locked, reclaims, errors;
	int memcg;	/* pressure was memory.reclaim (else MADV_PAGEOUT) */
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Pressure on the whole cache: memory.reclaim of half of it, or MADV_PAGEOUT. */
static void pressure(struct memcg *cg, char *cache, size_t len, struct answers *a)
{
	if (a->memcg)
		memcg_reclaim(cg, len / 2);	/* -EAGAIN: less than asked */
	else if (madvise(cache, len, MADV_PAGEOUT))
		a->errors++;
	a->reclaims++;
}

/* The cycles of one design, in this (child) process. */
static void cycles(const struct design_def *d, struct memcg *cg, struct answers *a)
{
	struct dobj obj[NOBJ];
	uint64_t rng = 0x243f6a8885a308d3ull;
	char *cache;
	int i, c;

	/* One mapping for the cache, one object after the other. */
	cache = d->map(NOBJ * OBJ_LEN);
	if (cache == MAP_FAILED || no_hugepage(cache, NOBJ * OBJ_LEN)) {
		a->errors++;
		return;
	}
	for (i = 0; i < NOBJ; i++) {
		obj[i] = (struct dobj){ .d = d, .p = cache + i * OBJ_LEN, .len = OBJ_LEN,
					.seed = 0x0b100u + i };
		regenerate(&obj[i]);
		if (dobj_unlock(&obj[i]))
			a->errors++;
	}
	for (c = 1; c <= opt.cycles; c++) {
		struct dobj *o = &obj[rng_next(&rng) % NOBJ];
		int ans = dobj_lock(o);
		long lost;

		if (ans < 0) {
			a->errors++;
			continue;
		}
		a->locks++;
		lost = pages_lost(o);
		a->pages_lost += lost;
		if (ans) {
			a->said_intact++;
			a->wrong += lost > 0;
		} else {
			a->said_lost++;
			a->false_alarms += lost == 0;
		}
		if (!ans || lost)
			regenerate(o);
		/* In use across the pressure: a locked object keeps every byte. */
		if (c % RECLAIM_EVERY == 0) {
			pressure(cg, cache, NOBJ * OBJ_LEN, a);
			lost = pages_lost(o);
			a->lost_while_locked += lost > 0;
			if (lost)
				regenerate(o);
		}
		if (dobj_unlock(o))
			a->errors++;
	}
	munmap(cache, NOBJ * OBJ_LEN);
}

/* Part 2 of one design in a child, in a memory cgroup of its own if there is one. */
static int run_cycles(const struct design_def *d, struct answers *out)
{
	struct answers *a = mmap(NULL, sizeof(*a), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct memcg cg;
	int have_cg = 0, status = 0;
	pid_t pid;

	if (a == MAP_FAILED)
		return -1;
	memset(a, 0, sizeof(*a));
	if (memcg_available() && memcg_create(&cg, "discardable") == 0)
		have_cg = 1;
	a->memcg = have_cg;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pin_to_cpu0();
		if (have_cg && memcg_enter(&cg))
			_exit(2);
		cycles(d, &cg, a);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		a->errors++;
	if (have_cg)
		memcg_destroy(&cg);
	*out = *a;
	munmap(a, sizeof(*a));
	return 0;
}

static size_t fit_max(size_t want)
{
	long avail_kb = meminfo_kb("MemAvailable");
	size_t fit = avail_kb > 0 ? (size_t)avail_kb * 1024 / 4 : want;

	return want < fit ? want : fit - fit % MIB;
}

VMAB_NEEDS("discardable_vrange", "vrange");
VMAB_NEEDS("discardable_madv_free", "madv_free");
VMAB_NEEDS("discardable_droppable", "droppable");

int main(int argc, char **argv)
{
	size_t sizes[3] = { MIB, 16 * MIB, 256 * MIB }, max;
	int c, d, s, bad = 0;

	while ((c = getopt(argc, argv, "r:c:m:")) != -1) {
		switch (c) {
		case 'r': opt.rounds = atoi(optarg); break;
		case 'c': opt.cycles = atoi(optarg); break;
		case 'm': bad |= parse_size(optarg, &opt.max); break;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || opt.rounds < 1 || opt.rounds > MAX_ROUNDS ||
	    opt.cycles < RECLAIM_EVERY || opt.max < MIB) {
		fprintf(stderr, "usage: %s [-r ROUNDS (1-%d)] [-c CYCLES (>= %d)] [-m MAX]\n",
			argv[0], MAX_ROUNDS, RECLAIM_EVERY);
		return 2;
	}
	max = fit_max(opt.max);
	ksft_print_header();
	ksft_set_plan(DESIGN_NR);
	printf("# mode %s, variant %s: lock/unlock at 1, 16, 256 MiB (up to %zu bytes), %d rounds; %d cycles over %d objects of %lu KiB, pressure every %d; clock %s\n",
	       vmab_mode(), vmab_variant(), max, opt.rounds, opt.cycles, NOBJ,
	       OBJ_LEN >> 10, RECLAIM_EVERY, fine_clock_name());
	if (!memcg_available())
		printf("# no memory cgroup (%s): pressure by MADV_PAGEOUT\n", need_memcg());

	for (d = 0; d < DESIGN_NR; d++) {
		const struct design_def *dsg = &designs[d];
		const char *why = design_absent(d);
		struct answers a = { 0 };
		struct vmab_data dd;
		char name[40];
		int ok = 1;

		snprintf(name, sizeof(name), "discardable_%s", dsg->name);
		if (why) {
			ksft_test_result_skip_named(name, "%s", why);
			continue;
		}
		for (s = 0; s < 3; s++)
			if (sizes[s] <= max && latency(dsg, sizes[s]))
				ok = 0;
		if (run_cycles(dsg, &a))
			a.errors++;
		data_begin(&dd, DKIND_BENCH);
		data_str(&dd, DK_BENCH, "discardable");
		data_str(&dd, DK_DESIGN, dsg->name);
		data_str(&dd, DK_OP, "cycles");
		data_str(&dd, DK_PRESSURE, a.memcg ? "memory.reclaim" : "madv_pageout");
		data_long(&dd, DK_CYCLES, a.locks);
		data_long(&dd, DK_CACHE_OBJECTS, NOBJ);
		data_long(&dd, DK_CACHE_OBJECT_KB, (long)(OBJ_LEN >> 10));
		data_long(&dd, DK_MEMCG_RECLAIMS, a.reclaims);
		data_long(&dd, DK_CACHE_SAID_INTACT, a.said_intact);
		data_long(&dd, DK_CACHE_REGENERATED, a.said_lost);
		data_long(&dd, DK_CACHE_WRONG, a.wrong);
		data_long(&dd, DK_CACHE_FALSE_ALARMS, a.false_alarms);
		data_long(&dd, DK_CACHE_PAGES_LOST, a.pages_lost);
		data_long(&dd, DK_CACHE_LOST_WHILE_LOCKED, a.lost_while_locked);
		data_long(&dd, DK_ERRORS, a.errors);
		data_emit(&dd);
		printf("# %s: %ld locks, %ld said intact, %ld said lost (%ld false alarms), %ld wrong, %ld pages lost, %ld objects lost while locked, %ld reclaims, %ld errors\n",
		       dsg->name, a.locks, a.said_intact, a.said_lost, a.false_alarms, a.wrong,
		       a.pages_lost, a.lost_while_locked, a.reclaims, a.errors);
		if (a.wrong || a.errors || a.locks != opt.cycles)
			ok = 0;
		/* A and B have a lock that keeps pages; C has none (SPEC 5.1). */
		if (dsg->keeps_taken_back && a.lost_while_locked)
			ok = 0;
		ksft_test_result(ok, "%s\n", name);
	}
	return 0;
}
