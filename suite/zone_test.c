// SPDX-License-Identifier: GPL-2.0
/*
 * Zone-limited reclaim and design A's purge pass (issue 30, item 6).
 *
 * Reclaim for an allocation that cannot use every zone (sc->reclaim_idx
 * below the highest zone) must take nothing from the zones it may not use:
 * freeing a page there does not help the allocation.  Design A's purge
 * pass (vrange_isolate_folios(), vrange patch 6) skips a folio whose zone
 * is above sc->reclaim_idx, as the LRU scan does.
 *
 * This program runs only in a guest booted with movablecore= (suite/
 * zone.list, and its guest in matrix/variants.conf): user anon pages,
 * which prefer the highest zone, then sit in ZONE_MOVABLE, and the page
 * cache of a block device, which in 6.1 is GFP_USER (block/bdev.c), can
 * only use the zones below it.  The test
 *   0. reads the disk once with nothing volatile, so that kswapd takes a
 *      request for ZONE_MOVABLE that an earlier run may have left (see
 *      the test);
 *   1. writes VOL_PAGES pages, marks them volatile and checks from
 *      /proc/self/pagemap that every one is in ZONE_MOVABLE (its PFN in
 *      the zone's span from /proc/zoneinfo);
 *   2. reads the whole swap disk as a block device, more than the zones
 *      below ZONE_MOVABLE have free, so that reclaim runs with
 *      reclaim_idx below ZONE_MOVABLE (pgsteal_file moves), and asserts
 *      that pgvrange_purged moved by 0, that every volatile page is still
 *      there, that vrange(NONVOLATILE) says nothing was purged and that
 *      the data are intact;
 *   3. the control, which shows that step 2 could have failed: the same
 *      pages volatile again (not inherited by the hog: MADV_DONTFORK, as
 *      the pass leaves a page two processes map), then a hog that wants
 *      more than ZONE_MOVABLE
 *      has free (a movable allocation: reclaim_idx is ZONE_MOVABLE); the
 *      pass must purge (pgvrange_purged moves), and the pages that read
 *      zero after vrange(NONVOLATILE) are exactly that many.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/fs.h>

#include "kselftest_harness.h"
#include "vmab.h"

#define VOL_PAGES	(32768UL)		/* 128 MiB */
#define VOL_LEN		(VOL_PAGES * PAGE_SZ)
#define SEED		0x20e5
#define NO_A		"CONFIG_VRANGE=n"
/* What the disk must exceed the free memory below ZONE_MOVABLE by. */
#define OVERSHOOT_PAGES	(16384L)		/* 64 MiB */

/* One zone of node 0 in /proc/zoneinfo; -1 where the zone is absent. */
struct zone_view {
	long free, managed, start_pfn, spanned, anon, file, high, boost;
};

static void zone_view(const char *name, struct zone_view *z)
{
	char line[256], want[64];
	int in = 0;
	long v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	z->free = z->managed = z->start_pfn = z->spanned = -1;
	z->anon = z->file = z->high = z->boost = 0;
	if (!f)
		return;
	snprintf(want, sizeof(want), "Node 0, zone %8s", name);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Node ", 5) == 0) {
			in = strncmp(line, want, strlen(want)) == 0;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, " pages free %ld", &v) == 1)
			z->free = v;
		else if (sscanf(line, " managed %ld", &v) == 1)
			z->managed = v;
		else if (sscanf(line, " high %ld", &v) == 1)
			z->high = v;
		else if (sscanf(line, " boost %ld", &v) == 1)
			z->boost = v;
		else if (sscanf(line, " spanned %ld", &v) == 1)
			z->spanned = v;
		else if (sscanf(line, " start_pfn: %ld", &v) == 1)
			z->start_pfn = v;
		else if (sscanf(line, " nr_zone_%*[a-z]_anon %ld", &v) == 1)
			z->anon += v;
		else if (sscanf(line, " nr_zone_%*[a-z]_file %ld", &v) == 1)
			z->file += v;
	}
	fclose(f);
}

/* Free pages of node 0's zones below ZONE_MOVABLE (DMA, DMA32, Normal). */
static long free_below_movable(void)
{
	static const char *const low[] = { "DMA", "DMA32", "Normal" };
	struct zone_view z;
	long sum = 0;
	size_t i;

	for (i = 0; i < sizeof(low) / sizeof(low[0]); i++) {
		zone_view(low[i], &z);
		if (z.free > 0)
			sum += z.free;
	}
	return sum;
}

/*
 * Of the pages of [p, p + VOL_LEN): how many are present (*present) and
 * how many of those have a PFN inside z's span (the return value), or -1
 * if pagemap cannot be read (PFNs need CAP_SYS_ADMIN).
 */
static long pages_in_zone(const void *p, const struct zone_view *z, long *present)
{
	uint64_t *pm = malloc(VOL_PAGES * sizeof(*pm));
	off_t off = (uintptr_t)p / PAGE_SZ * sizeof(*pm);
	long in = 0;
	size_t i;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	*present = 0;
	if (fd < 0 || !pm ||
	    pread(fd, pm, VOL_PAGES * sizeof(*pm), off) != (ssize_t)(VOL_PAGES * sizeof(*pm))) {
		if (fd >= 0)
			close(fd);
		free(pm);
		return -1;
	}
	close(fd);
	for (i = 0; i < VOL_PAGES; i++) {
		uint64_t e = pm[i], pfn = e & ((1ULL << 55) - 1);

		if (!(e >> 63))
			continue;
		(*present)++;
		if (pfn >= (uint64_t)z->start_pfn && pfn < (uint64_t)(z->start_pfn + z->spanned))
			in++;
	}
	free(pm);
	return in;
}

static long disk_pages(void)
{
	uint64_t bytes = 0;
	int fd = open(FILECACHE_DEV, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		bytes = 0;
	close(fd);
	return bytes ? (long)(bytes / PAGE_SZ) : -1;
}

/* The /proc/vmstat events each step reports, as deltas. */
static const char *const events[] = {
	"pgvrange_purged", "pgsteal_file", "pgsteal_anon", "pgsteal_kswapd",
	"pgsteal_direct", "allocstall_normal", "allocstall_movable", "pswpout",
	"pageoutrun", "compact_stall", "kswapd_low_wmark_hit_quickly",
};
#define NR_EVENTS	(sizeof(events) / sizeof(events[0]))
enum { E_PURGED, E_STEAL_FILE, E_STEAL_ANON };

static void events_now(long *v)
{
	size_t i;

	for (i = 0; i < NR_EVENTS; i++)
		v[i] = vmstat_get(events[i]);
}

/* v becomes the deltas since v; their line into buf. */
static void events_since(long *v, char *buf, size_t len)
{
	long now[NR_EVENTS];
	size_t i, at = 0;

	events_now(now);
	for (i = 0; i < NR_EVENTS; i++) {
		v[i] = now[i] - v[i];
		at += snprintf(buf + at, len - at, "%s%s +%ld", i ? ", " : "", events[i], v[i]);
		if (at >= len)
			break;
	}
}

static void log_zones(struct __test_metadata *_metadata, const char *when)
{
	struct zone_view mov, low;

	zone_view("Movable", &mov);
	zone_view("DMA32", &low);
	TH_LOG("%s: ZONE_MOVABLE %ld free of %ld (anon %ld, file %ld, high %ld, boost %ld), "
	       "ZONE_DMA32 %ld free of %ld (anon %ld, file %ld, high %ld, boost %ld)", when,
	       mov.free, mov.managed, mov.anon, mov.file, mov.high, mov.boost,
	       low.free, low.managed, low.anon, low.file, low.high, low.boost);
}

FIXTURE(zone) {
	char *p;
	pid_t hog;
};

FIXTURE_SETUP(zone)
{
	self->p = MAP_FAILED;
	self->hog = -1;
}

FIXTURE_TEARDOWN(zone)
{
	stop_hog(self->hog);
	if (self->p != MAP_FAILED)
		munmap(self->p, VOL_LEN);
}

VMAB_NEEDS("zone.*", "vrange,CONFIG_SWAP,CONFIG_VM_EVENT_COUNTERS");

TEST_F_TIMEOUT(zone, vrange_purge_keeps_to_eligible_zones, 300)
{
	struct zone_view mov;
	long disk, low_free, in, present, hog_pages, lost, ev[NR_EVENTS];
	int purged = -1, got = 0;
	char line[512];

	if (!vrange_supported())
		SKIP(return, NO_A);
	NEEDS(need_file_pages());
	if (vmstat_get("pgvrange_purged") < 0 || vmstat_get("pgsteal_file") < 0)
		SKIP(return, "needs CONFIG_VM_EVENT_COUNTERS (no pgvrange_purged in /proc/vmstat)");
	pin_to_cpu0();

	zone_view("Movable", &mov);
	TH_LOG("ZONE_MOVABLE: pfn %ld + %ld", mov.start_pfn, mov.spanned);
	log_zones(_metadata, "start");
	ASSERT_GT(mov.managed, (long)VOL_PAGES * 4) {
		TH_LOG("no ZONE_MOVABLE big enough: this guest must boot with movablecore= "
		       "(suite/zone.list)");
	}

	/*
	 * 0. kswapd's pending request first.  A wakeup records the highest
	 * zone it asks for in pgdat->kswapd_highest_zoneidx only if that is
	 * above the one already pending; kswapd takes and clears it when it
	 * wakes.  A movable allocation under pressure (step 3 of the run
	 * before, in another mode) can leave ZONE_MOVABLE pending, and the
	 * next wakeup, for a DMA32 pageblock steal that boosted DMA32's
	 * watermark, then runs a boosted kswapd reclaim with reclaim_idx
	 * ZONE_MOVABLE: its one kswapd_shrink_node() purged 5122 pages
	 * (ZONE_MOVABLE's high watermark 4051 + ZONE_DMA32's 559 + the
	 * 512-page boost) in 5 of 13 runs without this step (each a run
	 * after one with a step 3; 0 of 6 with it, 2026-12-08).  That
	 * reclaim may take from ZONE_MOVABLE, so it is no case of this
	 * test: a first read of the disk, with nothing volatile yet, lets
	 * kswapd take whatever is pending, and is dropped again.
	 */
	ASSERT_EQ(0, filecache_fill((size_t)disk_pages() * PAGE_SZ));
	ASSERT_EQ(0, filecache_drop());

	/*
	 * 1. The volatile pages, every one in ZONE_MOVABLE.  Not inherited
	 * by the hog of step 3: a page that two processes map is not the
	 * pass's to purge.
	 */
	self->p = map_anon(VOL_LEN);
	ASSERT_NE(MAP_FAILED, self->p);
	ASSERT_EQ(0, no_hugepage(self->p, VOL_LEN));
	ASSERT_EQ(0, madvise(self->p, VOL_LEN, MADV_DONTFORK));
	fill_pages(self->p, VOL_LEN, SEED);
	ASSERT_EQ((long)VOL_LEN, sys_vrange((unsigned long)self->p, VOL_LEN, VRANGE_VOLATILE, NULL));
	in = pages_in_zone(self->p, &mov, &present);
	ASSERT_EQ((long)VOL_PAGES, present);
	ASSERT_EQ((long)VOL_PAGES, in);

	/* 2. Pressure that may not take from ZONE_MOVABLE. */
	ASSERT_EQ(0, filecache_drop());
	log_zones(_metadata, "before the read");
	disk = disk_pages();
	low_free = free_below_movable();
	TH_LOG("disk %ld pages, free below ZONE_MOVABLE %ld pages", disk, low_free);
	ASSERT_GT(disk, low_free + OVERSHOOT_PAGES) {
		TH_LOG("the disk must be bigger than the free memory below ZONE_MOVABLE: "
		       "a bigger movablecore=");
	}
	events_now(ev);
	ASSERT_EQ(0, filecache_fill((size_t)disk * PAGE_SZ));
	events_since(ev, line, sizeof(line));
	zone_view("Movable", &mov);
	in = pages_in_zone(self->p, &mov, &present);
	TH_LOG("zone-limited pressure (the disk read): %s", line);
	TH_LOG("%ld of %lu volatile pages present, %ld in ZONE_MOVABLE", present, VOL_PAGES, in);
	log_zones(_metadata, "after the read");
	/* The reclaim happened, below ZONE_MOVABLE ... */
	ASSERT_GT(ev[E_STEAL_FILE], 0);
	/* ... and purged nothing. */
	ASSERT_EQ(0, ev[E_PURGED]);
	ASSERT_EQ((long)VOL_PAGES, present);
	ASSERT_EQ((long)VOL_PAGES, in);
	ASSERT_EQ((long)VOL_LEN, sys_vrange((unsigned long)self->p, VOL_LEN, VRANGE_NONVOLATILE, &purged));
	ASSERT_EQ(0, purged);
	ASSERT_EQ(-1, first_changed_page(self->p, VOL_LEN, SEED));

	/* 3. The control: pressure on ZONE_MOVABLE purges the same pages. */
	ASSERT_EQ((long)VOL_LEN, sys_vrange((unsigned long)self->p, VOL_LEN, VRANGE_VOLATILE, NULL));
	zone_view("Movable", &mov);
	hog_pages = mov.free + OVERSHOOT_PAGES;
	events_now(ev);
	self->hog = start_hog((size_t)hog_pages * PAGE_SZ, &got);
	ASSERT_EQ(1, got);
	log_zones(_metadata, "with the hog");
	stop_hog(self->hog);
	self->hog = -1;
	ASSERT_EQ((long)VOL_LEN, sys_vrange((unsigned long)self->p, VOL_LEN, VRANGE_NONVOLATILE, &purged));
	/* After the unmarking: kswapd may purge on after the hog has its memory. */
	events_since(ev, line, sizeof(line));
	lost = changed_pages(self->p, VOL_LEN, SEED);
	TH_LOG("unrestricted pressure (a hog of %ld pages): %s", hog_pages, line);
	TH_LOG("vrange(NONVOLATILE): purged %d, %ld pages lost", purged, lost);
	ASSERT_GT(ev[E_PURGED], 0);
	ASSERT_EQ(1, purged);
	ASSERT_EQ(ev[E_PURGED], lost);
}

TEST_HARNESS_MAIN
