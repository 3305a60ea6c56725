/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The designs, guest side: the one place that knows them.
 *
 *   A  vrange      vrange(VOLATILE) gives memory back, vrange(NONVOLATILE)
 *                  takes it again and says whether anything was purged
 *                  (SPEC 4).
 *   B  madv_free   madvise(MADV_FREE) gives it back, a write to a page takes
 *                  that page again; a lost page reads zero, unannounced, so
 *                  its user checks a cookie in every page (SPEC 5).
 *   C  droppable   an mmap(MAP_DROPPABLE | MAP_ANONYMOUS) mapping is given
 *                  back from the start and can never be taken again: reclaim
 *                  may drop any page of it at any time, dirty or not, and
 *                  the page then reads zero; its user checks a cookie too
 *                  (SPEC 5.1).
 *
 * Each program takes the designs from here instead of declaring them
 * itself: it loops over designs[] (bench_discardable), uses
 * DESIGN_VARIANTS() in a kselftest-harness fixture (reclaim_test's rcl),
 * or names the designs it runs by id beside its own controls (dontneed,
 * keep, none) and says in a comment why the others are not runs of it
 * (bench_churn, bench_mark, bench_oom, bench_pressure, scenario_test).
 * A fourth design then touches this module, lib_test.c, the tests of its
 * own, and only those runs that choose to time it.
 * The name is what the "# @data" records carry as DK_DESIGN, what test
 * names carry, the short name a test that needs the design declares
 * (VMAB_NEEDS, lib/needs.h) and what matrix/lib/VMAB/Designs.pm keys its
 * titles by.
 */
#ifndef VMAB_DESIGNS_H
#define VMAB_DESIGNS_H

#include <stddef.h>
#include <stdint.h>

/* Design C's ABI (mainline 6.11 include/uapi/linux/mman.h), for 6.1's headers. */
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif

enum design_id { DESIGN_VRANGE, DESIGN_MADV_FREE, DESIGN_DROPPABLE, DESIGN_NR };

/* How a design's user learns that it lost a page. */
enum design_loss {
	LOSS_PURGED_FLAG,	/* the take-back call says so (A's *purged) */
	LOSS_COOKIE,		/* nothing says so: a cookie per page, checked */
};

struct design_def {
	enum design_id id;
	const char *name;	/* "vrange", "madv_free", "droppable" */
	const char *letter;	/* "A", "B", "C" */
	const char *kconfig;	/* the option that builds it */
	/* Why a test of it skips where the kernel lacks it (names kconfig). */
	const char *absent;
	/*
	 * /proc/vmstat (and memory.stat) events: pages reclaim took from it,
	 * and pages given back (NULL: no event counts them).  C has neither.
	 * Mainline 6.11 adds no counter for it, and its dropped pages are
	 * counted by none: a droppable folio is anon without PG_swapbacked,
	 * so shrink_folio_list() would count it in pglazyfreed as it counts
	 * B's, but only a clean one gets there; try_to_unmap_one() drops a
	 * dirty one (what every written droppable page is) and marks the
	 * folio dirty, shrink_folio_list() then takes it for a dirty file-LRU
	 * folio and activates it, and the putback frees it, unmapped, counted
	 * neither in pglazyfreed nor as reclaimed.  (Linux 6.18 does the
	 * same: pglazyfreed moves by 0 when MADV_PAGEOUT drops 1024 written
	 * droppable pages.)  C's users count drops by mincore() or content.
	 */
	const char *counter_discarded;
	const char *counter_given_back;
	enum design_loss loss;
	/*
	 * A write to a page takes it back (B): a user that checks cookies
	 * must check with a write, cookie_take_back(); else (C, whose pages
	 * stay droppable whatever is written) a read, cookie_lost().
	 */
	int writes_take_back;
	/* take_back() keeps the pages from then on (A, B; not C). */
	int keeps_taken_back;
	/*
	 * Reclaim counts what it takes of this design as reclaimed (A, B).
	 * C's written pages are dropped uncounted (Linux 6.11 frees them on
	 * the putback, as dirty folios of the file LRU), so a reclaim of a
	 * given size goes on to other memory after taking them.
	 */
	int reclaim_counts_it;
	/* The kernel has it (probed, not taken from the variant's name). */
	int (*supported)(void);
	/* A mapping of len bytes its memory lives in, or MAP_FAILED. */
	void *(*map)(size_t len);
	/*
	 * Give [p, p+len) back: 0 or -errno.  C has nothing to call: its
	 * mapping is given back from the start.
	 */
	int (*give_back)(void *p, size_t len);
	/*
	 * Take [p, p+len) again, keeping what is still there: 0 or -errno.
	 * *purged (if not NULL) is the kernel's answer for LOSS_PURGED_FLAG,
	 * else 0: the caller must look (cookie_*()).  B writes every page (an
	 * atomic add of 0: a write that cancels its pending free and changes
	 * nothing); C can take nothing back, its pages stay droppable.
	 */
	int (*take_back)(void *p, size_t len, int *purged);
};

extern const struct design_def designs[DESIGN_NR];

/* NULL when this kernel has design id, else why its tests skip. */
const char *design_absent(enum design_id id);
/* The design of that name, or NULL. */
const struct design_def *design_by_name(const char *name);

/* Design C's mapping: private anonymous, droppable. */
void *map_droppable(size_t len);
int map_droppable_supported(void);	/* mmap(MAP_DROPPABLE) is not EINVAL */

/*
 * A cookie per page, how a user of B or C learns what it lost: the first
 * 8 bytes of every page of [p, p+len).  cookie_write() writes it;
 * cookie_lost() counts the pages that no longer hold it (reads only);
 * cookie_take_back() does, for each page, an atomic compare-and-swap of
 * the cookie with itself: a write (which cancels B's pending free) that
 * happens only if the page still holds it, so a page dropped between the
 * check and the write is counted, never half-rewritten.  The cookie must
 * not be 0, what a dropped page reads.
 */
void cookie_write(void *p, size_t len, uint64_t cookie);
long cookie_lost(const void *p, size_t len, uint64_t cookie);
long cookie_take_back(void *p, size_t len, uint64_t cookie);

/*
 * One kselftest-harness variant per design: FIXTURE_VARIANT(f) must have
 * "enum design_id design;" and DESIGN_VARIANTS(f) adds f.vrange,
 * f.madv_free and f.droppable.
 */
#define DESIGN_VARIANTS(f)						\
	FIXTURE_VARIANT_ADD(f, vrange) { .design = DESIGN_VRANGE };	\
	FIXTURE_VARIANT_ADD(f, madv_free) { .design = DESIGN_MADV_FREE }; \
	FIXTURE_VARIANT_ADD(f, droppable) { .design = DESIGN_DROPPABLE }

#endif /* VMAB_DESIGNS_H */
