// SPDX-License-Identifier: GPL-2.0
/*
 * Design C, MAP_DROPPABLE (SPEC 5.1; mainline 6.11's commit 9651fcedf7b9
 * and the fixes that name it): the shared suite's questions asked of it.
 *
 * mmap(MAP_DROPPABLE | MAP_ANONYMOUS) (map type 0x08, instead of
 * MAP_PRIVATE) gives a private anonymous mapping whose pages are never
 * swapped: reclaim drops them, dirty or not, and a later read sees zeros,
 * with no signal and no notification.  The mapping is VM_WIPEONFORK and
 * VM_DONTDUMP, refuses MADV_KEEPONFORK and MADV_DODUMP, is not locked by
 * mlock() or mlockall(MCL_FUTURE), and userfaultfd cannot register it.
 * No event counts its dropped pages when they were written (lib/designs.h
 * says why): pglazyfreed, which counts MADV_FREE's, moves by 0.
 *
 * Every test here needs CONFIG_MAP_DROPPABLE (each declares it, VMAB_NEEDS,
 * for matrix/lib/VMAB/Expectations.pm) and skips naming it where mmap() answers
 * EINVAL, except droppable_absent_gives_einval, which passes only there.
 * Pressure is memory.reclaim in a memory cgroup of the test's own where
 * the question is the memcg's, else MADV_PAGEOUT (which needs no memcg:
 * what runs on a host with cgroup v1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vmab.h"

#ifndef MADV_KEEPONFORK
#define MADV_KEEPONFORK 19
#endif
#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif
#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif

#define NPAGES(len) ((long)((len) / PAGE_SZ))
#define DROP_LEN (1024 * PAGE_SZ)	/* a droppable region: 4 MiB */
#define ANON_LEN (1024 * PAGE_SZ)	/* ordinary anon memory around it */
#define DROP_SEED 0x64726f70u
#define ANON_SEED 0x616e6f6eu

/* Every test but the one of its absence: C must be in this kernel. */
#define NEED_DROPPABLE() NEEDS(design_absent(DESIGN_DROPPABLE))

/* A droppable mapping of len bytes starting at a multiple of align. */
static void *map_droppable_aligned(size_t len, size_t align)
{
	return trim_to_alignment(map_droppable(len + align), len, align);
}

/* Pages of [p, p+len) that read as zero. */
static long zero_pages(const char *p, size_t len)
{
	size_t off;
	long n = 0;

	for (off = 0; off < len; off += PAGE_SZ)
		n += range_is_zero(p + off, PAGE_SZ);
	return n;
}

/* smaps "Swap:" of the VMA at p in pages. */
static long swap_pages(const void *p)
{
	long kb = smaps_field_kb(p, "Swap");

	return kb < 0 ? kb : kb / 4;
}

static int swap_active(void)
{
	return meminfo_kb("SwapTotal") > 0;
}

/* --- the option ------------------------------------------------------------ */

/*
 * Without CONFIG_MAP_DROPPABLE, map type 0x08 is one 6.1 does not know:
 * EINVAL, as every kernel before 6.11 answers.
 */
VMAB_NEEDS("droppable_absent_gives_einval", "no_droppable");
TEST(droppable_absent_gives_einval)
{
	void *p;

	if (map_droppable_supported())
		SKIP(return, "CONFIG_MAP_DROPPABLE=y: mmap(MAP_DROPPABLE) maps");
	errno = 0;
	p = map_droppable(PAGE_SZ);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EINVAL, errno);
}

/* --- the mapping ----------------------------------------------------------- */

/* Map type 0x08 only with MAP_ANONYMOUS, and none of the flags it refuses. */
VMAB_NEEDS("einval_file_shared_locked_hugetlb_stack", "droppable");
TEST(einval_file_shared_locked_hugetlb_stack)
{
	static const struct { int flags; const char *what; } bad[] = {
		{ MAP_DROPPABLE | MAP_ANONYMOUS | MAP_SHARED, "MAP_SHARED" },
		{ MAP_DROPPABLE | MAP_ANONYMOUS | MAP_PRIVATE, "MAP_PRIVATE" },
		{ MAP_DROPPABLE | MAP_ANONYMOUS | MAP_LOCKED, "MAP_LOCKED" },
		{ MAP_DROPPABLE | MAP_ANONYMOUS | MAP_HUGETLB, "MAP_HUGETLB" },
		{ MAP_DROPPABLE | MAP_ANONYMOUS | MAP_GROWSDOWN, "MAP_GROWSDOWN" },
	};
	char path[] = "/tmp/vmab-droppable-XXXXXX";
	unsigned int i;
	void *p;
	int fd;

	NEED_DROPPABLE();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		p = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, bad[i].flags, -1, 0);
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("MAP_DROPPABLE | %s mapped", bad[i].what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("MAP_DROPPABLE | %s", bad[i].what);
		if (p != MAP_FAILED)
			munmap(p, PAGE_SZ);
	}
	/* File-backed: a regular file of one page. */
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, PAGE_SZ));
	errno = 0;
	p = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, MAP_DROPPABLE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * VmFlags: dp (VM_DROPPABLE), wf (VM_WIPEONFORK), dd (VM_DONTDUMP: left
 * out of core dumps whatever /proc/PID/coredump_filter says).
 */
VMAB_NEEDS("vmflags_dp_wf_dd", "droppable");
TEST(vmflags_dp_wf_dd)
{
	char *p;

	NEED_DROPPABLE();
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(smaps_has_flag(p, "dp"));
	EXPECT_TRUE(smaps_has_flag(p, "wf"));
	EXPECT_TRUE(smaps_has_flag(p, "dd"));
	EXPECT_FALSE(smaps_has_flag(p, "lo"));
	munmap(p, DROP_LEN);
}

/* Wiped on fork and left out of dumps, for good: the undoing advice is EINVAL. */
VMAB_NEEDS("madv_keeponfork_dodump_einval", "droppable");
TEST(madv_keeponfork_dodump_einval)
{
	char *p;

	NEED_DROPPABLE();
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	errno = 0;
	EXPECT_EQ(-1, madvise(p, DROP_LEN, MADV_KEEPONFORK));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, madvise(p, DROP_LEN, MADV_DODUMP));
	EXPECT_EQ(EINVAL, errno);
	/* Advice that keeps what the mapping is: accepted. */
	EXPECT_EQ(0, madvise(p, DROP_LEN, MADV_WIPEONFORK));
	EXPECT_EQ(0, madvise(p, DROP_LEN, MADV_DONTDUMP));
	EXPECT_TRUE(smaps_has_flag(p, "wf"));
	EXPECT_TRUE(smaps_has_flag(p, "dd"));
	munmap(p, DROP_LEN);
}

/* --- what reclaim does to it ----------------------------------------------- */

/*
 * Dirty droppable pages between ordinary anon ones, all written, then
 * MADV_PAGEOUT of the three: every droppable page is dropped (reads zero:
 * no SIGBUS, no swap entry), its smaps Swap stays 0, and every page
 * written to swap (pswpout) is one of the anon pages'; with a swap device
 * those do go to swap, without one they stay.  pglazyfreed moves by 0:
 * as in mainline, a dirty dropped page is counted by no event.
 */
VMAB_NEEDS("dirty_pages_dropped_never_swapped", "droppable");
TEST(dirty_pages_dropped_never_swapped)
{
	char *before, *drop, *after;
	long swpout0, lazyfreed0, swpout, lazyfreed, anon_swapped, dropped;
	struct vmab_data dd;
	int sig = 0;
	size_t off;

	NEED_DROPPABLE();
	pin_to_cpu0();
	before = map_anon(ANON_LEN);
	drop = map_droppable(DROP_LEN);
	after = map_anon(ANON_LEN);
	ASSERT_NE(MAP_FAILED, before);
	ASSERT_NE(MAP_FAILED, drop);
	ASSERT_NE(MAP_FAILED, after);
	ASSERT_EQ(0, no_hugepage(before, ANON_LEN));
	ASSERT_EQ(0, no_hugepage(drop, DROP_LEN));
	ASSERT_EQ(0, no_hugepage(after, ANON_LEN));
	fill_pages(before, ANON_LEN, ANON_SEED);
	fill_pages(drop, DROP_LEN, DROP_SEED);
	fill_pages(after, ANON_LEN, ANON_SEED + NPAGES(ANON_LEN));
	ASSERT_EQ(NPAGES(DROP_LEN), resident_pages(drop, DROP_LEN));

	swpout0 = vmstat_get("pswpout");
	lazyfreed0 = vmstat_get("pglazyfreed");
	/*
	 * Retried until all are gone (pageout_all()); without swap the anon
	 * pages stay, so one pageout() each.
	 */
	if (swap_active()) {
		ASSERT_LE(0, pageout_all(before, ANON_LEN));
	} else {
		ASSERT_EQ(0, pageout(before, ANON_LEN));
	}
	ASSERT_LE(0, pageout_all(drop, DROP_LEN));
	if (swap_active()) {
		ASSERT_LE(0, pageout_all(after, ANON_LEN));
	} else {
		ASSERT_EQ(0, pageout(after, ANON_LEN));
	}
	swpout = swpout0 < 0 ? 0 : vmstat_get("pswpout") - swpout0;
	lazyfreed = vmstat_get("pglazyfreed") - lazyfreed0;
	anon_swapped = swap_pages(before) + swap_pages(after);
	dropped = nonresident_pages(drop, DROP_LEN);

	/* A dropped page reads zero, with no signal. */
	sigbus_catch(0);
	for (off = 0; off < DROP_LEN; off += PAGE_SZ)
		sig += sigbus_read(drop + off);

	data_begin(&dd, DKIND_DROPPABLE);
	data_str(&dd, DK_SCENARIO, "dirty_dropped_not_swapped");
	data_str(&dd, DK_DESIGN, designs[DESIGN_DROPPABLE].name);
	data_long(&dd, DK_PAGES, NPAGES(DROP_LEN));
	data_long(&dd, DK_PAGES_DISCARDED, dropped);
	data_long(&dd, DK_PGLAZYFREED, lazyfreed);
	data_long(&dd, DK_PSWPOUT, swpout);
	data_long(&dd, DK_DROPPABLE_SWAP_PAGES, swap_pages(drop));
	data_long(&dd, DK_UNMARKED_SWAPPED, anon_swapped);
	data_emit(&dd);

	EXPECT_EQ(0, sig);
	EXPECT_EQ(NPAGES(DROP_LEN), dropped);
	EXPECT_EQ(NPAGES(DROP_LEN), zero_pages(drop, DROP_LEN));
	EXPECT_EQ(0, swap_pages(drop));
	EXPECT_EQ(0, lazyfreed);
	/* What went to swap was the anon pages', none of the droppable ones. */
	EXPECT_EQ(anon_swapped, swpout);
	if (swap_active() && swpout0 >= 0) {
		EXPECT_EQ(2 * NPAGES(ANON_LEN), anon_swapped);
	} else {
		EXPECT_EQ(0, anon_swapped);
	}
	EXPECT_EQ(0, changed_pages(before, ANON_LEN, ANON_SEED));
	EXPECT_EQ(0, changed_pages(after, ANON_LEN, ANON_SEED + NPAGES(ANON_LEN)));
	/* A dropped page is an ordinary droppable page again once written. */
	fill_pages(drop, DROP_LEN, DROP_SEED);
	EXPECT_EQ(0, changed_pages(drop, DROP_LEN, DROP_SEED));
	munmap(before, ANON_LEN);
	munmap(drop, DROP_LEN);
	munmap(after, ANON_LEN);
}

/*
 * Without pressure nothing is dropped: written pages keep their content
 * however long they wait, and reading them faults nothing in.
 */
VMAB_NEEDS("no_pressure_keeps_content", "droppable");
TEST(no_pressure_keeps_content)
{
	char *p;

	NEED_DROPPABLE();
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	fill_pages(p, DROP_LEN, DROP_SEED);
	usleep(200 * 1000);
	EXPECT_EQ(NPAGES(DROP_LEN), resident_pages(p, DROP_LEN));
	EXPECT_EQ(0, changed_pages(p, DROP_LEN, DROP_SEED));
	munmap(p, DROP_LEN);
}

/* A transparent huge page of a droppable mapping is dropped whole or split. */
VMAB_NEEDS("thp_dropped", "droppable,thp");
TEST(thp_dropped)
{
	const size_t len = 2 * HPAGE_SZ;
	struct vmab_data dd;
	long thp_kb, dropped;
	char *p;

	NEED_DROPPABLE();
	NEEDS(need_thp());
	p = map_droppable_aligned(len, HPAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, madvise(p, len, MADV_HUGEPAGE));
	fill_pages(p, len, DROP_SEED);
	thp_kb = smaps_field_kb(p, "AnonHugePages");
	/* khugepaged must not collapse what reclaim split. */
	ASSERT_EQ(0, no_hugepage(p, len));
	dropped = pageout_all(p, len);

	data_begin(&dd, DKIND_DROPPABLE);
	data_str(&dd, DK_SCENARIO, "thp");
	data_str(&dd, DK_DESIGN, designs[DESIGN_DROPPABLE].name);
	data_long(&dd, DK_THP_KB, thp_kb);
	data_long(&dd, DK_PAGES, NPAGES(len));
	data_long(&dd, DK_PAGES_DISCARDED, dropped);
	data_emit(&dd);

	EXPECT_GT(thp_kb, 0) TH_LOG("no THP in the droppable mapping: the scenario did not test one");
	EXPECT_EQ(NPAGES(len), dropped);
	EXPECT_EQ(NPAGES(len), zero_pages(p, len));
	EXPECT_EQ(0, swap_pages(p));
	munmap(p, len);
}

/* --- the scenarios' questions, in their records' shape --------------------- */

/*
 * A droppable mapping of len bytes without THP, and beside it an ordinary
 * anon one of ANON_LEN holding fill_pages(ANON_SEED) (*keep), which must
 * keep every byte: the droppable one, or MAP_FAILED (nothing left mapped).
 */
static char *map_beside_keep(size_t len, char **keep)
{
	char *p = map_droppable(len);

	*keep = map_anon(ANON_LEN);
	if (p == MAP_FAILED || *keep == MAP_FAILED || no_hugepage(p, len)) {
		if (p != MAP_FAILED)
			munmap(p, len);
		if (*keep != MAP_FAILED)
			munmap(*keep, ANON_LEN);
		return MAP_FAILED;
	}
	fill_pages(*keep, ANON_LEN, ANON_SEED);
	return p;
}

/*
 * scenario_test's madv_pageout asked of C, its record (kind "scenario")
 * in the same shape, for the report's questions 3 and 4: every page of a
 * droppable mapping written, MADV_PAGEOUT, then one dropped page read by
 * user space (zero, no SIGBUS), one by write(2) into a pipe (64 bytes, all
 * zero) and one written by read(2) from a pipe (64 bytes, which it then
 * holds), each untouched before.  Nothing tells of the loss but the
 * content: what a cache must check (detect "zero_page", as B's).  An
 * ordinary anon mapping beside it keeps every byte.
 */
VMAB_NEEDS("dropped_page_zero_to_user_and_kernel", "droppable");
TEST(dropped_page_zero_to_user_and_kernel)
{
	char buf[64], src[64];
	long rss0, dropped, zero = 0, data = 0, garbage = 0, rw, rr, i;
	struct vmab_data dd;
	char *keep, *p;
	int sig;
	char c;

	NEED_DROPPABLE();
	p = map_beside_keep(DROP_LEN, &keep);
	ASSERT_NE(MAP_FAILED, p);
	fill_pages(p, DROP_LEN, DROP_SEED);
	rss0 = smaps_field_kb(p, "Rss");
	dropped = pageout_all(p, DROP_LEN);
	ASSERT_EQ(NPAGES(DROP_LEN), dropped);

	/* Pages 0, 1 and 2 were dropped and have not been touched since. */
	sig = sigbus_probe_read(p);
	c = *(volatile char *)p;
	memset(buf, 0x55, sizeof(buf));
	rw = kernel_write_from(p + PAGE_SZ, sizeof(buf), buf);
	fill_pattern(src, sizeof(src), DROP_SEED);
	rr = kernel_read_into(p + 2 * PAGE_SZ, src, sizeof(src));
	EXPECT_EQ(0, sig);
	EXPECT_EQ(0, c);
	EXPECT_EQ((long)sizeof(buf), rw);
	EXPECT_TRUE(range_is_zero(buf, sizeof(buf)));
	EXPECT_EQ((long)sizeof(src), rr);
	EXPECT_EQ(0, memcmp(p + 2 * PAGE_SZ, src, sizeof(src)));
	memset(p + 2 * PAGE_SZ, 0, sizeof(src));	/* zero again, as dropped */
	for (i = 0; i < NPAGES(DROP_LEN); i++) {
		const char *pg = p + i * PAGE_SZ;

		if (check_pattern(pg, PAGE_SZ, DROP_SEED + i) == -1)
			data++;
		else if (range_is_zero(pg, PAGE_SZ))
			zero++;
		else
			garbage++;
	}

	data_begin(&dd, DKIND_SCENARIO);
	data_str(&dd, DK_SCENARIO, "madv_pageout");
	data_str(&dd, DK_DESIGN, designs[DESIGN_DROPPABLE].name);
	data_str(&dd, DK_PRESSURE, "madv_pageout");
	data_long(&dd, DK_PAGES_MARKED, NPAGES(DROP_LEN));
	data_long(&dd, DK_PAGES_DISCARDED, zero);
	data_long(&dd, DK_PAGES_INTACT, data);
	data_long(&dd, DK_PAGES_GARBAGE, garbage);
	data_long(&dd, DK_PAGES_NONRESIDENT, dropped);
	data_str(&dd, DK_DETECT, zero ? "zero_page" : NULL);
	data_str(&dd, DK_READ_RETURNS, sig ? "sigbus" : c ? "data" : "zero");
	data_str(&dd, DK_PROBE_PAGE, "discarded");
	data_str(&dd, DK_KERNEL_READ_INTO, kernel_access_word(rr));
	data_str(&dd, DK_KERNEL_WRITE_FROM, kernel_access_word(rw));
	data_long(&dd, DK_COUNTER_DISCARDED, -1);	/* none counts them */
	data_long(&dd, DK_MEMCG_COUNTER_DISCARDED, -1);
	data_long(&dd, DK_RSS_KB_BEFORE, rss0);
	data_long(&dd, DK_RSS_KB_AFTER, smaps_field_kb(p, "Rss"));
	data_long(&dd, DK_LOST_NONVOLATILE_BYTES, changed_bytes(keep, ANON_LEN, ANON_SEED));
	data_emit(&dd);

	EXPECT_EQ(NPAGES(DROP_LEN), zero);
	EXPECT_EQ(0, data);
	EXPECT_EQ(0, garbage);
	EXPECT_EQ(0, changed_bytes(keep, ANON_LEN, ANON_SEED));
	munmap(keep, ANON_LEN);
	munmap(p, DROP_LEN);
}

/*
 * A memory cgroup of the test's own, entered: 1, or 0 where there is none
 * (or no design C); cg_part() leaves and removes what cg_join() made.
 */
static int cg_join(struct memcg *cg, const char *tag)
{
	if (design_absent(DESIGN_DROPPABLE) || need_memcg() || memcg_create(cg, tag))
		return 0;
	if (memcg_enter(cg) == 0)
		return 1;
	memcg_destroy(cg);
	return 0;
}

static void cg_part(struct memcg *cg, int have_cg)
{
	if (have_cg) {
		memcg_leave();
		memcg_destroy(cg);
	}
}

/*
 * scenario_test's image_cache asked of C, under the same pressure, its
 * record in the same shape: CACHE_OBJS objects (lib/imgcache.h) in a
 * droppable mapping, droppable from the start (there is nothing to mark),
 * every fourth object paged out, then, where there is a memory cgroup (one
 * of the test's own), memory.reclaim of half the cache.  Each object is
 * then checked by its canaries, reading only (a write would not keep a
 * droppable page), regenerated if any is gone, and checked against the
 * oracle.  The cache finds exactly the objects mincore() saw lose a page
 * (at least the paged-out ones), and exactly those pages; an ordinary anon
 * mapping beside it keeps every byte.  What C cannot do is pin an object it
 * checked: one could be dropped between the check and its use (no
 * pressure here in between).
 */
VMAB_NEEDS("image_cache.by_canary", "droppable");
FIXTURE(image_cache) {
	struct memcg cg;
	int have_cg;
};

FIXTURE_SETUP(image_cache)
{
	self->have_cg = cg_join(&self->cg, "dropcache");
}

FIXTURE_TEARDOWN(image_cache)
{
	cg_part(&self->cg, self->have_cg);
}

/* Under KASAN and TCG (debug) memory.reclaim here takes longer than 30 s. */
TEST_F_TIMEOUT(image_cache, by_canary, 180)
{
	const size_t len = CACHE_OBJS * OBJ_LEN;
	long n, lost, gone, lost_pages = 0, gone_pages = 0, gone_objs = 0;
	long pageout_objs = 0;
	struct cache_tally t = { 0 };
	uint64_t t0, ns_fetch;
	struct vmab_data dd;
	char *cache, *keep;

	NEED_DROPPABLE();
	cache = map_beside_keep(len, &keep);
	ASSERT_NE(MAP_FAILED, cache);
	for (n = 0; n < CACHE_OBJS; n++)
		cache_build(cache + n * OBJ_LEN, n);
	for (n = 0; n < CACHE_OBJS; n += 4, pageout_objs++)
		ASSERT_EQ(0, pageout(cache + n * OBJ_LEN, OBJ_LEN));
	if (self->have_cg)
		memcg_reclaim(&self->cg, len / 2);	/* -EAGAIN: less than asked */
	for (n = 0; n < CACHE_OBJS; n++) {
		gone = nonresident_pages(cache + n * OBJ_LEN, OBJ_LEN);
		gone_pages += gone;
		gone_objs += gone > 0;
	}

	t0 = now_ns();
	for (n = 0; n < CACHE_OBJS; n++) {
		lost = cache_canaries_lost(cache + n * OBJ_LEN, n);
		lost_pages += lost;
		cache_settle(cache + n * OBJ_LEN, n, lost > 0, &t);
	}
	ns_fetch = now_ns() - t0;	/* includes the oracle's check */

	cache_data(&dd, designs[DESIGN_DROPPABLE].name, self->have_cg ?
		   "madv_pageout+memcg_reclaim" : "madv_pageout", "canary",
		   pageout_objs, &t, ns_fetch);
	data_long(&dd, DK_LOST_NONVOLATILE_BYTES, changed_bytes(keep, ANON_LEN, ANON_SEED));
	data_emit(&dd);

	EXPECT_EQ(0, t.wrong);
	EXPECT_EQ(0, t.garbage);
	EXPECT_EQ(gone_objs, t.regenerated);
	EXPECT_EQ(gone_pages, lost_pages);
	EXPECT_LE(pageout_objs, t.regenerated);
	EXPECT_EQ(0, changed_bytes(keep, ANON_LEN, ANON_SEED));
	munmap(keep, ANON_LEN);
	munmap(cache, len);
}

/* --- memory cgroups -------------------------------------------------------- */

VMAB_NEEDS("cg.*", "droppable,memcg");
FIXTURE(cg) {
	struct memcg cg;
	int have_cg;
};

FIXTURE_SETUP(cg)
{
	pin_to_cpu0();
	self->have_cg = cg_join(&self->cg, "drop");
}

FIXTURE_TEARDOWN(cg)
{
	cg_part(&self->cg, self->have_cg);
}

#define NEED_CG() do {							\
	NEED_DROPPABLE();						\
	NEEDS(need_memcg());						\
	if (!self->have_cg)						\
		SKIP(return, "could not create or enter a memory cgroup"); \
} while (0)

/* The sum of memory.stat's two LRU lists of a kind ("file", "anon"), bytes. */
static long cg_lru(const struct memcg *cg, const char *kind)
{
	char a[32], i[32];

	snprintf(a, sizeof(a), "active_%s", kind);
	snprintf(i, sizeof(i), "inactive_%s", kind);
	return memcg_stat(cg, a) + memcg_stat(cg, i);
}

/*
 * What memory.stat shows of a droppable mapping: its pages are charged
 * as anon, and sit on the file LRU lists (they are not swap-backed, as
 * lazily free pages are not); memory.reclaim of its size drops them, none
 * swapped, and the charge falls by what was dropped; memory.stat's
 * pglazyfreed counts none of them (written pages: see lib/designs.h).
 */
TEST_F(cg, memcg_accounting_and_reclaim)
{
	long anon0, file_lru0, anon_lru0, anon1, file_lru1, anon_lru1;
	long lazyfreed0, dropped, anon2;
	struct vmab_data dd;
	char *p;

	NEED_CG();
	anon0 = memcg_stat(&self->cg, "anon");
	file_lru0 = cg_lru(&self->cg, "file");
	anon_lru0 = cg_lru(&self->cg, "anon");
	lazyfreed0 = memcg_stat(&self->cg, "pglazyfreed");
	ASSERT_LE(0, lazyfreed0);
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, DROP_LEN));
	fill_pages(p, DROP_LEN, DROP_SEED);
	anon1 = memcg_stat(&self->cg, "anon");
	file_lru1 = cg_lru(&self->cg, "file");
	anon_lru1 = cg_lru(&self->cg, "anon");

	memcg_reclaim(&self->cg, DROP_LEN);	/* -EAGAIN: less than asked */
	dropped = nonresident_pages(p, DROP_LEN);
	anon2 = memcg_stat(&self->cg, "anon");

	data_begin(&dd, DKIND_DROPPABLE);
	data_str(&dd, DK_SCENARIO, "memcg_accounting");
	data_str(&dd, DK_DESIGN, designs[DESIGN_DROPPABLE].name);
	data_long(&dd, DK_PAGES, NPAGES(DROP_LEN));
	data_long(&dd, DK_MEMCG_ANON_DELTA_KB, (anon1 - anon0) / 1024);
	data_long(&dd, DK_MEMCG_FILE_LRU_DELTA_KB, (file_lru1 - file_lru0) / 1024);
	data_long(&dd, DK_MEMCG_ANON_LRU_DELTA_KB, (anon_lru1 - anon_lru0) / 1024);
	data_long(&dd, DK_PAGES_DISCARDED, dropped);
	data_long(&dd, DK_MEMCG_COUNTER_DISCARDED,
		  memcg_stat(&self->cg, "pglazyfreed") - lazyfreed0);
	data_long(&dd, DK_DROPPABLE_SWAP_PAGES, swap_pages(p));
	data_emit(&dd);

	/* Charged as anon, on the file LRU (5% for pages still in a batch). */
	EXPECT_GE(anon1 - anon0, (long)DROP_LEN * 95 / 100);
	EXPECT_LE(anon1 - anon0, (long)DROP_LEN + 64 * (long)PAGE_SZ);
	EXPECT_GE(file_lru1 - file_lru0, (long)DROP_LEN * 95 / 100);
	EXPECT_LE(anon_lru1 - anon_lru0, (long)DROP_LEN * 5 / 100);
	/* memory.reclaim of its size drops it, uncharged, counted by no event. */
	EXPECT_GE(dropped, NPAGES(DROP_LEN) * 95 / 100);
	EXPECT_EQ(0, memcg_stat(&self->cg, "pglazyfreed") - lazyfreed0);
	EXPECT_EQ(dropped, zero_pages(p, DROP_LEN));
	EXPECT_EQ(0, swap_pages(p));
	EXPECT_LE(anon2, anon1 - dropped * (long)PAGE_SZ + 64 * (long)PAGE_SZ);
	munmap(p, DROP_LEN);
}

/*
 * Mainline's tools/testing/selftests/mm/droppable.c, its semantics in a
 * test of this suite's own: a droppable region filled with 'A', and a
 * child that allocates ordinary memory until something gives; the region
 * must lose a page (read zero) rather than the parent be killed.  Mainline
 * loops until then with no limit; here the child and the region share a
 * memory cgroup of 16 MiB without swap (memory.swap.max 0), so the child
 * pushes the region out, and the wait ends after 20 s.  The parent watches
 * with mincore(), which leaves the accessed bits alone, and reads only once
 * a page is gone: mainline's loop reads the region over and over, and under
 * MGLRU pages read that often stay in the youngest generation, so none was
 * dropped in 60 s and the memcg killed the child instead (2026-12-07, CI,
 * both and debug; the classic LRU dropped one within a second).
 */
TEST_F_TIMEOUT(cg, selftest_port_drops_under_limit, 60)
{
	const size_t len = 8UL << 20;
	uint64_t deadline;
	int found = 0, status;
	long gone = 0;
	size_t off;
	pid_t child;
	char *p;

	NEED_CG();
	ASSERT_EQ(0, memcg_write(&self->cg, "memory.max", "16M"));
	/* Absent without CONFIG_SWAP: then nothing can swap anyway. */
	memcg_write(&self->cg, "memory.swap.max", "0");
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 'A', len);
	for (off = 0; off < len; off += PAGE_SZ)
		ASSERT_EQ('A', p[off]);

	/*
	 * Dropped written pages are not counted as reclaimed (lib/designs.h),
	 * so the memcg may OOM before it sees progress: the child, not the
	 * one that looks, is the one to go.
	 */
	ASSERT_EQ(0, write_file("/proc/self/oom_score_adj", "-1000"));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		write_file("/proc/self/oom_score_adj", "1000");
		for (;;) {
			char *q = malloc(64 * PAGE_SZ);

			if (q)
				touch_write(q, 64 * PAGE_SZ);
		}
	}
	deadline = now_ns() + 20ull * 1000000000ull;
	while (!gone && now_ns() < deadline) {
		gone = nonresident_pages(p, len);
		if (!gone)
			usleep(10000);
	}
	/* A page that left reads zero (a signal here kills the test). */
	for (off = 0; off < len && gone > 0 && !found; off += PAGE_SZ)
		found = p[off] == 0;
	kill(child, SIGKILL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_LT(0, gone) TH_LOG("no droppable page left memory within 20 s");
	EXPECT_TRUE(found) TH_LOG("%ld pages left memory, none reads zero", gone);
	/* Whatever reads zero was dropped whole: the rest still holds 'A'. */
	for (off = 0; off < len; off += PAGE_SZ) {
		char c = p[off];

		if (c != 0 && c != 'A') {
			EXPECT_EQ('A', c) TH_LOG("page %zu", off / PAGE_SZ);
			break;
		}
	}
	munmap(p, len);
}

/* --- fork, mlock, userfaultfd, core dumps ---------------------------------- */

/*
 * VM_WIPEONFORK: the child gets the mapping, droppable still, with every
 * page reading zero; what it writes stays its own, and the parent keeps
 * its content.
 */
VMAB_NEEDS("fork_child_sees_zeros", "droppable");
TEST(fork_child_sees_zeros)
{
	int status;
	pid_t pid;
	char *p;

	NEED_DROPPABLE();
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	fill_pages(p, DROP_LEN, DROP_SEED);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (!smaps_has_flag(p, "dp"))
			_exit(1);
		if (zero_pages(p, DROP_LEN) != NPAGES(DROP_LEN))
			_exit(2);
		fill_pages(p, DROP_LEN, ANON_SEED);
		_exit(changed_pages(p, DROP_LEN, ANON_SEED) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child: 1 not droppable, 2 did not read zeros, 3 lost its writes");
	EXPECT_EQ(0, changed_pages(p, DROP_LEN, DROP_SEED));
	munmap(p, DROP_LEN);
}

/*
 * mlock() of a droppable range succeeds and locks nothing (mlock_fixup()
 * skips VM_DROPPABLE as it skips VM_SPECIAL): no "lo" flag, "Locked: 0 kB",
 * VmLck unchanged; the pages stay droppable.
 */
VMAB_NEEDS("mlock_does_not_lock", "droppable");
TEST(mlock_does_not_lock)
{
	long vmlck0;
	char *p;

	NEED_DROPPABLE();
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	fill_pages(p, DROP_LEN, DROP_SEED);
	vmlck0 = keyed_value("/proc/self/status", "VmLck", ':');
	ASSERT_EQ(0, mlock(p, DROP_LEN));
	EXPECT_FALSE(smaps_has_flag(p, "lo"));
	EXPECT_EQ(0, smaps_field_kb(p, "Locked"));
	EXPECT_EQ(vmlck0, keyed_value("/proc/self/status", "VmLck", ':'));
	EXPECT_EQ(NPAGES(DROP_LEN), pageout_all(p, DROP_LEN));
	EXPECT_EQ(0, munlock(p, DROP_LEN));
	munmap(p, DROP_LEN);
}

/*
 * mlockall(MCL_FUTURE), then a droppable mmap(): not locked either (the
 * fix "mm: prevent droppable mappings from being locked", which names
 * 9651fcedf7b9, clears VM_LOCKED there).  The harness runs each test in a
 * process of its own, so the mlockall() ends with it.
 */
VMAB_NEEDS("mlockall_future_does_not_lock", "droppable");
TEST(mlockall_future_does_not_lock)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	char *p;

	NEED_DROPPABLE();
	/* Root may raise it; else the default (8 MiB) covers the mapping. */
	setrlimit(RLIMIT_MEMLOCK, &unlimited);
	ASSERT_EQ(0, mlockall(MCL_FUTURE)) TH_LOG("mlockall: %s", strerror(errno));
	p = map_droppable(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	fill_pages(p, DROP_LEN, DROP_SEED);
	EXPECT_FALSE(smaps_has_flag(p, "lo"));
	EXPECT_EQ(0, smaps_field_kb(p, "Locked"));
	/* -EINVAL: MADV_PAGEOUT refused a VM_LOCKED range. */
	EXPECT_EQ(NPAGES(DROP_LEN), pageout_all(p, DROP_LEN));
	munlockall();
	munmap(p, DROP_LEN);
}

/*
 * userfaultfd cannot register a droppable range (vma_can_userfault(), and
 * the fix that makes it look at the VMA's own flags): UFFDIO_REGISTER is
 * EINVAL in every mode, while an ordinary anon range registers.
 */
VMAB_NEEDS("userfaultfd_register_einval", "droppable,CONFIG_USERFAULTFD");
TEST(userfaultfd_register_einval)
{
	struct uffdio_api api = { .api = UFFD_API };
	static const struct { __u64 mode; const char *what; } modes[] = {
		{ UFFDIO_REGISTER_MODE_MISSING, "MISSING" },
		{ UFFDIO_REGISTER_MODE_WP, "WP" },
		{ UFFDIO_REGISTER_MODE_MINOR, "MINOR" },
	};
	struct uffdio_register reg;
	unsigned int i;
	char *p, *anon;
	int uffd;

	NEED_DROPPABLE();
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 && errno == ENOSYS)
		SKIP(return, "needs CONFIG_USERFAULTFD (userfaultfd() is ENOSYS)");
	ASSERT_LE(0, uffd) TH_LOG("userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	p = map_droppable(DROP_LEN);
	anon = map_anon(DROP_LEN);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, anon);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		memset(&reg, 0, sizeof(reg));
		reg.range.start = (unsigned long)p;
		reg.range.len = DROP_LEN;
		reg.mode = modes[i].mode;
		errno = 0;
		EXPECT_EQ(-1, ioctl(uffd, UFFDIO_REGISTER, &reg)) TH_LOG("mode %s registered", modes[i].what);
		EXPECT_EQ(EINVAL, errno) TH_LOG("mode %s", modes[i].what);
	}
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)anon;
	reg.range.len = DROP_LEN;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg)) TH_LOG("anon: %s", strerror(errno));
	close(uffd);
	munmap(p, DROP_LEN);
	munmap(anon, DROP_LEN);
}

/* Whether the len bytes at needle occur in the file. */
static int file_contains(const char *path, const void *needle, size_t len)
{
	static char buf[1 << 16];
	size_t have = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY), found = 0;

	if (fd < 0)
		return -1;
	while (!found && (n = read(fd, buf + have, sizeof(buf) - have)) > 0) {
		have += n;
		found = memmem(buf, have, needle, len) != NULL;
		if (have >= len) {	/* keep the tail a match may start in */
			memmove(buf, buf + have - (len - 1), len - 1);
			have = len - 1;
		}
	}
	close(fd);
	return found;
}

/*
 * A core dump leaves the droppable mapping out, whatever coredump_filter
 * says (VM_DONTDUMP), and keeps an ordinary anon one: a child fills a page
 * of each with a pattern of its own and aborts, and the core holds the
 * anon page's pattern and not the droppable one's.  It sets
 * kernel.core_pattern, so it runs in the guest only (VMAB_VARIANT set).
 */
VMAB_NEEDS("core_dump_excluded", "droppable");
TEST(core_dump_excluded)
{
	char core[64], anon_pat[256], drop_pat[256];
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	int status;
	pid_t pid;

	NEED_DROPPABLE();
	if (!getenv("VMAB_VARIANT"))
		SKIP(return, "not in a vmab guest: the test sets kernel.core_pattern");
	ASSERT_EQ(0, knob_set("/proc/sys/kernel/core_pattern", "/tmp/vmab-core.%p"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *a = map_anon(PAGE_SZ), *d = map_droppable(PAGE_SZ);

		if (a == MAP_FAILED || d == MAP_FAILED)
			_exit(1);
		fill_pattern(a, PAGE_SZ, ANON_SEED);
		fill_pattern(d, PAGE_SZ, DROP_SEED);
		setrlimit(RLIMIT_CORE, &unlimited);
		write_file("/proc/self/coredump_filter", "0x7f");	/* everything */
		abort();
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	snprintf(core, sizeof(core), "/tmp/vmab-core.%d", pid);
	knob_restore_all();
	/* The patterns only now: the child's core must not hold them on its stack. */
	fill_pattern(anon_pat, sizeof(anon_pat), ANON_SEED);
	fill_pattern(drop_pat, sizeof(drop_pat), DROP_SEED);
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_TRUE(WCOREDUMP(status));
	EXPECT_EQ(1, file_contains(core, anon_pat, sizeof(anon_pat)));
	EXPECT_EQ(0, file_contains(core, drop_pat, sizeof(drop_pat)));
	unlink(core);
}

TEST_HARNESS_MAIN
