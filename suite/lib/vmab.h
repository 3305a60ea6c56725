/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by every in-guest test and benchmark program.
 *
 * The guest's /init (suite/init.sh) sets the run-time mode up before it
 * starts a program and exports what it set: VMAB_SWAP (on or off) and
 * VMAB_LRU (classic or mglru), read by vmab_mode_has_swap() and
 * vmab_mode_is_mglru(); VMAB_MODE is the mode's name ("swap-classic"...),
 * for messages only.  VMAB_VARIANT names the kernel variant.
 */
#ifndef VMAB_H
#define VMAB_H

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "data.h"
#include "designs.h"
#include "imgcache.h"
#include "kaccess.h"
#include "knob.h"
#include "needs.h"
#include "prng.h"
#include "sigbus.h"
#include "size.h"
#include "stats.h"

/* Design A ABI (SPEC 4.1); defined here so tests build without the uapi. */
#ifndef __NR_vrange
#define __NR_vrange 472
#endif
#ifndef VRANGE_NONVOLATILE
#define VRANGE_NONVOLATILE 0
#define VRANGE_VOLATILE 1
#define VRANGE_QUERY 2
#endif

/* Design B ABI (SPEC 5) and friends, for older libc headers. */
#ifndef MADV_FREE
#define MADV_FREE 8
#endif
#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGE_SZ 4096UL
#define HPAGE_SZ (2UL << 20)

static inline long sys_vrange(unsigned long start, size_t len, int mode,
			      int *purged)
{
	return syscall(__NR_vrange, start, len, mode, purged);
}

/* Run-time mode, from the environment /init gives each program. */
const char *vmab_mode(void);
const char *vmab_variant(void);
int vmab_mode_has_swap(void);	/* VMAB_SWAP=on: a swap device is active */
int vmab_mode_is_mglru(void);	/* VMAB_LRU=mglru: lru_gen/enabled is on */

/* Which designs this kernel has (probed, not taken from the variant name). */
int vrange_supported(void);	/* vrange() is not ENOSYS */
int madv_free_supported(void);	/* MADV_FREE on private anon is not EINVAL */

/* Counters.  Each returns -1 when the name is absent. */
long vmstat_get(const char *name);		/* /proc/vmstat */
/*
 * Fold every CPU's pending deltas into the global vmstat counters
 * (/proc/sys/vm/stat_refresh), so that the next vmstat_get() or
 * meminfo_kb() of a gauge is exact.  0 or -errno.
 */
int vmstat_refresh(void);
long meminfo_kb(const char *name);		/* /proc/meminfo, "Name:" */
long swap_used_kb(void);			/* SwapTotal - SwapFree */
/*
 * 1 if kswapd has given up on a node (/proc/zoneinfo node_unreclaimable:
 * MAX_RECLAIM_RETRIES runs that reclaimed nothing; only a direct reclaim
 * that reclaims something wakes it again), 0 if on none.
 */
long kswapd_gave_up(void);

/*
 * A child that writes len bytes of its own (MADV_POPULATE_WRITE) and then
 * waits to be killed, the OOM killer's first choice (oom_score_adj 1000).
 * *got is 1 once it holds all its memory, 0 if it died before.  -1 if
 * fork() failed.  stop_hog() kills and reaps it (pid <= 0: nothing).
 */
pid_t start_hog(size_t len, int *got);
void stop_hog(pid_t pid);
/*
 * A child that marks len bytes volatile that it never writes, and waits to
 * be killed (stop_hog()): while it lives, some volatile VMA exists, so
 * design A's reclaim runs its purge pass (without one it skips the pass,
 * and what the pass costs others is not seen).  *got as for start_hog().
 */
pid_t start_volatile_holder(size_t len, int *got);
/*
 * Global pressure without filling memory (slow under TCG): min_free_kbytes
 * such that the low watermark is 16 MiB below MemFree, so that a 32 MiB
 * hog wakes kswapd with a target out of reach while allocations stay
 * above min.  The value set (knob_restore_all() puts it back), or -1 if
 * MemFree is 64 MiB or less or the knob cannot be set.
 */
long squeeze_free_memory(void);

/* Memory helpers. */
void *map_anon(size_t len);			/* private anon, MAP_FAILED on error */
void *map_anon_aligned(size_t len, size_t align);	/* for THP tests */
/* The aligned len bytes of a mapping of len + align bytes; the rest unmapped. */
void *trim_to_alignment(void *mapping, size_t len, size_t align);
void fill_pattern(void *p, size_t len, unsigned int seed);
/* Byte offset of the first byte that differs from the pattern, or -1. */
long check_pattern(const void *p, size_t len, unsigned int seed);
/* Page i of [p, p+len) gets the pattern of seed + i: pages judged one by one. */
void fill_pages(void *p, size_t len, unsigned int seed);
/* Index of the first page that lost what fill_pages() wrote, or -1. */
long first_changed_page(const void *p, size_t len, unsigned int seed);
long changed_pages(const void *p, size_t len, unsigned int seed); /* how many */
/* The bytes of [p, p+len) that are not what fill_pages(seed) wrote. */
long changed_bytes(const void *p, size_t len, unsigned int seed);
int range_is_zero(const void *p, size_t len);
void touch_read(const void *p, size_t len);	/* read one byte per page */
void touch_write(void *p, size_t len);		/* write one byte per page */
/*
 * Run on CPU 0 only, so that the per-CPU LRU batches new pages pass
 * through are drained by the reclaim or lru_add_drain() this task starts.
 */
void pin_to_cpu0(void);
/*
 * madvise(MADV_PAGEOUT) once on every CPU this task may run on, in turn:
 * each call first drains its own CPU's LRU batch (lru_add_drain()), so a
 * page faulted in on another CPU, still in that CPU's batch, is paged out
 * too (one call pages out only what is on the LRU).  0, or -1 with errno.
 */
int pageout(void *p, size_t len);
/*
 * pageout() until no page of [p, p+len) is resident, or 10 s passed: the
 * pages not resident, or -errno.  One pageout() leaves a page that someone
 * holds at that moment (isolated by kswapd, khugepaged or MGLRU's aging,
 * locked, under writeback): under TCG, with two guests on two host cores,
 * 20 tries 20 ms apart were not always enough (252, 246 and 243 of 256,
 * 2026-12-07).
 */
long pageout_all(void *p, size_t len);
/* Pages of [p, p+len) that mincore(2) reports resident, or -1. */
long resident_pages(const void *p, size_t len);
long nonresident_pages(const void *p, size_t len);	/* the others, or -1 */
int count_vmas(void);				/* lines of /proc/self/maps */
/* VmFlags of the smaps entry containing addr has the two-letter flag. */
int smaps_has_flag(const void *addr, const char *flag);
long smaps_field_kb(const void *addr, const char *field);	/* e.g. "AnonHugePages" */
int thp_enabled(void);				/* THP is available in this kernel */
/*
 * MADV_NOHUGEPAGE on [p, p+len) where the kernel has THP; without
 * CONFIG_TRANSPARENT_HUGEPAGE there is nothing to turn off (and madvise
 * would say EINVAL): 0 there.  0 or -errno.
 */
int no_hugepage(void *p, size_t len);
/*
 * khugepaged scanning every 10 ms instead of every 10 s, and trying again
 * 10 ms (not 60 s) after it failed to allocate a huge page, for a test
 * that needs it to look at a range now: khugepaged_fast() sets both as
 * knobs (knob.h: knob_restore_all() puts them back) and returns 0, or
 * -errno.  khugepaged_wait(p, event, since, secs) waits until the
 * /proc/vmstat event has passed since (thp_collapse_alloc: a collapse was
 * tried) or the PMD at p is a THP: 1, or 0 after secs seconds.
 */
int khugepaged_fast(void);
int khugepaged_wait(const void *p, const char *event, long since, int secs);

/* The hugetlb pool (CONFIG_HUGETLBFS), a knob some tests set. */
#define NR_HUGEPAGES "/proc/sys/vm/nr_hugepages"

/*
 * ksmd scanning 1000 pages every 10 ms, for a test that needs it to merge
 * now: ksm_fast() sets both as knobs (knob.h) and returns 0 or -errno;
 * ksm/run is the test's to set.  ksm_wait_scans(n) waits until ksmd has
 * finished n more full scans: 0, or -1 after 120 s.
 */
#define KSM_DIR "/sys/kernel/mm/ksm/"
int ksm_fast(void);
int ksm_wait_scans(int n);

/*
 * A private cgroup v2 memory cgroup for one test.  memcg_create() makes
 * /sys/fs/cgroup/vmab-<tag>-<pid>; memcg_enter() moves the caller in.
 * All return 0 or -errno.
 */
struct memcg {
	char path[256];
};
int memcg_available(void);
int memcg_create(struct memcg *cg, const char *tag);
int memcg_enter(const struct memcg *cg);
int memcg_leave(void);				/* back to the root cgroup */
int memcg_destroy(struct memcg *cg);
int memcg_write(const struct memcg *cg, const char *file, const char *val);
/* memory.reclaim: -EAGAIN only means "not all of it could be reclaimed". */
int memcg_reclaim(const struct memcg *cg, size_t bytes);
long memcg_stat(const struct memcg *cg, const char *key);	/* memory.stat */
/*
 * memory.stat is flushed lazily (at most ~2 s late in 6.1): read key until
 * it is want, at most 6 s, and return the last value read.
 */
long memcg_stat_wait(const struct memcg *cg, const char *key, long want);
long memcg_read_long(const struct memcg *cg, const char *file);
/*
 * A child of this process in a new cgroup (tag as for memcg_create())
 * whose memory cannot be swapped (memory.swap.max 0, or no swap at all)
 * fills len bytes with fill_pages(seed); then memory.reclaim of that size
 * and memory.max 1M.  1 if the OOM killer killed the child, 0 if it died
 * otherwise, -1 if the OOM could not be set up.  *ns (if not NULL): from
 * memory.reclaim to the child's death; *scan: the pgscan_anon delta (0
 * where the counter is absent).
 */
int noswap_oom(const char *tag, size_t len, unsigned int seed, uint64_t *ns, long *scan);

/*
 * The optional mm features (SPEC 3: every design builds and works without
 * them; the `lean` variant has none of them).  Each need_*() looks at the
 * running kernel and returns NULL when the feature is there, else the
 * reason a test that needs it skips with, naming the Kconfig option, e.g.
 * "needs CONFIG_TRANSPARENT_HUGEPAGE (no /sys/kernel/mm/transparent_hugepage)".
 * NEEDS(need_thp()) in a kselftest-harness test (or fixture setup) skips
 * with that reason.  memcg_available() is need_memcg() == NULL.
 */
const char *need_thp(void);		/* CONFIG_TRANSPARENT_HUGEPAGE */
const char *need_ksm(void);		/* CONFIG_KSM */
const char *need_memcg(void);		/* CONFIG_MEMCG, enabled in the root */
const char *need_lru_gen(void);		/* CONFIG_LRU_GEN (MGLRU) */
/* The first of n reasons (each a need_*() or design_absent()) that is not NULL. */
const char *first_need(int n, ...);
#define NEEDS(why_expr) do {					\
	const char *vmab_why_ = (why_expr);			\
								\
	if (vmab_why_)						\
		SKIP(return, "%s", vmab_why_);			\
} while (0)

/*
 * Reclaimable file pages (lib/filecache.c): the guest's root is an
 * initramfs, whose files are never reclaimed as file pages, so the page
 * cache of the swap disk read as a block device stands in for them (in a
 * mode without swap the disk is idle; in one with swap, reading its page
 * cache does not touch what swap writes).  filecache_fill(len) reads its
 * first len bytes, charged to the caller's memory cgroup where they were
 * not cached yet; filecache_drop() drops what is cached of it
 * (POSIX_FADV_DONTNEED), so that the next fill charges the caller's
 * cgroup again.  Both 0 or -errno.  The device stays open in the caller
 * from the first call on: its last close would drop its page cache.
 * need_file_pages(): NULL when the disk is there, else why a test that
 * needs it skips.
 */
#define FILECACHE_DEV "/dev/vda"
const char *need_file_pages(void);
int filecache_fill(size_t len);
int filecache_drop(void);

/* The number after "key<sep>" in a file of such lines, or -1. */
long keyed_value(const char *path, const char *key, char sep);
/* Write a string to a file (sysfs, procfs); 0 or -errno. */
int write_file(const char *path, const char *val);
/* Read a file into buf (NUL terminated); bytes read or -errno. */
long read_file(const char *path, char *buf, size_t len);

/* Monotonic time in nanoseconds. */
uint64_t now_ns(void);

/*
 * Monotonic nanoseconds fine enough to time one system call.  Under TCG the
 * guest's clocksource watchdog marks the TSC unstable a few seconds after
 * boot and falls back to refined-jiffies, a 4 ms tick, so now_ns() cannot
 * time a 10 us call.  On x86 fine_ns() reads the TSC (QEMU derives it from
 * the host's), scaled by a calibration against CLOCK_MONOTONIC over ~200 ms
 * from tick edge to tick edge on the first call (make that call before
 * starting threads); elsewhere it is now_ns().  fine_clock_name() says
 * which: "tsc-calibrated" or "monotonic".
 */
uint64_t fine_ns(void);
const char *fine_clock_name(void);

#endif /* VMAB_H */
