// SPDX-License-Identifier: GPL-2.0
/*
 * Design B: madvise(MADV_FREE) (SPEC 5).
 *
 * What 6.1 already does (marked pages keep their data until reclaim, are
 * discarded by it, survive it when written again, work without swap and
 * with THP), what the series adds (the nr_lazyfree / LazyFree / lazyfree
 * gauge, KSM leaving lazily free pages alone) and the errors.  Each test
 * asserts exact counts: pglazyfree (pages marked), pglazyfreed (pages
 * discarded), the gauge globally and in the test's memory cgroup, and
 * that the gauge is back where it started when the test ends.
 *
 * The event counts need CONFIG_VM_EVENT_COUNTERS=y; without it they are
 * left out of the scenario tests and lazyfree_events_counted skips.
 *
 * Without design B (CONFIG_MADV_FREE=n) every test skips with the reason
 * "CONFIG_MADV_FREE=n", except madvfree_absent_gives_einval and
 * lazyfree_gauge_absent, which pass only there: the gauge's three names
 * are then absent (see patches/madv-free/README).
 *
 * MADV_FREE queues pages on a per-CPU batch before it marks them, and new
 * pages reach the LRU through another: each test pins itself to one CPU,
 * so that madvise() (which drains the local batches first) sees every
 * page on the LRU, and drain() (MADV_COLD on a spare page, which drains
 * them too) makes the marking visible.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vmab.h"

#define NPAGES		256
#define LEN		(NPAGES * PAGE_SZ)
#define NO_B		"CONFIG_MADV_FREE=n"

/* --- helpers specific to this program --------------------------------- */

/* Drain this CPU's LRU batches: MADV_COLD starts with lru_add_drain(). */
static void drain(void)
{
	static char *spare;

	if (!spare) {
		spare = map_anon(PAGE_SZ);
		if (spare == MAP_FAILED)
			return;
		spare[0] = 1;
	}
	madvise(spare, PAGE_SZ, MADV_COLD);
}

/* Exact global value of a /proc/vmstat item: fold the per-CPU deltas. */
static long vmstat_exact(const char *name)
{
	vmstat_refresh();
	return vmstat_get(name);
}

static long gauge(void)
{
	return vmstat_exact("nr_lazyfree");
}

static long lazyfree_kb(void)
{
	vmstat_refresh();
	return meminfo_kb("LazyFree");
}

/*
 * Events (pglazyfree, pglazyfreed, pswpout): -1 if the kernel has no such
 * counter (CONFIG_VM_EVENT_COUNTERS=n, or pswpout without CONFIG_SWAP).
 * EXPECT_EVENT checks a delta only where the counter exists;
 * lazyfree_events_counted skips, naming the reason, where it does not.
 */
static long event(const char *name)
{
	return vmstat_get(name);
}

#define EXPECT_EVENT(want, name, base) do {				\
	if ((base) >= 0)						\
		EXPECT_EQ((want), event(name) - (base));		\
} while (0)

/* Pages in [p, p+len) that read as all zero; -1 if some page is neither. */
static long zero_pages(const char *p, size_t len, unsigned int seed,
		       const char *ref)
{
	long zero = 0;
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ) {
		if (range_is_zero(p + off, PAGE_SZ))
			zero++;
		else if (memcmp(p + off, ref + off, PAGE_SZ))
			return -1;
	}
	return zero;
}

#define REQUIRE_B() do {						\
	if (!madv_free_supported())					\
		SKIP(return, NO_B);					\
} while (0)

/* --- the reclaim fixture: once with MADV_PAGEOUT, once with memory.reclaim */

VMAB_NEEDS("lf.*", "madv_free");
VMAB_NEEDS("lf.memcg.*", "memcg");
VMAB_NEEDS("lf.*.compaction_keeps_gauge_and_data", "CONFIG_COMPACTION");
VMAB_NEEDS("lf.*.thp_*", "thp");
VMAB_NEEDS("lf.*.khugepaged_collapse_keeps_lazily_free_data", "thp");
FIXTURE(lf) {
	struct memcg cg;
	int in_cg;
	long gauge0;		/* nr_lazyfree when the test started */
	char *p;
	char *ref;		/* what p held before MADV_FREE */
};

FIXTURE_VARIANT(lf) {
	int memcg;
};

FIXTURE_VARIANT_ADD(lf, pageout) {
	.memcg = 0,
};

FIXTURE_VARIANT_ADD(lf, memcg) {
	.memcg = 1,
};

/*
 * The harness forks each test: a stack page first written after the test
 * entered its cgroup is a COW copy charged there, which memory.reclaim
 * could then swap out.  Write them beforehand.
 */
static void __attribute__((noinline)) prefault_stack(void)
{
	volatile char buf[128 << 10];
	size_t i;

	for (i = 0; i < sizeof(buf); i += 512)
		buf[i] = 1;
}

FIXTURE_SETUP(lf)
{
	pin_to_cpu0();
	if (!madv_free_supported())
		SKIP(return, NO_B);
	/*
	 * Touch what this process will need later before it enters its
	 * cgroup, so that the cgroup holds little besides the test pages:
	 * memory.reclaim then has nothing else to swap out.
	 */
	prefault_stack();
	self->ref = map_anon(4 * HPAGE_SZ);
	ASSERT_NE(MAP_FAILED, self->ref);
	memset(self->ref, 0, 4 * HPAGE_SZ);
	drain();
	self->gauge0 = gauge();
	ASSERT_GE(self->gauge0, 0);
	if (variant->memcg) {
		NEEDS(need_memcg());
		ASSERT_EQ(0, memcg_create(&self->cg, "madvfree"));
		/* stdio's buffer for cgroupfs files, likewise. */
		ASSERT_LE(0, memcg_stat(&self->cg, "anon"));
		ASSERT_EQ(0, memcg_enter(&self->cg));
		self->in_cg = 1;
	}
}

FIXTURE_TEARDOWN(lf)
{
	if (self->in_cg) {
		memcg_leave();
		memcg_destroy(&self->cg);
	}
	if (_metadata->skip)
		return;
	drain();
	/* Whatever the test did, the gauge must be back where it was. */
	EXPECT_EQ(self->gauge0, gauge());
}

/* Reclaim [p, p+len) the variant's way; the range must hold only lazily
 * free pages when nothing else in the cgroup may be reclaimed instead. */
static int reclaim(FIXTURE_DATA(lf) *self, const FIXTURE_VARIANT(lf) *variant,
		   char *p, size_t len)
{
	int ret;

	drain();
	if (!variant->memcg)
		return pageout(p, len) ? -errno : 0;
	/* Ask for everything; -EAGAIN just means "not all of it". */
	ret = memcg_reclaim(&self->cg, 64 << 20);
	return ret == -EAGAIN ? 0 : ret;
}

/* Map and fill LEN bytes at self->p, keep a copy in self->ref. */
static int setup_range(FIXTURE_DATA(lf) *self, size_t len, unsigned int seed)
{
	self->p = map_anon(len);
	if (self->p == MAP_FAILED)
		return -1;
	fill_pattern(self->p, len, seed);
	fill_pattern(self->ref, len, seed);
	return 0;
}

TEST_F_TIMEOUT(lf, marked_pages_keep_data_without_pressure, 180)
{
	long marked0, freed0, kb0;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, setup_range(self, LEN, 1));
	marked0 = event("pglazyfree");
	freed0 = event("pglazyfreed");
	kb0 = lazyfree_kb();

	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	drain();

	EXPECT_EVENT(NPAGES, "pglazyfree", marked0);
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	EXPECT_EQ(kb0 + (long)(LEN >> 10), lazyfree_kb());
	if (variant->memcg)
		EXPECT_EQ((long)LEN, memcg_stat_wait(&self->cg, "lazyfree", LEN));
	/* Reads see the old data, and do not cancel the lazy free. */
	EXPECT_EQ(0, memcmp(self->p, self->ref, LEN));
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	EXPECT_EVENT(0, "pglazyfreed", freed0);

	/* Freeing lazily free pages takes them out of the gauge. */
	ASSERT_EQ(0, munmap(self->p, LEN));
	EXPECT_EQ(self->gauge0, gauge());
	EXPECT_EQ(kb0, lazyfree_kb());
	if (variant->memcg)
		EXPECT_EQ(0, memcg_stat_wait(&self->cg, "lazyfree", 0));
}

TEST_F_TIMEOUT(lf, reclaim_discards_marked_pages, 180)
{
	long marked0, freed0, swp0;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, setup_range(self, LEN, 2));
	marked0 = event("pglazyfree");
	freed0 = event("pglazyfreed");
	swp0 = event("pswpout");

	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	drain();
	EXPECT_EVENT(NPAGES, "pglazyfree", marked0);
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	if (variant->memcg)
		EXPECT_EQ((long)LEN, memcg_stat_wait(&self->cg, "lazyfree", LEN));

	/* Nothing but the marked pages is charged to the cgroup. */
	if (variant->memcg)
		EXPECT_EQ((long)LEN, memcg_stat_wait(&self->cg, "anon", LEN));
	ASSERT_EQ(0, reclaim(self, variant, self->p, LEN));

	EXPECT_EVENT(NPAGES, "pglazyfreed", freed0);
	EXPECT_EQ(self->gauge0, gauge());
	if (variant->memcg)
		EXPECT_EQ(0, memcg_stat_wait(&self->cg, "lazyfree", 0));
	/* Only lazily free pages were reclaimed: nothing went to swap. */
	EXPECT_EVENT(0, "pswpout", swp0);
	EXPECT_TRUE(range_is_zero(self->p, LEN));
	munmap(self->p, LEN);
}

TEST_F_TIMEOUT(lf, written_pages_survive_reclaim, 180)
{
	long freed0, zero;
	size_t off;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, setup_range(self, LEN, 3));
	freed0 = event("pglazyfreed");

	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	drain();
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	/* Write every other page again: those must keep the new data. */
	for (off = 0; off < LEN; off += 2 * PAGE_SZ) {
		memset(self->p + off, 0x5a, PAGE_SZ);
		memset(self->ref + off, 0x5a, PAGE_SZ);
	}

	ASSERT_EQ(0, reclaim(self, variant, self->p, LEN));

	EXPECT_EVENT(NPAGES / 2, "pglazyfreed", freed0);
	for (off = 0; off < LEN; off += 2 * PAGE_SZ) {
		EXPECT_EQ(0, memcmp(self->p + off, self->ref + off, PAGE_SZ));
		EXPECT_TRUE(range_is_zero(self->p + off + PAGE_SZ, PAGE_SZ));
	}
	zero = zero_pages(self->p, LEN, 3, self->ref);
	EXPECT_EQ(NPAGES / 2, zero);
	/* Discarded and rescued pages alike have left the gauge. */
	EXPECT_EQ(self->gauge0, gauge());
	if (variant->memcg)
		EXPECT_EQ(0, memcg_stat_wait(&self->cg, "lazyfree", 0));
	munmap(self->p, LEN);
}

TEST_F_TIMEOUT(lf, dontneed_and_second_free_move_gauge_once, 180)
{
	long marked0;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, setup_range(self, LEN, 4));
	marked0 = event("pglazyfree");

	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	drain();
	/* Marking twice counts once. */
	EXPECT_EVENT(NPAGES, "pglazyfree", marked0);
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());

	/* MADV_DONTNEED frees half of them. */
	ASSERT_EQ(0, madvise(self->p, LEN / 2, MADV_DONTNEED));
	drain();
	EXPECT_EQ(self->gauge0 + NPAGES / 2, gauge());
	if (variant->memcg)
		EXPECT_EQ((long)LEN / 2,
			  memcg_stat_wait(&self->cg, "lazyfree", LEN / 2));
	EXPECT_TRUE(range_is_zero(self->p, LEN / 2));
	EXPECT_EQ(0, memcmp(self->p + LEN / 2, self->ref + LEN / 2, LEN / 2));
	munmap(self->p, LEN);
}

TEST_F_TIMEOUT(lf, exit_frees_lazily_free_pages, 180)
{
	int status;
	pid_t pid;

	if (_metadata->skip)
		return;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char *p = map_anon(LEN);

		if (p == MAP_FAILED)
			_exit(2);
		fill_pattern(p, LEN, 5);
		if (madvise(p, LEN, MADV_FREE))
			_exit(3);
		drain();
		_exit(gauge() == self->gauge0 + NPAGES ? 0 : 4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(self->gauge0, gauge());
	if (variant->memcg)
		EXPECT_EQ(0, memcg_stat_wait(&self->cg, "lazyfree", 0));
}

TEST_F_TIMEOUT(lf, compaction_keeps_gauge_and_data, 180)
{
	if (_metadata->skip)
		return;
	if (access("/proc/sys/vm/compact_memory", W_OK))
		SKIP(return, "no /proc/sys/vm/compact_memory (CONFIG_COMPACTION=n)");
	ASSERT_EQ(0, setup_range(self, LEN, 6));
	ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
	drain();
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	/* Migration copies the lazily free state to the new page. */
	ASSERT_EQ(0, write_file("/proc/sys/vm/compact_memory", "1"));
	drain();
	EXPECT_EQ(self->gauge0 + NPAGES, gauge());
	if (variant->memcg)
		EXPECT_EQ((long)LEN, memcg_stat_wait(&self->cg, "lazyfree", LEN));
	EXPECT_EQ(0, memcmp(self->p, self->ref, LEN));
	munmap(self->p, LEN);
}

/*
 * A 2 MB THP at self->p, or a reason why not.  Once it is there the range
 * is MADV_NOHUGEPAGE: khugepaged must not collapse the half that MADV_FREE
 * split off back into a new huge page behind the test's back.  It would
 * (it did, every time, with khugepaged scanning every 10 ms), and the
 * collapse copies lazily free pages into the new, ordinary THP: their data
 * survives reclaim and they leave nr_lazyfree without being discarded.
 */
static const char *setup_thp(FIXTURE_DATA(lf) *self, unsigned int seed)
{
	if (need_thp())
		return need_thp();
	self->p = map_anon_aligned(HPAGE_SZ, HPAGE_SZ);
	if (self->p == MAP_FAILED)
		return "mmap failed";
	if (madvise(self->p, HPAGE_SZ, MADV_HUGEPAGE))
		return "MADV_HUGEPAGE failed";
	fill_pattern(self->p, HPAGE_SZ, seed);
	fill_pattern(self->ref, HPAGE_SZ, seed);
	if (smaps_field_kb(self->p, "AnonHugePages") != (long)(HPAGE_SZ >> 10))
		return "no huge page could be allocated for the range";
	if (madvise(self->p, HPAGE_SZ, MADV_NOHUGEPAGE))
		return "MADV_NOHUGEPAGE failed";
	return NULL;
}

TEST_F_TIMEOUT(lf, thp_whole_is_marked_and_discarded, 180)
{
	long marked0, freed0, swp0;
	const char *why;

	if (_metadata->skip)
		return;
	why = setup_thp(self, 7);
	if (why)
		SKIP(return, "%s", why);
	marked0 = event("pglazyfree");
	freed0 = event("pglazyfreed");
	swp0 = event("pswpout");

	ASSERT_EQ(0, madvise(self->p, HPAGE_SZ, MADV_FREE));
	drain();
	EXPECT_EVENT((long)(HPAGE_SZ / PAGE_SZ), "pglazyfree", marked0);
	EXPECT_EQ(self->gauge0 + (long)(HPAGE_SZ / PAGE_SZ), gauge());
	EXPECT_EQ(0, memcmp(self->p, self->ref, HPAGE_SZ));

	ASSERT_EQ(0, reclaim(self, variant, self->p, HPAGE_SZ));

	EXPECT_EVENT((long)(HPAGE_SZ / PAGE_SZ), "pglazyfreed", freed0);
	EXPECT_EQ(self->gauge0, gauge());
	EXPECT_EVENT(0, "pswpout", swp0);
	EXPECT_TRUE(range_is_zero(self->p, HPAGE_SZ));
	munmap(self->p, HPAGE_SZ);
}

TEST_F_TIMEOUT(lf, thp_partial_is_split_and_discarded, 180)
{
	size_t half = HPAGE_SZ / 2;
	long marked0, freed0;
	const char *why;

	if (_metadata->skip)
		return;
	why = setup_thp(self, 8);
	if (why)
		SKIP(return, "%s", why);
	marked0 = event("pglazyfree");
	freed0 = event("pglazyfreed");

	/* The second half only: the THP is split, half of it is marked. */
	ASSERT_EQ(0, madvise(self->p + half, half, MADV_FREE));
	drain();
	EXPECT_EVENT((long)(half / PAGE_SZ), "pglazyfree", marked0);
	EXPECT_EQ(self->gauge0 + (long)(half / PAGE_SZ), gauge());

	/* memory.reclaim may swap out the unmarked half: it must survive. */
	ASSERT_EQ(0, reclaim(self, variant, self->p + half, half));

	EXPECT_EVENT((long)(half / PAGE_SZ), "pglazyfreed", freed0);
	EXPECT_EQ(self->gauge0, gauge());
	EXPECT_EQ(0, memcmp(self->p, self->ref, half));
	EXPECT_TRUE(range_is_zero(self->p + half, half));
	munmap(self->p, HPAGE_SZ);
}

/*
 * khugepaged over a range half lazily free (MADV_FREE on 4 KiB pages, the
 * other half written): it collapses the range into a THP, copying every
 * page, so the lazily free half keeps its data and is not lazily free any
 * more: the gauge is back where it was, nothing was discarded, and the
 * data survives reclaim.  MADV_FREE's promise (old data or zeros) holds;
 * the hint is lost without a word.  The vrange counterpart is
 * vrange_test's khugepaged_keeps_purged_state.
 */
TEST_F_TIMEOUT(lf, khugepaged_collapse_keeps_lazily_free_data, 180)
{
	size_t half = HPAGE_SZ / 2;
	long freed0;
	int collapsed;

	if (_metadata->skip)
		return;
	NEEDS(need_thp());
	self->p = map_anon_aligned(HPAGE_SZ, HPAGE_SZ);
	ASSERT_NE(MAP_FAILED, self->p);
	ASSERT_EQ(0, madvise(self->p, HPAGE_SZ, MADV_NOHUGEPAGE));
	fill_pattern(self->p, HPAGE_SZ, 10);
	fill_pattern(self->ref, HPAGE_SZ, 10);
	ASSERT_EQ(0, smaps_field_kb(self->p, "AnonHugePages"));
	freed0 = event("pglazyfreed");
	ASSERT_EQ(0, madvise(self->p + half, half, MADV_FREE));
	drain();
	EXPECT_EQ(self->gauge0 + (long)(half / PAGE_SZ), gauge());

	ASSERT_EQ(0, madvise(self->p, HPAGE_SZ, MADV_HUGEPAGE));
	ASSERT_EQ(0, khugepaged_fast());
	collapsed = khugepaged_wait(self->p, NULL, 0, 60);
	knob_restore_all();
	ASSERT_EQ(1, collapsed);
	ASSERT_EQ(0, madvise(self->p, HPAGE_SZ, MADV_NOHUGEPAGE));

	drain();
	EXPECT_EQ(self->gauge0, gauge());
	EXPECT_EVENT(0, "pglazyfreed", freed0);
	EXPECT_EQ(0, memcmp(self->p, self->ref, HPAGE_SZ));
	ASSERT_EQ(0, reclaim(self, variant, self->p, HPAGE_SZ));
	EXPECT_EVENT(0, "pglazyfreed", freed0);
	EXPECT_EQ(0, memcmp(self->p, self->ref, HPAGE_SZ));
	munmap(self->p, HPAGE_SZ);
}

/*
 * After fork, one side marks the COW-shared pages lazily free and reclaim
 * runs: the other side's copy must come through intact.  The marking side
 * sees, page by page, either its old data or zeros.
 */
static void cow_case(struct __test_metadata *_metadata,
		     FIXTURE_DATA(lf) *self, const FIXTURE_VARIANT(lf) *variant,
		     int child_marks)
{
	int go[2], done[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, setup_range(self, LEN, 9));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (child_marks) {
			if (madvise(self->p, LEN, MADV_FREE))
				_exit(2);
			drain();
			if (write(done[1], &c, 1) != 1)
				_exit(3);
			/* The parent reclaims; the child's own view may be 0. */
			if (read(go[0], &c, 1) != 1)
				_exit(4);
			_exit(zero_pages(self->p, LEN, 9, self->ref) < 0 ? 5 : 0);
		}
		if (read(go[0], &c, 1) != 1)
			_exit(4);
		_exit(memcmp(self->p, self->ref, LEN) ? 6 : 0);
	}
	if (child_marks) {
		ASSERT_EQ(1, read(done[0], &c, 1));
	} else {
		ASSERT_EQ(0, madvise(self->p, LEN, MADV_FREE));
		drain();
	}
	ASSERT_EQ(0, reclaim(self, variant, self->p, LEN));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	if (child_marks) {
		EXPECT_EQ(0, memcmp(self->p, self->ref, LEN));
	} else {
		EXPECT_LE(0, zero_pages(self->p, LEN, 9, self->ref));
	}
	munmap(self->p, LEN);
}

TEST_F_TIMEOUT(lf, fork_child_copy_survives_parent_free, 180)
{
	if (_metadata->skip)
		return;
	cow_case(_metadata, self, variant, 0);
}

TEST_F_TIMEOUT(lf, fork_parent_copy_survives_child_free, 180)
{
	if (_metadata->skip)
		return;
	cow_case(_metadata, self, variant, 1);
}

/*
 * Lazily free pages that are then mlocked sit on the unevictable list:
 * reclaim cannot take them, so they must not count in the gauge that
 * sends reclaim to the file lists first.  64 of them (twice the gate's
 * batch) in a cgroup whose memory is otherwise anon in use: the gauge
 * says 0 and memory.reclaim still swaps the anon memory out (with swap),
 * without an OOM.
 */
#define LOCKED_PAGES	64
#define INUSE_LEN	(16UL << 20)

/* No setup of its own: the fixture is there for the time limit. */
FIXTURE(mlk) {
	int unused;
};

FIXTURE_SETUP(mlk)
{
}

FIXTURE_TEARDOWN(mlk)
{
}

VMAB_NEEDS("mlk.mlocked_lazyfree_pages_do_not_stop_anon_reclaim", "madv_free,memcg,swap");
TEST_F_TIMEOUT(mlk, mlocked_lazyfree_pages_do_not_stop_anon_reclaim, 180)
{
	long pswpout0, ooms0, swapped, gauge_locked;
	char *locked, *inuse, events[300];
	struct memcg cg;
	int ret;

	REQUIRE_B();
	NEEDS(need_memcg());
	if (!vmab_mode_has_swap())
		SKIP(return, "needs an active swap device (mode %s)",
		     vmab_mode());
	pin_to_cpu0();
	prefault_stack();
	ASSERT_EQ(0, memcg_create(&cg, "mlocked"));
	ASSERT_LE(0, memcg_stat(&cg, "anon"));
	ASSERT_EQ(0, memcg_enter(&cg));
	locked = map_anon(LOCKED_PAGES * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, locked);
	ASSERT_EQ(0, no_hugepage(locked, LOCKED_PAGES * PAGE_SZ));
	fill_pages(locked, LOCKED_PAGES * PAGE_SZ, 3);
	ASSERT_EQ(0, madvise(locked, LOCKED_PAGES * PAGE_SZ, MADV_FREE));
	drain();
	ASSERT_EQ(LOCKED_PAGES * PAGE_SZ / 1024,
		  memcg_stat_wait(&cg, "lazyfree",
				  LOCKED_PAGES * PAGE_SZ) / 1024);
	ASSERT_EQ(0, mlock(locked, LOCKED_PAGES * PAGE_SZ));
	drain();
	/* Unevictable now: not what reclaim could discard */
	gauge_locked = memcg_stat_wait(&cg, "lazyfree", 0);
	inuse = map_anon(INUSE_LEN);
	ASSERT_NE(MAP_FAILED, inuse);
	ASSERT_EQ(0, no_hugepage(inuse, INUSE_LEN));
	fill_pages(inuse, INUSE_LEN, 4);
	snprintf(events, sizeof(events), "%s/memory.events", cg.path);
	ooms0 = keyed_value(events, "oom_kill", ' ');
	ASSERT_LE(0, ooms0);
	pswpout0 = vmstat_get("pswpout");
	ret = memcg_reclaim(&cg, INUSE_LEN / 2);
	swapped = vmstat_get("pswpout") - pswpout0;
	TH_LOG("lazyfree %ld B once mlocked; memory.reclaim of %lu KiB: %d, %ld pages swapped out",
	       gauge_locked, INUSE_LEN / 2 / 1024, ret, swapped);
	ASSERT_EQ(0, gauge_locked);
	ASSERT_EQ(0, ret);
	ASSERT_LE((long)(INUSE_LEN / 2 / PAGE_SZ), swapped);
	ASSERT_EQ(ooms0, keyed_value(events, "oom_kill", ' '));
	ASSERT_EQ(-1, first_changed_page(inuse, INUSE_LEN, 4));
	ASSERT_EQ(-1, first_changed_page(locked, LOCKED_PAGES * PAGE_SZ, 3));
	ASSERT_EQ(0, munlock(locked, LOCKED_PAGES * PAGE_SZ));
	munmap(locked, LOCKED_PAGES * PAGE_SZ);
	munmap(inuse, INUSE_LEN);
	memcg_leave();
	memcg_destroy(&cg);
}

/*
 * The same with global reclaim, where the review's concern lies: kswapd
 * never scans at priority 0, so if mlocked lazily free pages kept the
 * classic LRU's gate open (file lists only while the gauge holds 32 or
 * more), kswapd would never swap anon out.  Free memory is made small
 * as in scenario_test's global scenario (min_free_kbytes with the low
 * watermark 16 MiB below MemFree); a 32 MiB hog then wakes kswapd, whose
 * target is out of reach, and which must swap out the anon memory in use
 * (the guest has almost no file pages) without an OOM kill.
 */
#define KSWAPD_SWAPPED	2048	/* pages: 8 MiB of the 64 MiB in use or hogged */

VMAB_NEEDS("mlk.mlocked_lazyfree_pages_do_not_stop_kswapd", "madv_free,swap");
TEST_F_TIMEOUT(mlk, mlocked_lazyfree_pages_do_not_stop_kswapd, 180)
{
	long gauge0, pswpout0, steal0, direct0, ooms0, swapped = 0;
	long scan;
	char *locked, *inuse;
	int i, got = 0, still = 0;
	pid_t hog;

	REQUIRE_B();
	if (!vmab_mode_has_swap())
		SKIP(return, "needs an active swap device (mode %s)",
		     vmab_mode());
	pin_to_cpu0();
	locked = map_anon(LOCKED_PAGES * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, locked);
	ASSERT_EQ(0, no_hugepage(locked, LOCKED_PAGES * PAGE_SZ));
	fill_pages(locked, LOCKED_PAGES * PAGE_SZ, 5);
	drain();
	gauge0 = gauge();
	ASSERT_EQ(0, madvise(locked, LOCKED_PAGES * PAGE_SZ, MADV_FREE));
	drain();
	ASSERT_EQ(gauge0 + LOCKED_PAGES, gauge());
	ASSERT_EQ(0, mlock(locked, LOCKED_PAGES * PAGE_SZ));
	drain();
	ASSERT_EQ(gauge0, gauge());
	inuse = map_anon(INUSE_LEN);
	ASSERT_NE(MAP_FAILED, inuse);
	ASSERT_EQ(0, no_hugepage(inuse, INUSE_LEN));
	fill_pages(inuse, INUSE_LEN, 6);

	write_file("/proc/self/oom_score_adj", "-1000");
	ASSERT_LT(0, squeeze_free_memory());
	ooms0 = vmstat_get("oom_kill");
	pswpout0 = vmstat_get("pswpout");
	steal0 = vmstat_get("pgsteal_kswapd");
	direct0 = vmstat_get("pgscan_direct");
	hog = start_hog(32UL << 20, &got);
	/* kswapd works on its own time: up to 20 s. */
	for (i = 0; i < 400 && swapped < KSWAPD_SWAPPED; i++) {
		usleep(50000);
		swapped = vmstat_get("pswpout") - pswpout0;
	}
	stop_hog(hog);
	knob_restore_all();
	/*
	 * Let kswapd go back to sleep before the tests after this one: it
	 * may still be reclaiming towards the raised watermarks (slowly,
	 * under KASAN), and would take their lazily free pages.  Until
	 * pgscan_kswapd has not moved for 1 s, at most 15 s.
	 */
	for (i = 0, scan = -1; i < 150; i++) {
		long now = vmstat_get("pgscan_kswapd");

		if (now == scan && ++still >= 10)
			break;
		if (now != scan)
			still = 0;
		scan = now;
		usleep(100000);
	}
	TH_LOG("kswapd: %ld pages swapped out, pgsteal_kswapd +%ld, pgscan_direct +%ld, hog %s",
	       swapped, vmstat_get("pgsteal_kswapd") - steal0,
	       vmstat_get("pgscan_direct") - direct0,
	       got ? "got its memory" : "died");
	ASSERT_LT(0, hog);
	ASSERT_EQ(1, got);
	ASSERT_EQ(ooms0, vmstat_get("oom_kill"));
	ASSERT_LE(KSWAPD_SWAPPED, swapped);
	ASSERT_LT(0, vmstat_get("pgsteal_kswapd") - steal0);
	ASSERT_EQ(-1, first_changed_page(inuse, INUSE_LEN, 6));
	ASSERT_EQ(-1, first_changed_page(locked, LOCKED_PAGES * PAGE_SZ, 5));
	ASSERT_EQ(0, munlock(locked, LOCKED_PAGES * PAGE_SZ));
	munmap(locked, LOCKED_PAGES * PAGE_SZ);
	munmap(inuse, INUSE_LEN);
}

/* pglazyfree counts pages marked, pglazyfreed pages discarded (6.1 names). */
VMAB_NEEDS("lazyfree_events_counted", "madv_free,CONFIG_VM_EVENT_COUNTERS");
TEST(lazyfree_events_counted)
{
	long marked0, freed0;
	char *p;

	REQUIRE_B();
	if (event("pglazyfree") < 0 || event("pglazyfreed") < 0)
		SKIP(return, "no pglazyfree in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS=n)");
	pin_to_cpu0();
	p = map_anon(LEN);
	ASSERT_NE(MAP_FAILED, p);
	fill_pattern(p, LEN, 11);
	marked0 = event("pglazyfree");
	freed0 = event("pglazyfreed");
	ASSERT_EQ(0, madvise(p, LEN, MADV_FREE));
	drain();
	EXPECT_EQ(NPAGES, event("pglazyfree") - marked0);
	EXPECT_EQ(0, event("pglazyfreed") - freed0);
	ASSERT_EQ(0, pageout(p, LEN));
	EXPECT_EQ(NPAGES, event("pglazyfree") - marked0);
	EXPECT_EQ(NPAGES, event("pglazyfreed") - freed0);
	EXPECT_TRUE(range_is_zero(p, LEN));
	munmap(p, LEN);
}

/* --- KSM ------------------------------------------------------------------ */

#define KSM_PAGES 32

VMAB_NEEDS("ksm.*", "madv_free,ksm");
FIXTURE(ksm) {
};

FIXTURE_SETUP(ksm)
{
	pin_to_cpu0();
	if (!madv_free_supported())
		SKIP(return, NO_B);
	NEEDS(need_ksm());
	ASSERT_EQ(0, ksm_fast());
}

FIXTURE_TEARDOWN(ksm)
{
	knob_restore_all();	/* ksm/run as it was, then the scan rate */
}

TEST_F_TIMEOUT(ksm, ksm_leaves_lazily_free_pages_unmerged, 300)
{
	size_t len = KSM_PAGES * PAGE_SZ;
	long gauge0, freed0;
	char *a, *b;
	int i;

	if (_metadata->skip)
		return;
	drain();
	gauge0 = gauge();
	/* a: identical pages KSM must merge; b: identical, lazily free. */
	a = map_anon(len);
	b = map_anon(len);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);
	memset(a, 0x5a, len);
	memset(b, 0xa5, len);
	ASSERT_EQ(0, madvise(a, len, MADV_MERGEABLE));
	ASSERT_EQ(0, madvise(b, len, MADV_MERGEABLE));
	ASSERT_EQ(0, madvise(b, len, MADV_FREE));
	drain();
	ASSERT_EQ(gauge0 + KSM_PAGES, gauge());

	ASSERT_EQ(0, knob_set(KSM_DIR "run", "1"));
	ASSERT_EQ(0, ksm_wait_scans(2));
	for (i = 0; i < 100; i++) {
		if (knob_get_long("/proc/self/ksm_merging_pages") == KSM_PAGES)
			break;
		ASSERT_EQ(0, ksm_wait_scans(1));
	}
	/* Give ksmd two more chances at b. */
	ASSERT_EQ(0, ksm_wait_scans(2));
	/* ksmd ran and merged a... */
	EXPECT_EQ(KSM_PAGES, knob_get_long("/proc/self/ksm_merging_pages"));
	/* ...and left b alone: still lazily free, all of it. */
	EXPECT_EQ(gauge0 + KSM_PAGES, gauge());
	ASSERT_EQ(0, write_file(KSM_DIR "run", "0"));

	/* So b is still discardable. */
	freed0 = event("pglazyfreed");
	ASSERT_EQ(0, pageout(b, len));
	EXPECT_EVENT(KSM_PAGES, "pglazyfreed", freed0);
	EXPECT_TRUE(range_is_zero(b, len));
	EXPECT_EQ(gauge0, gauge());
	munmap(a, len);
	munmap(b, len);
}

/* --- errors ---------------------------------------------------------------- */

VMAB_NEEDS("file_mapping_gives_einval", "madv_free");
TEST(file_mapping_gives_einval)
{
	char path[] = "/tmp/madvfree-XXXXXX";
	int fd;
	char *p;

	REQUIRE_B();
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, 4 * PAGE_SZ));
	p = mmap(NULL, 4 * PAGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	EXPECT_EQ(-1, madvise(p, 4 * PAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
	munmap(p, 4 * PAGE_SZ);
	close(fd);
}

VMAB_NEEDS("shared_anon_mapping_gives_einval", "madv_free");
TEST(shared_anon_mapping_gives_einval)
{
	char *p;

	REQUIRE_B();
	p = mmap(NULL, 4 * PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 1, 4 * PAGE_SZ);
	EXPECT_EQ(-1, madvise(p, 4 * PAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
	munmap(p, 4 * PAGE_SZ);
}

VMAB_NEEDS("mlocked_mapping_gives_einval", "madv_free");
TEST(mlocked_mapping_gives_einval)
{
	char *p;

	REQUIRE_B();
	p = map_anon(4 * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mlock(p, 4 * PAGE_SZ));
	EXPECT_EQ(-1, madvise(p, 4 * PAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
	/* The pages are untouched: mlock populated them with zeros. */
	EXPECT_TRUE(range_is_zero(p, 4 * PAGE_SZ));
	munlock(p, 4 * PAGE_SZ);
	munmap(p, 4 * PAGE_SZ);
}

VMAB_NEEDS("hugetlb_mapping_gives_einval", "madv_free,CONFIG_HUGETLBFS");
TEST(hugetlb_mapping_gives_einval)
{
	long old;
	char *p;

	REQUIRE_B();
	old = knob_get_long(NR_HUGEPAGES);
	if (old < 0)
		SKIP(return, "no %s (CONFIG_HUGETLBFS=n)", NR_HUGEPAGES);
	knob_set_long(NR_HUGEPAGES, old + 1);
	p = mmap(NULL, HPAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		knob_restore_all();
		SKIP(return, "no huge page could be reserved for MAP_HUGETLB");
	}
	p[0] = 1;
	EXPECT_EQ(-1, madvise(p, HPAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, p[0]);
	munmap(p, HPAGE_SZ);
	knob_restore_all();
}

VMAB_NEEDS("pfnmap_mapping_gives_einval", "madv_free");
TEST(pfnmap_mapping_gives_einval)
{
	unsigned long lo, hi;
	char line[256];
	void *vvar = NULL;
	FILE *f;

	REQUIRE_B();
	/* x86's [vvar] is VM_PFNMAP | VM_IO, and every process has it. */
	f = fopen("/proc/self/maps", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vvar]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			vvar = (void *)lo;
	fclose(f);
	if (!vvar)
		SKIP(return, "no [vvar] mapping (vdso disabled) to test VM_PFNMAP");
	EXPECT_EQ(-1, madvise(vvar, PAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
}

VMAB_NEEDS("hole_gives_enomem", "madv_free");
TEST(hole_gives_enomem)
{
	char *p;

	REQUIRE_B();
	p = map_anon(3 * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + PAGE_SZ, PAGE_SZ));
	EXPECT_EQ(-1, madvise(p, 3 * PAGE_SZ, MADV_FREE));
	EXPECT_EQ(ENOMEM, errno);
	munmap(p, 3 * PAGE_SZ);
}

/* --- with and without design B -------------------------------------------- */

static int memcg_has_key(const char *key)
{
	struct memcg cg;
	long v;

	if (!memcg_available() || memcg_create(&cg, "probe"))
		return -1;
	v = memcg_stat(&cg, key);
	memcg_destroy(&cg);
	return v >= 0;
}

VMAB_NEEDS("lazyfree_gauge_present", "madv_free");
TEST(lazyfree_gauge_present)
{
	REQUIRE_B();
	EXPECT_LE(0, vmstat_get("nr_lazyfree"));
	EXPECT_LE(0, meminfo_kb("LazyFree"));
	if (memcg_available()) {
		EXPECT_EQ(1, memcg_has_key("lazyfree"));
	} else {
		TH_LOG("memory.stat lazyfree not checked: %s", need_memcg());
	}
}

VMAB_NEEDS("madvfree_absent_gives_einval", "no_madv_free");
TEST(madvfree_absent_gives_einval)
{
	char *p;

	if (madv_free_supported())
		SKIP(return, "design B present (CONFIG_MADV_FREE=y)");
	p = map_anon(4 * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	fill_pattern(p, 4 * PAGE_SZ, 10);
	EXPECT_EQ(-1, madvise(p, 4 * PAGE_SZ, MADV_FREE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, check_pattern(p, 4 * PAGE_SZ, 10));
	munmap(p, 4 * PAGE_SZ);
}

/* Without design B the gauge's three names are absent (not 0). */
VMAB_NEEDS("lazyfree_gauge_absent", "no_madv_free");
TEST(lazyfree_gauge_absent)
{
	if (madv_free_supported())
		SKIP(return, "design B present (CONFIG_MADV_FREE=y)");
	EXPECT_EQ(-1, vmstat_get("nr_lazyfree"));
	EXPECT_EQ(-1, meminfo_kb("LazyFree"));
	if (memcg_available()) {
		EXPECT_EQ(0, memcg_has_key("lazyfree"));
	} else {
		TH_LOG("memory.stat lazyfree not checked: %s", need_memcg());
	}
}

TEST_HARNESS_MAIN
