// SPDX-License-Identifier: GPL-2.0
/*
 * The shared semantic suite: every scenario runs once per design,
 * design A (vrange(), SPEC 4) and design B (MADV_FREE, SPEC 5), through the
 * kselftest harness's FIXTURE_VARIANT.  Each scenario asserts what the
 * semantics define and records what it saw as one "# @data {json}" line
 * (kind "scenario"), which the report puts side by side.  The designs,
 * their names, calls and counters, are lib/designs.h's.  Design C
 * (MAP_DROPPABLE) is not a variant here: it has no mark to make and no
 * unmark to report a purge, the shape of every scenario below; what each
 * scenario asks that applies to it, droppable_test asks.
 *
 * Every scenario also holds non-volatile memory with known content (the
 * fixture's "keep" area, charged to the same memory cgroup as the marked
 * memory) and checks it byte for byte at the end: any loss fails.
 *
 * Words used below: a page is "marked" when vrange(VOLATILE) or
 * madvise(MADV_FREE) covered it, "discarded" when the kernel dropped its
 * content (vrange: purged), and "taken back" when user space made it
 * ordinary memory again (vrange: NONVOLATILE; MADV_FREE: a write to it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vmab.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MIB (1UL << 20)
#define REGION_LEN (8 * MIB)	/* marked memory of the pressure scenarios */
#define SMALL_LEN (2 * MIB)	/* marked memory of the VMA scenarios */
#define KEEP_LEN (2 * MIB)	/* non-volatile memory every scenario checks */
#define KEEP_SEED 0x6b656570u
#define NPAGES(len) ((long)((len) / PAGE_SZ))

#define D_VRANGE DESIGN_VRANGE
#define D_MADV_FREE DESIGN_MADV_FREE

static const char *design_name(int d)
{
	return designs[d].name;
}

/* The /proc/vmstat event counting discarded pages (SPEC 4.3, 5). */
static const char *discard_counter(int d)
{
	return designs[d].counter_discarded;
}

VMAB_NEEDS("scn.vrange.*", "vrange");
VMAB_NEEDS("scn.madv_free.*", "madv_free");
VMAB_NEEDS("scn.*.memcg_reclaim", "memcg");
VMAB_NEEDS("scn.*.memcg_limit", "memcg");
VMAB_NEEDS("scn.*.fork_cow", "memcg");
VMAB_NEEDS("scn.*.mlock_after_mark", "memcg");
VMAB_NEEDS("scn.*.thp", "thp");
VMAB_NEEDS("scn.*.both_designs", "vrange,madv_free");
FIXTURE(scn) {
	const char *skip;	/* why this design cannot run here */
	int both;		/* the kernel has both designs */
	int have_cg;
	struct memcg cg;
	char *keep;
};

FIXTURE_VARIANT(scn) {
	enum design_id design;
};

FIXTURE_VARIANT_ADD(scn, vrange) {
	.design = D_VRANGE,
};

FIXTURE_VARIANT_ADD(scn, madv_free) {
	.design = D_MADV_FREE,
};

/* The global scenario's knob (put back by knob_restore_all()). */

FIXTURE_SETUP(scn)
{
	/* SKIP here would not stop the test body in 6.1's harness. */
	self->skip = design_absent(variant->design);
	self->both = !design_absent(D_VRANGE) && !design_absent(D_MADV_FREE);
	if (self->skip)
		return;
	/* The keep area goes into the test's memcg, under the same pressure. */
	if (memcg_available() && memcg_create(&self->cg, "scn") == 0) {
		if (memcg_enter(&self->cg) == 0)
			self->have_cg = 1;
		else
			memcg_destroy(&self->cg);
	}
	self->keep = map_anon(KEEP_LEN);
	ASSERT_NE(MAP_FAILED, self->keep);
	fill_pages(self->keep, KEEP_LEN, KEEP_SEED);
}

FIXTURE_TEARDOWN(scn)
{
	knob_restore_all();
	if (self->keep)
		munmap(self->keep, KEEP_LEN);
	if (self->have_cg) {
		memcg_leave();
		memcg_destroy(&self->cg);
	}
}

#define NEED_DESIGN() do {						\
	if (self->skip)							\
		SKIP(return, "%s", self->skip);				\
} while (0)

#define NEED_MEMCG() do {						\
	NEEDS(need_memcg());						\
	if (!self->have_cg)						\
		SKIP(return, "could not create or enter a memory cgroup"); \
} while (0)

/*
 * Write the first byte of every page back to itself: how MADV_FREE's user
 * takes pages back without changing them (touch_write() changes them).
 */
static void redirty(char *p, size_t len)
{
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ) {
		volatile char *c = p + off;

		*c = *c;
	}
}

/* Bytes of the keep area that no longer hold their pattern. */
static long lost_keep_bytes(const char *keep)
{
	return changed_bytes(keep, KEEP_LEN, KEEP_SEED);
}

/* Mark [p, p + len) discardable with design d: 0 or -errno. */
static int mark(int d, void *p, size_t len)
{
	return designs[d].give_back(p, len);
}

/*
 * vrange(NONVOLATILE): 0 or -errno, *purged from the kernel.  MADV_FREE has
 * no call for this; its users take pages back by writing to them.
 */
static int unmark_vrange(void *p, size_t len, int *purged)
{
	*purged = 0;
	return designs[D_VRANGE].take_back(p, len, purged);
}

/* Index of the first page mincore(2) reports as not resident, or -1. */
static long first_nonresident(const void *p, size_t len)
{
	long i, first = -1, np = NPAGES(len);
	unsigned char *vec = malloc(np);

	if (vec && !mincore((void *)p, len, vec)) {
		for (i = 0; i < np && first < 0; i++)
			if (!(vec[i] & 1))
				first = i;
	}
	free(vec);
	return first;
}

/* What page i holds: its pattern (seed + i, or alt + i when alt), zeros, or neither. */
enum page_state { PG_DATA, PG_ZERO, PG_GARBAGE };

static enum page_state page_state(const char *pg, long i, unsigned int seed,
				  unsigned int alt)
{
	if (check_pattern(pg, PAGE_SZ, seed + i) == -1)
		return PG_DATA;
	if (alt && check_pattern(pg, PAGE_SZ, alt + i) == -1)
		return PG_DATA;
	if (range_is_zero(pg, PAGE_SZ))
		return PG_ZERO;
	return PG_GARBAGE;
}

/* Counters taken before pressure, to report deltas. */
struct snap {
	long counter;		/* discard_counter() */
	long rss_kb;		/* Rss of the marked VMA */
	long cg_anon, cg_file;	/* memory.stat, bytes */
	long lazyfree;		/* nr_lazyfree gauge (SPEC 5), pages */
	long cg_counter;	/* discard_counter() in memory.stat */
};

static void snap_take(FIXTURE_DATA(scn) *self, int d, void *p, struct snap *s)
{
	s->counter = vmstat_get(discard_counter(d));
	s->rss_kb = smaps_field_kb(p, "Rss");
	s->cg_anon = self->have_cg ? memcg_stat(&self->cg, "anon") : -1;
	s->cg_file = self->have_cg ? memcg_stat(&self->cg, "file") : -1;
	s->cg_counter = self->have_cg ?
		memcg_stat(&self->cg, discard_counter(d)) : -1;
	vmstat_refresh();
	s->lazyfree = vmstat_get("nr_lazyfree");
}

/* What one scenario saw, from pressure to taking the memory back. */
struct obs {
	const char *pressure;
	long pages_marked;
	long nonresident;	/* mincore, while still marked */
	long data, zero, garbage;	/* pages, after taking back */
	int purged;		/* vrange NONVOLATILE's flag; -1 for MADV_FREE */
	int sigbus;		/* reading a discarded page raised SIGBUS */
	int sigbus_right;	/* si_addr is the page, si_code BUS_ADRERR */
	int probe_lost;		/* the page read while marked was discarded */
	const char *probe;	/* and so: "discarded", "swapped", "resident" */
	const char *read_returns;
	const char *detect;
	const char *kread, *kwrite;	/* read(2) into / write(2) from a discarded page */
	long counter_delta;
	long lazyfree_delta;	/* nr_lazyfree after minus before, -1 absent */
	long cg_counter_delta;	/* the same event in memory.stat, -1 absent */
	long rss_kb_before, rss_kb_after;
	long cg_anon_delta_kb, cg_file_delta_kb;
	long ns_unmark;
	long lost_keep;
};

/*
 * Look at a marked region after pressure the way its owner would: read a
 * discarded page while still marked (and let the kernel read and write it),
 * take the region back, then classify every page.  For vrange the region is
 * made non-volatile here; MADV_FREE pages are only read.
 */
static void observe(struct __test_metadata *_metadata,
		    FIXTURE_DATA(scn) *self, int d, char *p, size_t len,
		    unsigned int seed, unsigned int alt, const struct snap *s0,
		    struct obs *o)
{
	char buf[64], zeros[64];
	const char *kread = NULL, *kwrite = NULL;
	long first, i, r;
	char *q;
	uint64_t t0;

	memset(zeros, 0, sizeof(zeros));
	o->pages_marked = NPAGES(len);
	o->nonresident = nonresident_pages(p, len);
	first = first_nonresident(p, len);
	o->rss_kb_before = s0->rss_kb;
	o->rss_kb_after = smaps_field_kb(p, "Rss");
	o->cg_anon_delta_kb = self->have_cg && s0->cg_anon >= 0 ?
		(memcg_stat(&self->cg, "anon") - s0->cg_anon) / 1024 : 0;
	o->cg_file_delta_kb = self->have_cg && s0->cg_file >= 0 ?
		(memcg_stat(&self->cg, "file") - s0->cg_file) / 1024 : 0;

	/* A read while still marked, of a page mincore says is gone. */
	q = p + (first >= 0 ? first : 0) * PAGE_SZ;
	o->sigbus = sigbus_probe_read(q);
	o->sigbus_right = o->sigbus ? sigbus_seen.addr == (void *)q &&
		sigbus_seen.code == BUS_ADRERR : -1;
	o->kread = o->kwrite = NULL;
	if (first >= 0) {
		/*
		 * Non-destructive: write back exactly what was read out, as
		 * the page may also just be in swap (after fork, say).
		 */
		r = kernel_write_from(q, sizeof(buf), buf);
		kwrite = kernel_access_word(r);
		r = kernel_read_into(q, r > 0 ? buf : zeros, sizeof(buf));
		kread = kernel_access_word(r);
	}

	o->purged = -1;
	o->ns_unmark = 0;
	if (d == D_VRANGE) {
		t0 = now_ns();
		ASSERT_EQ(0, unmark_vrange(p, len, &o->purged));
		o->ns_unmark = now_ns() - t0;
	}
	o->data = o->zero = o->garbage = 0;
	for (i = 0; i < NPAGES(len); i++) {
		switch (page_state(p + i * PAGE_SZ, i, seed, alt)) {
		case PG_DATA:
			o->data++;
			break;
		case PG_ZERO:
			o->zero++;
			break;
		default:
			o->garbage++;
		}
	}
	o->counter_delta = s0->counter >= 0 ?
		vmstat_get(discard_counter(d)) - s0->counter : -1;
	o->cg_counter_delta = s0->cg_counter >= 0 ?
		memcg_stat(&self->cg, discard_counter(d)) - s0->cg_counter : -1;
	vmstat_refresh();
	o->lazyfree_delta = s0->lazyfree >= 0 ?
		vmstat_get("nr_lazyfree") - s0->lazyfree : -1;

	/* Was the probed page lost, or only elsewhere (swap)? Now we can look. */
	o->probe_lost = first >= 0 && range_is_zero(q, PAGE_SZ);
	o->probe = first < 0 ? "resident" : o->probe_lost ? "discarded" : "swapped";
	if (o->probe_lost) {
		o->kread = kread;
		o->kwrite = kwrite;
	}
	if (o->sigbus)
		o->read_returns = "sigbus";
	else if (o->probe_lost || (o->zero && d == D_MADV_FREE))
		o->read_returns = "zero";
	else if (o->zero)
		o->read_returns = "untested";	/* the probe hit a swapped page */
	else
		o->read_returns = "data";
	if (o->purged == 1)
		o->detect = "purged_flag";
	else if (o->sigbus)
		o->detect = "sigbus";
	else if (o->zero && d == D_MADV_FREE)
		o->detect = "zero_page";
	else if (o->zero)
		o->detect = "nothing";	/* lost and not told: a vrange failure */
	else
		o->detect = NULL;	/* nothing was lost */
	o->lost_keep = lost_keep_bytes(self->keep);
}

/* The common fields of a scenario's data line. */
static void obs_data(struct vmab_data *dd, const char *scenario, int d,
		     const struct obs *o)
{
	data_begin(dd, DKIND_SCENARIO);
	data_str(dd, DK_SCENARIO, scenario);
	data_str(dd, DK_DESIGN, design_name(d));
	data_str(dd, DK_PRESSURE, o->pressure);
	data_long(dd, DK_PAGES_MARKED, o->pages_marked);
	data_long(dd, DK_PAGES_DISCARDED, o->zero);
	data_long(dd, DK_PAGES_INTACT, o->data);
	data_long(dd, DK_PAGES_GARBAGE, o->garbage);
	data_long(dd, DK_PAGES_NONRESIDENT, o->nonresident);
	data_str(dd, DK_DETECT, o->detect);
	data_str(dd, DK_READ_RETURNS, o->read_returns);
	if (o->purged >= 0)
		data_long(dd, DK_PURGED, o->purged);
	if (o->sigbus)
		data_long(dd, DK_SIGBUS_ADDR_CODE_RIGHT, o->sigbus_right);
	data_str(dd, DK_PROBE_PAGE, o->probe);
	data_str(dd, DK_KERNEL_READ_INTO, o->kread);
	data_str(dd, DK_KERNEL_WRITE_FROM, o->kwrite);
	data_long(dd, DK_COUNTER_DISCARDED, o->counter_delta);
	data_long(dd, DK_MEMCG_COUNTER_DISCARDED, o->cg_counter_delta);
	if (o->lazyfree_delta != -1)
		data_long(dd, DK_NR_LAZYFREE_DELTA, o->lazyfree_delta);
	data_long(dd, DK_RSS_KB_BEFORE, o->rss_kb_before);
	data_long(dd, DK_RSS_KB_AFTER, o->rss_kb_after);
	data_long(dd, DK_MEMCG_ANON_DELTA_KB, o->cg_anon_delta_kb);
	data_long(dd, DK_MEMCG_FILE_DELTA_KB, o->cg_file_delta_kb);
	if (d == D_VRANGE)
		data_long(dd, DK_NS_UNMARK, o->ns_unmark);
	data_long(dd, DK_LOST_NONVOLATILE_BYTES, o->lost_keep);
}

/* What both designs promise, whatever the pressure was. */
static void check_obs(struct __test_metadata *_metadata, int d,
		      const struct obs *o)
{
	EXPECT_EQ(0, o->lost_keep);
	EXPECT_EQ(0, o->garbage);		/* never garbage */
	if (d == D_VRANGE) {
		/* Loss is reported, and only loss. */
		EXPECT_EQ(o->zero > 0, o->purged);
		if (o->probe_lost) {	/* a purged page, still volatile */
			EXPECT_EQ(1, o->sigbus);
			EXPECT_STREQ("efault", o->kread);
			EXPECT_STREQ("efault", o->kwrite);
		} else {
			EXPECT_EQ(0, o->sigbus);
		}
		if (o->sigbus)
			EXPECT_EQ(1, o->sigbus_right);
	} else {
		EXPECT_EQ(0, o->sigbus);
		if (o->probe_lost) {
			EXPECT_STREQ("ok", o->kread);
			EXPECT_STREQ("ok", o->kwrite);
		}
	}
}

/* memory.reclaim of everything the test's memcg holds, up to tries times. */
static void reclaim_all(FIXTURE_DATA(scn) *self, char *p, size_t len, int tries)
{
	int i;

	for (i = 0; i < tries; i++) {
		long cur = memcg_read_long(&self->cg, "memory.current");

		memcg_reclaim(&self->cg, cur > 0 ? (size_t)cur : len);
		if (nonresident_pages(p, len) == NPAGES(len))
			break;
	}
}

/*
 * Wait until reclaim has taken all of [p, p + len), or some and nothing
 * more for 0.5 s, or until kswapd has given up having taken nothing; at
 * most 10 s (kswapd works on its own time, and slowly under KASAN).
 */
static void wait_for_reclaim(char *p, size_t len)
{
	long now, last = -1;
	int i, still = 0;

	for (i = 0; i < 200; i++) {
		now = nonresident_pages(p, len);
		if (now == NPAGES(len) || (now > 0 && still >= 10) ||
		    (now == 0 && kswapd_gave_up() == 1))
			break;
		still = now == last ? still + 1 : 0;
		last = now;
		usleep(50000);
	}
}

enum pressure { P_RECLAIM, P_LIMIT, P_PAGEOUT, P_GLOBAL };
static const char *const pressure_names[] = {
	"memcg_reclaim", "memcg_limit", "madv_pageout", "global",
};

/*
 * The pressure scenarios: REGION_LEN marked, pressure of one kind, then
 * observe().  The extra figures answer the reviewers' questions: which
 * pages reclaim took first (the LRU placement of marked pages), and what
 * the counters say against what was found.
 */
static void pressure_scenario(struct __test_metadata *_metadata,
			      FIXTURE_DATA(scn) *self, int d,
			      enum pressure how, const char *scenario)
{
	size_t len = REGION_LEN;
	long first_pass = -1, keep_swap_kb = -1, hog_kb = 0;
	long min_free_set = -1, gave_up0 = -1, gave_up1 = -1, direct = -1;
	int hog_got = -1;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = pressure_names[how] };
	uint64_t t0, ns_pressure;
	char *p = map_anon(len);
	pid_t hog;

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 100);
	ASSERT_EQ(0, mark(d, p, len));
	snap_take(self, d, p, &s0);

	t0 = now_ns();
	switch (how) {
	case P_RECLAIM:
		/* First exactly the marked size: what does reclaim take first? */
		memcg_reclaim(&self->cg, len);
		first_pass = nonresident_pages(p, len);
		keep_swap_kb = smaps_field_kb(self->keep, "Swap");
		reclaim_all(self, p, len, 4);
		break;
	case P_LIMIT: {
		long cur = memcg_read_long(&self->cg, "memory.current");
		char val[32];

		/* Room for 8 MiB more; the hog wants 12. */
		write_file("/proc/self/oom_score_adj", "-1000");
		snprintf(val, sizeof(val), "%ld", cur + (long)(8 * MIB));
		ASSERT_EQ(0, memcg_write(&self->cg, "memory.max", val));
		hog_kb = 12 * 1024;
		hog = start_hog(12 * MIB, &hog_got);
		ASSERT_GT(hog, 0);
		stop_hog(hog);
		memcg_write(&self->cg, "memory.max", "max");
		break;
	}
	case P_PAGEOUT:
		ASSERT_EQ(0, pageout(p, len));
		break;
	case P_GLOBAL: {
		long min_kb;
		pid_t hogs[2] = { -1, -1 };
		int got = 1;

		/*
		 * Filling all free memory costs tens of seconds under TCG, so
		 * the free memory is made small instead: min_free_kbytes such
		 * that the low watermark (1.25 min) is 16 MiB below MemFree.
		 * The hog's 32 MiB then wake kswapd, whose target (1.5 min)
		 * is out of reach: it reclaims what it can, in every zone,
		 * without an OOM kill, as allocations stay above min.
		 */
		write_file("/proc/self/oom_score_adj", "-1000");
		min_kb = squeeze_free_memory();
		ASSERT_LT(0, min_kb);
		gave_up0 = kswapd_gave_up();
		direct = 0;
		hog_kb = 32 * 1024;
		hogs[0] = start_hog((size_t)hog_kb * 1024, &hog_got);
		ASSERT_GT(hogs[0], 0);
		wait_for_reclaim(p, len);
		/*
		 * That target out of reach, kswapd gives up on the node after
		 * MAX_RECLAIM_RETRIES runs that reclaim nothing, and only a
		 * direct reclaim that takes something wakes it again: the
		 * last global scenario leaves it so, and it may give up here
		 * before it reaches the marked pages.  Then a second hog takes
		 * free memory 2 MiB below min (a quarter of the marked size),
		 * where allocations reclaim directly.
		 */
		gave_up1 = kswapd_gave_up();
		if (nonresident_pages(p, len) == 0 && gave_up1 == 1) {
			long more_kb = meminfo_kb("MemFree") - min_kb + 2 * 1024;

			hogs[1] = start_hog((size_t)more_kb * 1024, &got);
			hog_kb += more_kb;
			hog_got &= got;
			wait_for_reclaim(p, len);
			direct = 1;
		}
		stop_hog(hogs[1]);
		stop_hog(hogs[0]);
		knob_restore_all();
		min_free_set = min_kb;
		break;
	}
	}
	ns_pressure = now_ns() - t0;

	observe(_metadata, self, d, p, len, 100, 0, &s0, &o);
	obs_data(&dd, scenario, d, &o);
	if (how == P_RECLAIM) {
		data_long(&dd, DK_FIRST_PASS_DISCARDED, first_pass);
		data_long(&dd, DK_FIRST_PASS_KEEP_SWAPPED_KB, keep_swap_kb);
	}
	if (how == P_GLOBAL) {
		data_long(&dd, DK_MIN_FREE_KBYTES_SET, min_free_set);
		data_long(&dd, DK_KSWAPD_GAVE_UP_BEFORE, gave_up0);
		data_long(&dd, DK_KSWAPD_GAVE_UP_DURING, gave_up1);
		data_long(&dd, DK_DIRECT_RECLAIM_HOG, direct);
	}
	if (how == P_LIMIT || how == P_GLOBAL) {
		data_long(&dd, DK_HOG_KB, hog_kb);
		data_long(&dd, DK_HOG_OOM_KILLED, !hog_got);
	}
	data_long(&dd, DK_NS_PRESSURE, ns_pressure);
	data_emit(&dd);

	check_obs(_metadata, d, &o);
	/* Where nothing but the marked pages can go, they must go. */
	if (how == P_RECLAIM || how == P_PAGEOUT ||
	    !vmab_mode_has_swap())
		EXPECT_GT(o.zero, 0);
	if (how == P_RECLAIM && d == D_VRANGE)
		EXPECT_EQ(1, o.purged);
	/* A kswapd that has not given up takes them without a second hog. */
	if (how == P_GLOBAL && !vmab_mode_has_swap() && gave_up0 == 0)
		EXPECT_EQ(0, direct);
	munmap(p, len);
}

/*
 * No pressure: marked data survives, and what it costs to mark memory, to
 * read it while marked and to take it back (vrange: NONVOLATILE; MADV_FREE:
 * a write to each page).  Also where marked pages sit on the LRU
 * (memory.stat before and after marking).  The guest's clock may tick in
 * jiffies, so costs are timed over whole loops of CHUNK-sized calls,
 * repeated until each loop has run for a while.
 */
#define CHUNK (64 * 1024UL)

TEST_F(scn, no_pressure)
{
	static const char *const lru[] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file",
	};
	size_t len = REGION_LEN, off;
	long lru0[4], lru1[4], lazy0, lazy1, vmas0, vmas1, i, query = -1;
	long marked0, marked1, intact, rounds, gauge0, gauge1;
	int purged = -1, vo = -1, any_purged = 0;
	uint64_t t0, t_mark = 0, t_read = 0, t_back = 0;
	struct vmab_data dd;
	char *p;

	NEED_DESIGN();
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 200);
	vmas0 = count_vmas();
	for (i = 0; i < 4; i++)
		lru0[i] = self->have_cg ? memcg_stat(&self->cg, lru[i]) : -1;
	lazy0 = self->have_cg ? memcg_stat(&self->cg, "lazyfree") : -1;
	marked0 = vmstat_get("pglazyfree");
	vmstat_refresh();
	gauge0 = vmstat_get("nr_lazyfree");

	ASSERT_EQ(0, mark(variant->design, p, len));

	for (i = 0; i < 4; i++)
		lru1[i] = self->have_cg ? memcg_stat(&self->cg, lru[i]) : -1;
	lazy1 = self->have_cg ? memcg_stat(&self->cg, "lazyfree") : -1;
	marked1 = vmstat_get("pglazyfree");
	vmstat_refresh();
	gauge1 = vmstat_get("nr_lazyfree");
	if (variant->design == D_VRANGE) {
		vo = smaps_has_flag(p, "vo");
		query = sys_vrange((unsigned long)p, len, VRANGE_QUERY, &purged);
		ASSERT_EQ(0, unmark_vrange(p, len, &purged));
	}

	/* Mark, read, take back, chunk by chunk, for at least ~0.2 s each. */
	for (rounds = 0; rounds < 64; rounds++) {
		if (rounds >= 4 && t_mark > 200000000ull &&
		    t_back > 200000000ull)
			break;
		t0 = now_ns();
		for (off = 0; off < len; off += CHUNK)
			ASSERT_EQ(0, mark(variant->design, p + off, CHUNK));
		t_mark += now_ns() - t0;
		t0 = now_ns();
		touch_read(p, len);
		t_read += now_ns() - t0;
		t0 = now_ns();
		for (off = 0; off < len; off += CHUNK) {
			if (variant->design == D_VRANGE) {
				int pg;

				ASSERT_EQ(0, unmark_vrange(p + off, CHUNK, &pg));
				any_purged |= pg;
			} else {
				redirty(p + off, CHUNK);
			}
		}
		t_back += now_ns() - t0;
	}
	vmas1 = count_vmas();

	intact = 0;
	for (i = 0; i < NPAGES(len); i++)
		intact += page_state(p + i * PAGE_SZ, i, 200, 0) == PG_DATA;

	data_begin(&dd, DKIND_SCENARIO);
	data_str(&dd, DK_SCENARIO, "no_pressure");
	data_str(&dd, DK_DESIGN, design_name(variant->design));
	data_long(&dd, DK_PAGES_MARKED, NPAGES(len));
	data_long(&dd, DK_PAGES_INTACT, intact);
	data_long(&dd, DK_PAGES_DISCARDED, NPAGES(len) - intact);
	data_str(&dd, DK_READ_RETURNS, "data");
	if (variant->design == D_VRANGE) {
		data_long(&dd, DK_PURGED, purged | any_purged);
		data_long(&dd, DK_QUERY_BYTES, query);
		data_long(&dd, DK_SMAPS_VO, vo);
	}
	data_long(&dd, DK_COUNTER_MARKED, marked0 >= 0 && marked1 >= 0 ?
		  marked1 - marked0 : -1);
	data_long(&dd, DK_NR_LAZYFREE_DELTA, gauge0 >= 0 && gauge1 >= 0 ?
		  gauge1 - gauge0 : -1);
	data_long(&dd, DK_VMAS_DELTA_AFTER_UNMARK, vmas1 - vmas0);
	for (i = 0; i < 4; i++) {
		char key[48];

		snprintf(key, sizeof(key), DK_MARK_DELTA_KB_PREFIX "%s", lru[i]);
		data_long(&dd, key, lru0[i] >= 0 && lru1[i] >= 0 ?
			  (lru1[i] - lru0[i]) / 1024 : -1);
	}
	data_long(&dd, DK_MEMCG_LAZYFREE_DELTA_KB,
		  lazy0 >= 0 && lazy1 >= 0 ? (lazy1 - lazy0) / 1024 : -1);
	data_long(&dd, DK_CHUNK_KB, CHUNK / 1024);
	data_long(&dd, DK_ROUNDS, rounds);
	data_long(&dd, DK_NS_MARK_PER_MIB, t_mark / rounds / (len / MIB));
	data_long(&dd, DK_NS_READ_PER_MIB, t_read / rounds / (len / MIB));
	data_long(&dd, DK_NS_TAKE_BACK_PER_MIB, t_back / rounds / (len / MIB));
	data_long(&dd, DK_NS_MARK_PER_CALL, t_mark / rounds / (len / CHUNK));
	data_long(&dd, DK_LOST_NONVOLATILE_BYTES, lost_keep_bytes(self->keep));
	data_emit(&dd);

	EXPECT_EQ(NPAGES(len), intact);
	EXPECT_EQ(0, lost_keep_bytes(self->keep));
	if (variant->design == D_VRANGE) {
		EXPECT_EQ(0, purged | any_purged);
		EXPECT_EQ((long)len, query);
		EXPECT_EQ(1, vo);
		EXPECT_EQ(0, vmas1 - vmas0);	/* SPEC 4.3: merged back */
	}
	munmap(p, len);
}

TEST_F(scn, memcg_reclaim)
{
	NEED_DESIGN();
	NEED_MEMCG();
	pressure_scenario(_metadata, self, variant->design, P_RECLAIM,
			  "memcg_reclaim");
}

TEST_F(scn, memcg_limit)
{
	NEED_DESIGN();
	NEED_MEMCG();
	pressure_scenario(_metadata, self, variant->design, P_LIMIT,
			  "memcg_limit");
}

TEST_F(scn, madv_pageout)
{
	NEED_DESIGN();
	pressure_scenario(_metadata, self, variant->design, P_PAGEOUT,
			  "madv_pageout");
}

TEST_F_TIMEOUT(scn, global_pressure, 90)
{
	NEED_DESIGN();
	/* It fills all free memory: only in a small guest, never a host. */
	if (!getenv("VMAB_MODE") || meminfo_kb("MemTotal") > 4L << 20)
		SKIP(return, "not in a vmab guest of at most 4 GiB");
	pressure_scenario(_metadata, self, variant->design, P_GLOBAL,
			  "global_pressure");
}

/*
 * A write after marking: MADV_FREE keeps a written page (the write cancels
 * the discard for that page); a vrange stays volatile, written or not.
 */
TEST_F(scn, write_after_mark)
{
	size_t len = SMALL_LEN;
	long i, w_data = 0, w_zero = 0, u_data = 0, u_zero = 0;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "madv_pageout" };
	char *p;

	NEED_DESIGN();
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 300);
	ASSERT_EQ(0, mark(variant->design, p, len));
	/* Every even page gets new content after marking. */
	for (i = 0; i < NPAGES(len); i += 2)
		fill_pattern(p + i * PAGE_SZ, PAGE_SZ, 9000 + i);
	snap_take(self, variant->design, p, &s0);
	ASSERT_EQ(0, pageout(p, len));
	observe(_metadata, self, variant->design, p, len, 300, 9000, &s0, &o);
	for (i = 0; i < NPAGES(len); i++) {
		enum page_state st = page_state(p + i * PAGE_SZ, i,
						i % 2 ? 300 : 9000, 0);

		if (i % 2 == 0) {
			w_data += st == PG_DATA;
			w_zero += st == PG_ZERO;
		} else {
			u_data += st == PG_DATA;
			u_zero += st == PG_ZERO;
		}
	}
	obs_data(&dd, "write_after_mark", variant->design, &o);
	data_long(&dd, DK_WRITTEN_PAGES, NPAGES(len) / 2);
	data_long(&dd, DK_WRITTEN_KEPT, w_data);
	data_long(&dd, DK_WRITTEN_DISCARDED, w_zero);
	data_long(&dd, DK_UNWRITTEN_KEPT, u_data);
	data_long(&dd, DK_UNWRITTEN_DISCARDED, u_zero);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	/* Pages are either what they were last written with or zero. */
	EXPECT_EQ(NPAGES(len), w_data + w_zero + u_data + u_zero);
	if (variant->design == D_MADV_FREE) {
		EXPECT_EQ(NPAGES(len) / 2, w_data);
		EXPECT_GT(u_zero, 0);
	}
	munmap(p, len);
}

/*
 * A read after marking returns the data (no fault, no loss) and does not
 * take the page back: pressure may still discard it.
 */
TEST_F(scn, read_after_mark)
{
	size_t len = SMALL_LEN;
	long i, read_intact = 0;
	struct vmab_data dd;
	struct snap s0;
	struct obs o;
	char *p;

	NEED_DESIGN();
	o.pressure = self->have_cg ? "memcg_reclaim" : "madv_pageout";
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 400);
	ASSERT_EQ(0, mark(variant->design, p, len));
	for (i = 0; i < NPAGES(len); i++)
		read_intact += page_state(p + i * PAGE_SZ, i, 400, 0) == PG_DATA;
	snap_take(self, variant->design, p, &s0);
	/* memory.reclaim (unlike MADV_PAGEOUT) sees the pages as just read. */
	if (self->have_cg)
		memcg_reclaim(&self->cg, len);
	else
		ASSERT_EQ(0, pageout(p, len));
	observe(_metadata, self, variant->design, p, len, 400, 0, &s0, &o);
	obs_data(&dd, "read_after_mark", variant->design, &o);
	data_long(&dd, DK_READ_BEFORE_PRESSURE_INTACT, read_intact);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	EXPECT_EQ(NPAGES(len), read_intact);
	munmap(p, len);
}

/*
 * fork and COW: the child keeps a non-volatile mapping of the same pages;
 * the parent marks after the fork.  The child first writes the first half
 * (its own copies now), so those parent pages are mapped only by the
 * marked VMA; the second half stays shared.  A page also mapped by a
 * non-volatile VMA is never lost to that mapping (SPEC 4.3).  A second,
 * small region marked before the fork shows what the child inherits.
 */
struct fork_report {
	long child_lost_bytes;
	int child_inherits_vo;
};

TEST_F(scn, fork_cow)
{
	size_t len = SMALL_LEN, half = SMALL_LEN / 2;
	long i, z_own = 0, z_shared = 0;
	int to_child[2], to_parent[2], st;
	struct fork_report *rep;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "memcg_reclaim" };
	char *p, *pre, c;
	pid_t pid;

	NEED_DESIGN();
	NEED_MEMCG();
	p = map_anon(len);
	pre = map_anon(16 * PAGE_SZ);
	rep = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, pre);
	ASSERT_NE(MAP_FAILED, rep);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 500);
	fill_pages(pre, 16 * PAGE_SZ, 550);
	ASSERT_EQ(0, mark(variant->design, pre, 16 * PAGE_SZ));
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	rep->child_lost_bytes = -1;
	rep->child_inherits_vo = -1;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		long lost = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(to_parent[0]);
		close(to_child[1]);
		if (variant->design == D_VRANGE)
			rep->child_inherits_vo = smaps_has_flag(pre, "vo");
		redirty(p, half);	/* COW-break: the same bytes, new pages */
		if (write(to_parent[1], "r", 1) != 1 ||
		    read(to_child[0], &c, 1) != 1)
			_exit(1);
		for (i = 0; i < NPAGES(len); i++)
			if (page_state(p + i * PAGE_SZ, i, 500, 0) != PG_DATA)
				lost += PAGE_SZ;
		rep->child_lost_bytes = lost;
		_exit(0);
	}
	/* Only the child holds these ends now: its death is an EOF here. */
	close(to_parent[1]);
	close(to_child[0]);
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	ASSERT_EQ(0, mark(variant->design, p, len));
	snap_take(self, variant->design, p, &s0);
	reclaim_all(self, p, len, 3);
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));

	observe(_metadata, self, variant->design, p, len, 500, 0, &s0, &o);
	for (i = 0; i < NPAGES(len); i++) {
		if (range_is_zero(p + i * PAGE_SZ, PAGE_SZ)) {
			if (i < NPAGES(half))
				z_own++;
			else
				z_shared++;
		}
	}
	obs_data(&dd, "fork_cow", variant->design, &o);
	data_long(&dd, DK_CHILD_LOST_BYTES, rep->child_lost_bytes);
	if (variant->design == D_VRANGE)
		data_long(&dd, DK_CHILD_INHERITS_VOLATILE, rep->child_inherits_vo);
	data_long(&dd, DK_PARENT_DISCARDED_EXCLUSIVE, z_own);
	data_long(&dd, DK_PARENT_DISCARDED_SHARED, z_shared);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(0, rep->child_lost_bytes);
	if (variant->design == D_VRANGE)
		EXPECT_EQ(1, rep->child_inherits_vo);
	munmap(p, len);
	munmap(pre, 16 * PAGE_SZ);
	munmap(rep, PAGE_SZ);
}

/* Transparent huge pages in the marked range (SPEC 4.3, 5). */
TEST_F(scn, thp)
{
	size_t len = 2 * HPAGE_SZ;
	long thp_kb, thp_kb_marked;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "madv_pageout" };
	char *p;

	NEED_DESIGN();
	NEEDS(need_thp());
	p = map_anon_aligned(len, HPAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, madvise(p, len, MADV_HUGEPAGE));
	fill_pages(p, len, 600);
	thp_kb = smaps_field_kb(p, "AnonHugePages");
	/* The THPs stay; khugepaged must not collapse what reclaim split. */
	ASSERT_EQ(0, no_hugepage(p, len));
	ASSERT_EQ(0, mark(variant->design, p, len));
	thp_kb_marked = smaps_field_kb(p, "AnonHugePages");
	snap_take(self, variant->design, p, &s0);
	ASSERT_EQ(0, pageout(p, len));
	observe(_metadata, self, variant->design, p, len, 600, 0, &s0, &o);
	obs_data(&dd, "thp", variant->design, &o);
	data_long(&dd, DK_THP_KB, thp_kb);
	data_long(&dd, DK_THP_KB_AFTER_MARK, thp_kb_marked);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	EXPECT_GT(o.zero, 0);
	munmap(p, len);
}

/*
 * mremap: the first half is discarded before the move, the second after.
 * Volatility and purged pages move with the VMA.
 */
TEST_F(scn, mremap)
{
	size_t len = SMALL_LEN, half = SMALL_LEN / 2;
	long before_move, old_gone, vo = -1;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "madv_pageout" };
	unsigned char v;
	char *p, *dst, *q;

	NEED_DESIGN();
	p = map_anon(len);
	dst = map_anon(len);	/* a place to move to */
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, dst);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 700);
	ASSERT_EQ(0, mark(variant->design, p, len));
	ASSERT_EQ(0, pageout(p, half));
	before_move = nonresident_pages(p, half);
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ASSERT_EQ(dst, q);
	old_gone = mincore(p, PAGE_SZ, &v) == -1 && errno == ENOMEM;
	if (variant->design == D_VRANGE)
		vo = smaps_has_flag(q, "vo");
	snap_take(self, variant->design, q, &s0);
	ASSERT_EQ(0, pageout(q + half, half));
	observe(_metadata, self, variant->design, q, len, 700, 0, &s0, &o);
	obs_data(&dd, "mremap", variant->design, &o);
	data_long(&dd, DK_DISCARDED_BEFORE_MOVE, before_move);
	data_long(&dd, DK_OLD_ADDRESS_UNMAPPED, old_gone);
	if (variant->design == D_VRANGE)
		data_long(&dd, DK_SMAPS_VO_AFTER_MOVE, vo);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	EXPECT_EQ(1, old_gone);
	EXPECT_GT(o.zero, 0);
	if (variant->design == D_VRANGE)
		EXPECT_EQ(1, vo);
	munmap(q, len);
}

/*
 * mprotect: the second half is made read-only while marked (a VMA split),
 * pressure, then read-write again.  The whole range stays marked, and
 * vrange's VMAs merge back.
 */
TEST_F(scn, mprotect)
{
	size_t len = SMALL_LEN, half = SMALL_LEN / 2;
	long vmas0, vmas_split, vmas1, vo_ro = -1;
	int ro_sigbus = -1;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "madv_pageout" };
	char *p;

	NEED_DESIGN();
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 800);
	vmas0 = count_vmas();
	ASSERT_EQ(0, mark(variant->design, p, len));
	ASSERT_EQ(0, mprotect(p + half, half, PROT_READ));
	vmas_split = count_vmas();
	if (variant->design == D_VRANGE)
		vo_ro = smaps_has_flag(p + half, "vo");
	snap_take(self, variant->design, p, &s0);
	ASSERT_EQ(0, pageout(p, len));
	/* A read of the read-only half's last page. */
	ro_sigbus = sigbus_probe_read(p + len - PAGE_SZ);
	ASSERT_EQ(0, mprotect(p + half, half, PROT_READ | PROT_WRITE));
	observe(_metadata, self, variant->design, p, len, 800, 0, &s0, &o);
	vmas1 = count_vmas();
	obs_data(&dd, "mprotect", variant->design, &o);
	data_long(&dd, DK_VMAS_SPLIT, vmas_split - vmas0);
	data_long(&dd, DK_VMAS_DELTA_AFTER_UNMARK, vmas1 - vmas0);
	data_long(&dd, DK_READONLY_READ_SIGBUS, ro_sigbus);
	if (variant->design == D_VRANGE)
		data_long(&dd, DK_SMAPS_VO_READONLY_HALF, vo_ro);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	EXPECT_GT(o.zero, 0);
	if (variant->design == D_VRANGE) {
		EXPECT_EQ(1, vo_ro);
		EXPECT_EQ(0, vmas1 - vmas0);
	} else {
		EXPECT_EQ(0, ro_sigbus);
	}
	munmap(p, len);
}

/*
 * mlock after marking: locked pages stay in memory, so nothing may be
 * discarded while the lock holds, whatever the design does with the mark.
 */
TEST_F(scn, mlock_after_mark)
{
	size_t len = SMALL_LEN;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "memcg_reclaim" };
	int mlock_err;
	char *p;

	NEED_DESIGN();
	NEED_MEMCG();
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 900);
	ASSERT_EQ(0, mark(variant->design, p, len));
	mlock_err = mlock(p, len) ? errno : 0;
	snap_take(self, variant->design, p, &s0);
	reclaim_all(self, p, len, 2);
	if (!mlock_err)
		munlock(p, len);
	observe(_metadata, self, variant->design, p, len, 900, 0, &s0, &o);
	obs_data(&dd, "mlock_after_mark", variant->design, &o);
	data_long(&dd, DK_MLOCK_ERRNO, mlock_err);
	data_emit(&dd);

	check_obs(_metadata, variant->design, &o);
	if (!mlock_err)
		EXPECT_EQ(0, o.zero);
	munmap(p, len);
}

/*
 * The image cache: CACHE_OBJS objects of OBJ_LEN bytes, all marked
 * discardable while unused; pressure; then the cache takes each object
 * back, finds out whether it was lost and regenerates it.  An object the
 * cache keeps must be exactly what it stored: with vrange the purged flag
 * of a per-object NONVOLATILE says so; with MADV_FREE there is no flag, so
 * each page carries a canary and a "pin" word: writing the pin first makes
 * the page the cache's again (a discard after that is impossible), and the
 * canary read after it tells whether the page was discarded before.
 * The objects, their canaries and the oracle: lib/imgcache.h.
 */
/* MADV_FREE: pin every page, then read its canary; 1 if all survived. */
static int cache_take_back_canary(char *obj, long n)
{
	int ok = 1;
	long pg;

	for (pg = 0; pg < NPAGES(OBJ_LEN); pg++) {
		volatile uint64_t *hdr = (volatile uint64_t *)(obj + pg * PAGE_SZ);

		hdr[1] = 1;
		if (hdr[0] != cache_canary(n, pg))
			ok = 0;
	}
	for (pg = 0; pg < NPAGES(OBJ_LEN); pg++)
		((volatile uint64_t *)(obj + pg * PAGE_SZ))[1] = 0;
	return ok;
}

TEST_F(scn, image_cache)
{
	size_t len = CACHE_OBJS * OBJ_LEN;
	long n, pageout_objs = 0;
	struct cache_tally t = { 0 };
	uint64_t t0, ns_mark, ns_fetch;
	struct vmab_data dd;
	char *cache;
	int purged;

	NEED_DESIGN();
	cache = map_anon(len);
	ASSERT_NE(MAP_FAILED, cache);
	ASSERT_EQ(0, no_hugepage(cache, len));
	for (n = 0; n < CACHE_OBJS; n++)
		cache_build(cache + n * OBJ_LEN, n);

	/* All objects unused: the whole cache is marked at once. */
	t0 = now_ns();
	ASSERT_EQ(0, mark(variant->design, cache, len));
	ns_mark = now_ns() - t0;

	/* Pressure: every fourth object paged out, then the memcg shrunk. */
	for (n = 0; n < CACHE_OBJS; n += 4, pageout_objs++)
		ASSERT_EQ(0, pageout(cache + n * OBJ_LEN, OBJ_LEN));
	if (self->have_cg)
		memcg_reclaim(&self->cg, len / 2);

	t0 = now_ns();
	for (n = 0; n < CACHE_OBJS; n++) {
		char *obj = cache + n * OBJ_LEN;
		int lost;

		if (variant->design == D_VRANGE) {
			ASSERT_EQ(0, unmark_vrange(obj, OBJ_LEN, &purged));
			lost = purged;
		} else {
			lost = !cache_take_back_canary(obj, n);
		}
		cache_settle(obj, n, lost, &t);
	}
	ns_fetch = now_ns() - t0;	/* includes the oracle's check */

	cache_data(&dd, design_name(variant->design), self->have_cg ?
		   "madv_pageout+memcg_reclaim" : "madv_pageout",
		   variant->design == D_VRANGE ? "purged_flag" : "canary",
		   pageout_objs, &t, ns_fetch);
	data_long(&dd, DK_NS_MARK, ns_mark);
	data_long(&dd, DK_LOST_NONVOLATILE_BYTES, lost_keep_bytes(self->keep));
	data_emit(&dd);

	EXPECT_EQ(0, t.wrong);
	EXPECT_EQ(0, t.garbage);
	EXPECT_GE(t.regenerated, 1);	/* the paged-out objects at least */
	EXPECT_EQ(0, lost_keep_bytes(self->keep));
	munmap(cache, len);
}

/*
 * Both designs on the same memory (only where the kernel has both).  The
 * variant names the design applied first: "vrange" is MADV_FREE on a
 * volatile range, "madv_free" is vrange(VOLATILE) on lazily freed pages.
 * The defined outcome: while the range is volatile, a lost page is always
 * reported (purged flag on NONVOLATILE, SIGBUS on access), whichever
 * mechanism dropped it, and pgvrange_purged counts it: vrange's promise
 * holds.  NONVOLATILE cancels the pending MADV_FREE of the rest as a write
 * would (SPEC 4.4), so a second MADV_PAGEOUT after it loses nothing.
 */
TEST_F(scn, both_designs)
{
	size_t len = SMALL_LEN;
	int madv_err, vr_err;
	long later_zero = 0, i;
	struct vmab_data dd;
	struct snap s0;
	struct obs o = { .pressure = "madv_pageout" };
	char *p;

	NEED_DESIGN();
	if (!self->both)
		SKIP(return, "%s", variant->design == D_VRANGE ?
		     "CONFIG_MADV_FREE=n" : "CONFIG_VRANGE=n");
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, no_hugepage(p, len));
	fill_pages(p, len, 1000);
	if (variant->design == D_VRANGE) {
		vr_err = -mark(D_VRANGE, p, len);
		madv_err = -mark(D_MADV_FREE, p, len);
	} else {
		madv_err = -mark(D_MADV_FREE, p, len);
		vr_err = -mark(D_VRANGE, p, len);
	}
	ASSERT_EQ(0, vr_err);
	snap_take(self, D_VRANGE, p, &s0);
	ASSERT_EQ(0, pageout(p, len / 2));
	/* Judged as a vrange user would: NONVOLATILE and its flag. */
	observe(_metadata, self, D_VRANGE, p, len, 1000, 0, &s0, &o);
	/* Non-volatile again; is anything still lazily free? */
	ASSERT_EQ(0, pageout(p, len));
	for (i = 0; i < NPAGES(len); i++)
		later_zero += range_is_zero(p + i * PAGE_SZ, PAGE_SZ);
	later_zero -= o.zero;

	obs_data(&dd, "both_designs", variant->design, &o);
	data_str(&dd, DK_ORDER, variant->design == D_VRANGE ?
		 "vrange_then_madv_free" : "madv_free_then_vrange");
	data_long(&dd, DK_MADV_FREE_ERRNO, madv_err);
	data_long(&dd, DK_VRANGE_ERRNO, vr_err);
	data_long(&dd, DK_DISCARDED_AFTER_UNMARK, later_zero);
	data_emit(&dd);

	check_obs(_metadata, D_VRANGE, &o);
	/* SPEC 4.4: lazily free pages discarded while volatile are purged */
	EXPECT_LT(0, o.zero);
	if (o.counter_delta >= 0)
		EXPECT_EQ(o.zero, o.counter_delta);
	/* and NONVOLATILE cancelled the rest: nothing lost after it */
	EXPECT_EQ(0, later_zero);
	munmap(p, len);
}

TEST_HARNESS_MAIN
