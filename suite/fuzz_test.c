// SPDX-License-Identifier: GPL-2.0
/*
 * A syscall fuzzer for vrange() (SPEC 4.1, 4.2) and madvise() (SPEC 5),
 * with an oracle: the inputs no hand-written test thinks of.
 *
 *   fuzz_test [-n CALLS] [-s SEED] [-t MAX_SECONDS]
 *
 * CALLS (default 120000, env VMAB_FUZZ_CALLS) are split about evenly
 * between vrange() and madvise().  SEED (env VMAB_FUZZ_SEED; default from
 * the clock) drives a splitmix64 PRNG; it is printed first, and the same
 * seed replays the same calls on the same kernel (addresses differ by
 * ASLR, the layout relative to the arena does not).
 *
 * The fuzzer owns an arena of ARENA_PAGES pages between two guard pages
 * (MAP_SHARED|MAP_ANONYMOUS, PROT_NONE: refused by both designs, so no
 * walk that starts in the arena ever leaves it).  Every EPOCH calls it
 * lays the arena out again as runs of pages of random kinds: holes,
 * private anon read-write, read-only and PROT_NONE, private file, shared
 * anon, shared file, mlock()ed, mlock2(MLOCK_ONFAULT)ed.  The oracle
 * knows every page's kind and whether it is volatile, so for each call it
 * computes the exact result or errno, walking the range page by page as
 * the documented rules say:
 *
 *  vrange:  unaligned start, len 0 or unaligned, overflow, end past
 *           TASK_SIZE, bad mode -> EINVAL; unwritable purged -> EFAULT;
 *           then pages in order: a hole stops (ENOMEM if first), a
 *           refused mapping stops (EINVAL if first; locked memory is
 *           refused only by VRANGE_VOLATILE); else the bytes
 *           processed (QUERY: the bytes volatile).
 *  madvise: 6.1's do_madvise(): bad advice, unaligned start, len rounding
 *           to 0 or overflowing -> EINVAL; len 0 -> 0; then pages in
 *           order: a refused mapping -> EINVAL at once, a hole -> ENOMEM
 *           at the end, else 0.
 *
 * Where the documentation leaves the order of two errors open (EINVAL
 * from the arguments and EFAULT from purged; ENOMEM or EINVAL from the
 * walk and EFAULT), either is accepted and the call is counted as
 * "ambiguous".  Besides the arena, calls go to kernel and non-canonical
 * addresses, the empty low and high ends of the address space, [vvar]
 * (VM_PFNMAP) and [vdso], a hugetlb page when one can be had, and purged
 * pointers that are NULL, valid, read-only, PROT_NONE, unmapped, in the
 * kernel, or straddle into an unwritable page.  Between calls the fuzzer
 * mprotect()s arena runs (volatility must survive) and, at the end of an
 * epoch, checks that every non-volatile read-write page still holds its
 * pattern (or zeros, if MADV_FREE was applied to it).
 *
 * With no pressure nothing is purged, so *purged must come back 0; a 1 is
 * counted ("purged_seen") and still accepted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ksft_named.h"
#include "vmab.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif

#define ARENA_PAGES	64
#define EPOCH		256
#define MAX_REPORTS	25

/* Page kinds.  GUARD is the shared PROT_NONE page at either end. */
enum kind {
	K_HOLE, K_ANON_RW, K_ANON_RO, K_ANON_NONE, K_FILE_PRIV, K_SHARED_ANON,
	K_SHARED_FILE, K_LOCKED, K_LOCKONFAULT, K_NKINDS, K_GUARD = K_NKINDS,
};
static const char *const kind_name[] = {
	"hole", "anon-rw", "anon-ro", "anon-none", "file-private",
	"shared-anon", "shared-file", "mlocked", "mlock-onfault", "guard",
};

/* Private anonymous, in any protection: both designs take it. */
static int kind_ok(int k)
{
	return k == K_ANON_RW || k == K_ANON_RO || k == K_ANON_NONE;
}

/*
 * vrange() also takes locked memory, except to mark it volatile (SPEC 4.2:
 * unmarking is what makes a range safe to lock).
 */
static int vrange_kind_ok(int k, int mode)
{
	return kind_ok(k) || (mode != VRANGE_VOLATILE &&
			      (k == K_LOCKED || k == K_LOCKONFAULT));
}

static int kind_writable(int k)
{
	return k != K_HOLE && k != K_ANON_RO && k != K_ANON_NONE &&
	       k != K_GUARD;
}

/* --- PRNG ------------------------------------------------------------- */

static uint64_t rng_state;

static unsigned long rnd_below(unsigned long n)
{
	return splitmix64_below(&rng_state, n);
}

static int chance(int percent)
{
	return (int)rnd_below(100) < percent;
}

/* --- the arena and what the oracle knows about it ---------------------- */

/* base[0] and base[ARENA_PAGES + 1] are the guards. */
static char *base;
#define APAGE(i)	(base + (size_t)(i) * PAGE_SZ)
#define NSLOTS		(ARENA_PAGES + 2)
static int kind[NSLOTS];
static unsigned char vol[NSLOTS];	/* VM_VOLATILE set */
static unsigned char freed[NSLOTS];	/* MADV_FREE since it was filled */
static unsigned int pat_seed[NSLOTS];
static int file_fd = -1;
static unsigned int epoch;

/* Special places outside the arena. */
static unsigned long task_size;
static unsigned long low_lo, low_hi;	/* empty, below every mapping */
static unsigned long high_lo, high_hi;	/* empty, up to TASK_SIZE */
static unsigned long vvar_lo, vvar_hi, vdso_lo, vdso_hi;
static char *huge_page;			/* a hugetlb page, or NULL */
static int *ro_int, *none_int, *straddle_int;
static int good_int;

static unsigned long counts_by_kind[K_NKINDS + 1];

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	fflush(stdout);
	exit(1);
}

static void map_run(int first, int n, int k)
{
	char *p = APAGE(first);
	size_t len = (size_t)n * PAGE_SZ;
	int prot = PROT_READ | PROT_WRITE, flags = MAP_FIXED;
	int fd = -1, i;
	off_t off = 0;
	void *r;

	switch (k) {
	case K_HOLE:
		if (munmap(p, len))
			die("munmap");
		goto record;
	case K_SHARED_ANON:
		flags |= MAP_SHARED | MAP_ANONYMOUS;
		break;
	case K_FILE_PRIV:
	case K_SHARED_FILE:
		flags |= k == K_FILE_PRIV ? MAP_PRIVATE : MAP_SHARED;
		fd = file_fd;
		off = (off_t)first * PAGE_SZ;
		break;
	default:
		flags |= MAP_PRIVATE | MAP_ANONYMOUS;
		break;
	}
	r = mmap(p, len, prot, flags, fd, off);
	if (r != p)
		die("mmap in the arena");
	if (k == K_ANON_RW || k == K_ANON_RO || k == K_ANON_NONE) {
		for (i = 0; i < n; i++) {
			pat_seed[first + i] = epoch * 4096u + first + i;
			fill_pattern(APAGE(first + i), PAGE_SZ,
				     pat_seed[first + i]);
		}
	}
	if (k == K_ANON_RO && mprotect(p, len, PROT_READ))
		die("mprotect");
	if (k == K_ANON_NONE && mprotect(p, len, PROT_NONE))
		die("mprotect");
	if (k == K_LOCKED && mlock(p, len))
		k = K_ANON_RW;	/* no RLIMIT_MEMLOCK: still a valid page */
	if (k == K_LOCKONFAULT &&
	    syscall(SYS_mlock2, p, len, MLOCK_ONFAULT))
		k = K_ANON_RW;
record:
	for (i = 0; i < n; i++) {
		kind[first + i] = k;
		vol[first + i] = 0;
		freed[first + i] = 0;
		counts_by_kind[k]++;
	}
}

static void layout(void)
{
	int i = 1, n, k;

	epoch++;
	/* Throw the old layout away: one private mapping over it all. */
	if (mmap(APAGE(1), ARENA_PAGES * PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != APAGE(1))
		die("mmap arena");
	while (i <= ARENA_PAGES) {
		n = 1 + (int)rnd_below(chance(70) ? 4 : 16);
		if (i + n > ARENA_PAGES + 1)
			n = ARENA_PAGES + 1 - i;
		/* Mostly private anon, the kind whose state changes. */
		k = chance(55) ? K_ANON_RW : (int)rnd_below(K_NKINDS);
		map_run(i, n, k);
		i += n;
	}
}

/* Mark pages freed after a successful MADV_FREE, or check them. */
static long integrity_failures;

static void check_integrity(void)
{
	int i;

	for (i = 1; i <= ARENA_PAGES; i++) {
		if (kind[i] != K_ANON_RW || vol[i])
			continue;
		if (check_pattern(APAGE(i), PAGE_SZ, pat_seed[i]) < 0)
			continue;
		if (freed[i] && range_is_zero(APAGE(i), PAGE_SZ))
			continue;
		if (integrity_failures++ < MAX_REPORTS)
			printf("# integrity: epoch %u page %d (anon-rw) lost its content%s\n",
			       epoch, i, freed[i] ? " and is not zero" : "");
	}
}

/* mprotect a run of private anon pages to another protection. */
static void reprotect(void)
{
	static const int prot[] = { PROT_READ | PROT_WRITE, PROT_READ,
				    PROT_NONE };
	static const int to_kind[] = { K_ANON_RW, K_ANON_RO, K_ANON_NONE };
	int i = 1 + (int)rnd_below(ARENA_PAGES), j, n = 0, t;

	while (i + n <= ARENA_PAGES && kind_ok(kind[i + n]) && n < 8)
		n++;
	if (!n)
		return;
	t = (int)rnd_below(3);
	if (mprotect(APAGE(i), n * PAGE_SZ, prot[t]))
		die("mprotect run");
	for (j = i; j < i + n; j++) {
		/* A page that was RW keeps its pattern; RO/NONE too. */
		kind[j] = to_kind[t];
	}
}

/* --- the special places ------------------------------------------------ */

static void probe_address_space(void)
{
	char line[512];
	unsigned long lo, hi, first_lo = ~0ul, top = 0;
	void *p;
	FILE *f;

	/* 5-level paging lifts TASK_SIZE to 2^56 - 4K; 4-level: 2^47 - 4K. */
	p = mmap((void *)(1ul << 48), PAGE_SZ, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == (void *)(1ul << 48)) {
		task_size = (1ul << 56) - PAGE_SZ;
		munmap(p, PAGE_SZ);
	} else {
		if (p != MAP_FAILED)
			munmap(p, PAGE_SZ);
		task_size = (1ul << 47) - PAGE_SZ;
	}
	f = fopen("/proc/self/maps", "r");
	if (!f)
		die("/proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (hi > task_size)	/* [vsyscall] */
			continue;
		if (lo < first_lo)
			first_lo = lo;
		if (hi > top)
			top = hi;
		if (strstr(line, "[vvar]")) {
			vvar_lo = lo;
			vvar_hi = hi;
		} else if (strstr(line, "[vdso]")) {
			vdso_lo = lo;
			vdso_hi = hi;
		}
	}
	fclose(f);
	low_lo = 0;
	low_hi = first_lo < 0x100000 ? first_lo & ~(PAGE_SZ - 1) : 0x100000;
	high_lo = top;
	high_hi = task_size;
	if (high_hi - high_lo > 64 * PAGE_SZ)
		high_lo = high_hi - 64 * PAGE_SZ;
}

/* A hugetlb pool of one page, if there is none; knob.h puts it back. */
static void setup_hugetlb(void)
{
	long pool = knob_get_long(NR_HUGEPAGES);

	if (pool < 0)
		return;
	if (pool == 0)
		knob_set(NR_HUGEPAGES, "1");
	huge_page = mmap(NULL, HPAGE_SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (huge_page == MAP_FAILED) {
		huge_page = NULL;
		return;
	}
	huge_page[0] = 1;
}

static void teardown_hugetlb(void)
{
	if (huge_page)
		munmap(huge_page, HPAGE_SZ);
	knob_restore_all();
}

static void setup(void)
{
	char path[64];
	char *p;

	snprintf(path, sizeof(path), "/tmp/vmab-fuzz-%d", (int)getpid());
	file_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file_fd < 0 || ftruncate(file_fd, NSLOTS * PAGE_SZ))
		die("fuzz file");
	unlink(path);

	base = mmap(NULL, NSLOTS * PAGE_SZ, PROT_NONE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		die("mmap guards");
	kind[0] = kind[NSLOTS - 1] = K_GUARD;

	/* Purged pointers that must fail: RO, PROT_NONE, and one int whose
	 * last two bytes fall on a read-only page. */
	p = mmap(NULL, 3 * PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap purged targets");
	p[0] = 1;
	if (mprotect(p + PAGE_SZ, PAGE_SZ, PROT_READ) ||
	    mprotect(p + 2 * PAGE_SZ, PAGE_SZ, PROT_NONE))
		die("mprotect purged targets");
	ro_int = (int *)(p + PAGE_SZ);
	none_int = (int *)(p + 2 * PAGE_SZ);
	straddle_int = (int *)(p + PAGE_SZ - 2);

	setup_hugetlb();
	probe_address_space();
	layout();
}

/* --- one call ----------------------------------------------------------- */

struct expect {
	long ret;		/* >= 0: success with this value */
	int err;		/* else this errno */
	unsigned int alt;	/* bitmask of other acceptable errnos */
	long alt_ret;		/* another acceptable success value, or -1 */
};

#define EBIT(e)		(1u << ((e) & 31))

static long calls_vrange, calls_madvise, mismatches, ambiguous, purged_seen;
static long mism_vrange, mism_madvise;
static long errno_count[4];	/* EINVAL, ENOMEM, EFAULT, success */

static int slot_of(unsigned long a)
{
	unsigned long b = (unsigned long)base;

	if (a < b || a >= b + NSLOTS * PAGE_SZ)
		return -1;
	return (int)((a - b) / PAGE_SZ);
}

/* What an address outside the arena is, for the walks. */
static int outside_kind(unsigned long a)
{
	if (a >= low_lo && a < low_hi)
		return K_HOLE;
	if (a >= high_lo && a < high_hi)
		return K_HOLE;
	if (a >= task_size)
		return K_HOLE;
	if ((a >= vvar_lo && a < vvar_hi) || (a >= vdso_lo && a < vdso_hi))
		return K_GUARD;	/* not private anon: refused by both */
	if (huge_page && a >= (unsigned long)huge_page &&
	    a < (unsigned long)huge_page + HPAGE_SZ)
		return K_GUARD;
	return -1;
}

static int page_kind(unsigned long a)
{
	int s = slot_of(a);

	return s >= 0 ? kind[s] : outside_kind(a);
}

/* Where purged points, and whether the kernel can store an int there. */
static int *pick_purged(int *writable)
{
	int s;

	switch (rnd_below(12)) {
	case 0: case 1: case 2: case 3:
		*writable = 1;
		return &good_int;
	case 4: case 5:
		*writable = 1;
		return NULL;
	case 6:
		*writable = 0;
		return ro_int;
	case 7:
		*writable = 0;
		return none_int;
	case 8:
		*writable = 0;
		return straddle_int;
	case 9:
		*writable = 0;
		return chance(50) ? (int *)0xffffffff81000000ul
				  : (int *)(0xffff888000000000ul + rnd_below(1 << 20) * 4);
	case 10:
		*writable = 0;
		return (int *)(low_lo + 0x10 + rnd_below(16) * PAGE_SZ);
	default:
		/* A page of the arena that is not a pattern page. */
		s = (int)rnd_below(NSLOTS);
		if (kind_ok(kind[s])) {
			*writable = 1;
			return &good_int;
		}
		*writable = kind_writable(kind[s]);
		return (int *)(APAGE(s) + rnd_below(PAGE_SZ / 4) * 4);
	}
}

/* A start address and length, each from a family of interesting values. */
static void pick_range(unsigned long *start, unsigned long *len)
{
	unsigned long a, pages;
	int r = (int)rnd_below(100);

	if (r < 70) {
		/* In the arena, from a guard to the other. */
		a = (unsigned long)APAGE(rnd_below(NSLOTS));
		pages = 1 + rnd_below(chance(60) ? 8 : NSLOTS);
	} else if (r < 76) {
		a = low_lo + rnd_below((low_hi - low_lo) / PAGE_SZ) * PAGE_SZ;
		pages = 1 + rnd_below((low_hi - a) / PAGE_SZ);
	} else if (r < 82) {
		a = high_lo + rnd_below((high_hi - high_lo) / PAGE_SZ) * PAGE_SZ;
		pages = 1 + rnd_below((high_hi - a) / PAGE_SZ + 2);
	} else if (r < 86 && vvar_hi) {
		a = vvar_lo + rnd_below((vvar_hi - vvar_lo) / PAGE_SZ) * PAGE_SZ;
		pages = 1 + rnd_below((vvar_hi - a) / PAGE_SZ);
	} else if (r < 89 && vdso_hi) {
		a = vdso_lo + rnd_below((vdso_hi - vdso_lo) / PAGE_SZ) * PAGE_SZ;
		pages = 1 + rnd_below((vdso_hi - a) / PAGE_SZ);
	} else if (r < 91 && huge_page) {
		a = (unsigned long)huge_page + rnd_below(512) * PAGE_SZ;
		pages = 1 + rnd_below(((unsigned long)huge_page + HPAGE_SZ - a) / PAGE_SZ);
	} else {
		/* Kernel, non-canonical, the top of user space. */
		static const unsigned long tops[] = {
			0xffffffff81000000ul, 0xffff888000000000ul,
			0xfffffffffffff000ul, 0x8000000000000000ul,
			1ul << 47, 1ul << 56,
		};
		a = chance(70) ? tops[rnd_below(6)]
			       : task_size - rnd_below(4) * PAGE_SZ;
		pages = 1 + rnd_below(8);
	}
	*start = a;
	*len = pages * PAGE_SZ;

	/* Now damage them, sometimes. */
	if (chance(8))
		*start += chance(50) ? 1 + rnd_below(PAGE_SZ - 1) : PAGE_SZ / 2;
	switch (rnd_below(40)) {
	case 0:
		*len = 0;
		break;
	case 1:
		*len += 1 + rnd_below(PAGE_SZ - 1);
		break;
	case 2:
		*len = (unsigned long)-PAGE_SZ * (1 + rnd_below(4));	/* "negative" */
		break;
	case 3:
		*len = (unsigned long)-1l;
		break;
	case 4:
		*len = 1ul << (40 + rnd_below(24));
		break;
	case 5:
		*len = PAGE_SZ - 1 - rnd_below(16);
		break;
	case 6:
		/* Exactly up to TASK_SIZE, or one page past it. */
		if (*start < task_size)
			*len = task_size - (*start & ~(PAGE_SZ - 1)) + (chance(50) ? PAGE_SZ : 0);
		break;
	default:
		break;
	}
}

/*
 * May a call on [start, start + len) reach a walk at all?  Only if the
 * walk stops before it leaves what the oracle knows: vrange() stops at a
 * hole or a refused page, MADV_FREE at a refused page, MADV_NORMAL at
 * nothing.  Above TASK_SIZE there is nothing mapped.
 */
enum walker { W_VRANGE, W_FREE, W_NORMAL };

static int walk_safe(unsigned long start, unsigned long len, enum walker w)
{
	unsigned long a;
	int k;

	for (a = start; a - start < len; a += PAGE_SZ) {
		if (a >= task_size)
			return 1;
		k = page_kind(a);
		if (k < 0)
			return 0;
		/* (vrange may walk on through locked pages: not a stop) */
		if (k == K_HOLE ? w == W_VRANGE :
		    !(w == W_VRANGE ? vrange_kind_ok(k, VRANGE_QUERY) : kind_ok(k)) &&
		    w != W_NORMAL)
			return 1;
	}
	return 1;
}

static struct expect vrange_oracle(unsigned long start, unsigned long len,
				   long mode, int purged_ok, int apply)
{
	struct expect e = { .ret = -1, .err = 0, .alt = 0, .alt_ret = -1 };
	unsigned long end = start + len, a, done = 0, volb = 0;
	int m = (int)mode, k, stop = 0;

	if ((start & (PAGE_SZ - 1)) || !len || (len & (PAGE_SZ - 1)) ||
	    end < start || end > task_size ||
	    (m != VRANGE_VOLATILE && m != VRANGE_NONVOLATILE &&
	     m != VRANGE_QUERY)) {
		e.err = EINVAL;
		if (!purged_ok)
			e.alt |= EBIT(EFAULT);
		return e;
	}
	for (a = start; a < end; a += PAGE_SZ) {
		k = page_kind(a);
		if (k == K_HOLE) {
			stop = ENOMEM;
			break;
		}
		if (!vrange_kind_ok(k, m)) {
			stop = EINVAL;
			break;
		}
		done += PAGE_SZ;
		if (vol[slot_of(a)])
			volb += PAGE_SZ;
	}
	if (!done) {
		e.err = stop;
		if (!purged_ok)
			e.alt |= EBIT(EFAULT);
		return e;
	}
	if (!purged_ok) {
		e.err = EFAULT;
		return e;
	}
	e.ret = m == VRANGE_QUERY ? (long)volb : (long)done;
	if (apply && m != VRANGE_QUERY)
		for (a = start; a < start + done; a += PAGE_SZ)
			vol[slot_of(a)] = m == VRANGE_VOLATILE;
	return e;
}

static int have_mf;

static int advice_valid(int adv)
{
	if (adv == MADV_FREE)
		return have_mf;
	return adv == MADV_NORMAL;
}

static struct expect madvise_oracle(unsigned long start, unsigned long len_in,
				    int adv, int apply)
{
	struct expect e = { .ret = -1, .err = 0, .alt = 0, .alt_ret = -1 };
	unsigned long len, end, a;
	int k, hole = 0;

	if (!advice_valid(adv) || (start & (PAGE_SZ - 1))) {
		e.err = EINVAL;
		return e;
	}
	len = (len_in + PAGE_SZ - 1) & ~(PAGE_SZ - 1);
	if (len_in && !len) {
		e.err = EINVAL;
		return e;
	}
	end = start + len;
	if (end < start) {
		e.err = EINVAL;
		return e;
	}
	if (end == start) {
		e.ret = 0;
		return e;
	}
	for (a = start; a < end; a += PAGE_SZ) {
		k = page_kind(a);
		if (k == K_HOLE) {
			hole = 1;
			/* No mapping above the top of user space: stop. */
			if (a >= task_size || (a >= high_lo && a < high_hi))
				break;
			continue;
		}
		/* MADV_NORMAL takes every mapping; MADV_FREE private anon. */
		if (adv == MADV_FREE && !kind_ok(k)) {
			e.err = EINVAL;
			goto applied;
		}
	}
	if (hole)
		e.err = ENOMEM;
	else
		e.ret = 0;
applied:
	if (apply && adv == MADV_FREE)
		for (a = start; a < end && a < task_size; a += PAGE_SZ) {
			int s = slot_of(a);

			k = page_kind(a);
			if (k != K_HOLE && !kind_ok(k))
				break;
			if (s >= 0 && kind_ok(kind[s]))
				freed[s] = 1;
		}
	return e;
}

static void errno_tally(long r, int err)
{
	if (r >= 0)
		errno_count[3]++;
	else if (err == EINVAL)
		errno_count[0]++;
	else if (err == ENOMEM)
		errno_count[1]++;
	else if (err == EFAULT)
		errno_count[2]++;
}

static int judge(const char *what, long r, int err, const struct expect *e,
		 long *mism)
{
	if (e->alt)
		ambiguous++;
	if (r >= 0 && (r == e->ret || (e->alt_ret >= 0 && r == e->alt_ret)))
		return 1;
	if (r < 0 && e->ret < 0 && (err == e->err || (e->alt & EBIT(err))))
		return 1;
	if (r < 0 && e->ret >= 0 && (e->alt & EBIT(err)))
		return 1;
	(*mism)++;
	if (mismatches++ < MAX_REPORTS) {
		printf("# mismatch %s: got %ld", what, r);
		if (r < 0)
			printf(" (%s)", strerror(err));
		if (e->ret >= 0)
			printf(", expected %ld\n", e->ret);
		else
			printf(", expected errno %d (%s)%s\n", e->err,
			       strerror(e->err), e->alt ? " or EFAULT" : "");
	}
	return 0;
}

/* Only ranges the oracle fully knows are called. */
static void one_vrange(void)
{
	unsigned long start, len;
	long mode, r;
	int *purged, wr, err;
	struct expect e;
	char what[192];

	pick_range(&start, &len);
	switch (rnd_below(20)) {
	case 0: {
		static const long bad[] = { 3, -1, INT_MIN, INT_MAX, 0x100 };
		mode = bad[rnd_below(5)];
		break;
	}
	case 1:
		/* The kernel sees an int: the upper half is dropped. */
		mode = (long)(0x100000000ul | rnd_below(3));
		break;
	default:
		mode = (long)rnd_below(3);
	}
	purged = pick_purged(&wr);
	/* A range the kernel takes must stop where the oracle still knows. */
	if (!(start & (PAGE_SZ - 1)) && len && !(len & (PAGE_SZ - 1)) &&
	    start + len > start && start + len <= task_size &&
	    !walk_safe(start, len, W_VRANGE))
		return;
	e = vrange_oracle(start, len, mode, wr || !purged, 0);
	good_int = 0x5a5a5a5a;
	errno = 0;
	r = syscall(__NR_vrange, start, len, mode, purged);
	err = errno;
	calls_vrange++;
	errno_tally(r, err);
	snprintf(what, sizeof(what),
		 "vrange(%#lx, %#lx, %ld, %p) [start kind %s]", start, len, mode,
		 (void *)purged, page_kind(start) >= 0 ? kind_name[page_kind(start)] : "?");
	if (judge(what, r, err, &e, &mism_vrange) && r >= 0) {
		vrange_oracle(start, len, mode, 1, 1);
		/* SPEC 4.1 defines *purged for NONVOLATILE and QUERY only. */
		if (purged == &good_int && (int)mode != VRANGE_VOLATILE) {
			if (good_int == 1)
				purged_seen++;
			else if (good_int != 0 && mism_vrange++ >= 0 &&
				 mismatches++ < MAX_REPORTS)
				printf("# mismatch %s: *purged is %#x\n", what,
				       good_int);
		}
	} else if (r >= 0) {
		/* Follow the kernel, not the oracle, from now on. */
		layout();
	}
}

static void one_madvise(void)
{
	static const int bad_adv[] = { 5, 6, 7, 26, 99, 1000, -1 };
	unsigned long start, len;
	long r;
	int adv, err;
	struct expect e;
	char what[160];

	pick_range(&start, &len);
	adv = chance(85) ? MADV_FREE
			 : chance(50) ? MADV_NORMAL : bad_adv[rnd_below(7)];
	/* A walk must stay in what the oracle knows (see pick_range). */
	if (advice_valid(adv) && !(start & (PAGE_SZ - 1))) {
		unsigned long l = (len + PAGE_SZ - 1) & ~(PAGE_SZ - 1);

		if (l && start + l > start &&
		    !walk_safe(start, l, adv == MADV_FREE ? W_FREE : W_NORMAL))
			return;
	}
	e = madvise_oracle(start, len, adv, 0);
	errno = 0;
	r = syscall(SYS_madvise, start, len, adv);
	err = errno;
	calls_madvise++;
	errno_tally(r, err);
	snprintf(what, sizeof(what), "madvise(%#lx, %#lx, %d) [start kind %s]",
		 start, len, adv,
		 page_kind(start) >= 0 ? kind_name[page_kind(start)] : "?");
	judge(what, r, err, &e, &mism_madvise);
	madvise_oracle(start, len, adv, 1);
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-n CALLS] [-s SEED] [-t MAX_SECONDS]\n",
		argv0);
	exit(2);
}

/* Its oracle expects ENOSYS where vrange() is absent: it needs nothing. */
VMAB_NEEDS("vrange_fuzz", "");
VMAB_NEEDS("madvise_fuzz", "");
VMAB_NEEDS("fuzz_integrity", "");
VMAB_NEEDS("fuzz_calls_done", "");

int main(int argc, char **argv)
{
	const char *env;
	long calls = 120000, max_s = 900, done = 0;
	uint64_t seed, t0;
	int have_vr, opt;
	struct vmab_data d;

	env = getenv("VMAB_FUZZ_CALLS");
	if (env)
		calls = strtol(env, NULL, 0);
	env = getenv("VMAB_FUZZ_SEED");
	seed = env ? strtoull(env, NULL, 0)
		   : (now_ns() ^ (uint64_t)getpid() << 16) & 0xffffffffu;
	while ((opt = getopt(argc, argv, "n:s:t:")) != -1) {
		switch (opt) {
		case 'n': calls = strtol(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': max_s = strtol(optarg, NULL, 0); break;
		default: usage(argv[0]);
		}
	}
	rng_state = seed;

	ksft_print_header();
	ksft_set_plan(4);
	printf("# seed %llu (replay: fuzz_test -n %ld -s %llu)\n",
	       (unsigned long long)seed, calls, (unsigned long long)seed);
	fflush(stdout);

	/* __NR_vrange is vrange() only where vrange_supported() says so; on a
	 * kernel without it the answer must be ENOSYS, which the oracle then
	 * wants for every call. */
	have_vr = vrange_supported();
	if (!have_vr) {
		errno = 0;
		if (sys_vrange(0, PAGE_SZ, VRANGE_QUERY, NULL) < 0 &&
		    errno != ENOSYS)
			have_vr = -1;	/* not ours at all */
	}
	have_mf = madv_free_supported();
	setup();
	printf("# task_size %#lx arena %p hugetlb %s vvar %#lx vdso %#lx\n",
	       task_size, (void *)base, huge_page ? "yes" : "no", vvar_lo,
	       vdso_lo);

	t0 = now_ns();
	while (done < calls && now_ns() - t0 < (uint64_t)max_s * 1000000000ull) {
		long before = calls_vrange + calls_madvise;

		if (have_vr >= 0 && chance(50)) {
			if (have_vr) {
				one_vrange();
			} else {
				unsigned long s, l;
				int *p, w;

				pick_range(&s, &l);
				p = pick_purged(&w);
				errno = 0;
				calls_vrange++;
				if (syscall(__NR_vrange, s, l, (long)rnd_below(4), p) != -1 ||
				    errno != ENOSYS) {
					mism_vrange++;
					if (mismatches++ < MAX_REPORTS)
						printf("# mismatch: vrange() without CONFIG_VRANGE is not ENOSYS\n");
				}
			}
		} else {
			one_madvise();
		}
		if (calls_vrange + calls_madvise == before)
			continue;
		done++;
		if (done % 37 == 0)
			reprotect();
		if (done % EPOCH == 0) {
			check_integrity();
			layout();
		}
	}
	check_integrity();
	teardown_hugetlb();

	if (have_vr < 0)
		ksft_test_result_skip_named("vrange_fuzz", "syscall __NR_vrange is not vrange() here");
	else
		ksft_test_result(mism_vrange == 0, "vrange_fuzz\n");
	ksft_test_result(mism_madvise == 0, "madvise_fuzz\n");
	ksft_test_result(integrity_failures == 0, "fuzz_integrity\n");
	ksft_test_result(done >= calls, "fuzz_calls_done\n");

	printf("# arena pages laid out, by kind:");
	for (opt = 0; opt < K_NKINDS; opt++)
		printf(" %s %lu", kind_name[opt], counts_by_kind[opt]);
	printf("\n");
	data_begin(&d, DKIND_FUZZ);
	data_long(&d, DK_CALLS, done);
	data_long(&d, DK_CALLS_VRANGE, calls_vrange);
	data_long(&d, DK_CALLS_MADVISE, calls_madvise);
	data_long(&d, DK_MISMATCHES, mismatches);
	data_long(&d, DK_SEED, (long)seed);
	data_long(&d, DK_AMBIGUOUS, ambiguous);
	data_long(&d, DK_OK, errno_count[3]);
	data_long(&d, DK_EINVAL, errno_count[0]);
	data_long(&d, DK_ENOMEM, errno_count[1]);
	data_long(&d, DK_EFAULT, errno_count[2]);
	data_long(&d, DK_PURGED_SEEN, purged_seen);
	data_long(&d, DK_INTEGRITY_FAILURES, integrity_failures);
	data_long(&d, DK_EPOCHS, epoch);
	data_long(&d, DK_VRANGE, have_vr > 0);
	data_long(&d, DK_MADV_FREE, have_mf);
	data_double(&d, DK_SECONDS, (now_ns() - t0) / 1e9);
	data_emit(&d);
	return mismatches || integrity_failures;
}
