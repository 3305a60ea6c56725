// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent stress of both designs: the races that one thread at a time
 * never meets.
 *
 *   stress_test [-t SECONDS] [-s SEED] [-p PROCESSES] [-j THREADS]
 *
 * SECONDS (default 25, env VMAB_STRESS_SECONDS) is the run's length: the
 * CI size in suite/run.list, 600 in suite/stress.list (make stress).
 *
 * PROCESSES workers (default 2), each with THREADS threads (default 4),
 * and one reclaimer process that keeps writing memory.reclaim of the
 * test's memory cgroup; in the swap modes the parent also turns the swap
 * device off and on again every 5 s.  Each worker owns a region of NSLOTS slots of
 * SLOT_PAGES pages.  A thread takes one slot's lock, or several adjacent
 * ones, with trylock (no lock order, no deadlock) and then marks,
 * unmarks, queries, reads, writes, MADV_FREEs, pages out, mprotects,
 * mremaps (there and back, MREMAP_DONTUNMAP so that no hole opens),
 * munmaps and maps again, or forks a child that works on its copy.
 * Other threads meanwhile page out and query random ranges across
 * slots without any lock, so the kernel sees overlapping requests on the
 * same VMAs, splits and merges, and reclaim, all at once.
 *
 * The slot's lock holder knows the slot's state and checks it exactly:
 *  CLEAN     non-volatile, every page holds its pattern: exactly that;
 *  VOLATILE  marked: a page holds its pattern, or reading it raises
 *            SIGBUS (design A purged it); a zero page read without a
 *            SIGBUS is an error, so is any other content;
 *  MIXED     non-volatile after purges: each page its pattern or zero;
 *  FREED     MADV_FREE: each page its pattern or zero;
 *  HOLE      unmapped.
 * The SIGBUS handler checks si_code and that si_addr lies in a slot that
 * this thread holds and that is VOLATILE, marks that slot non-volatile
 * (vrange() must then say purged), and returns: the access sees a zero
 * page.  Unmarking says whether anything was purged: if not, the pattern
 * must be intact; if so, at least one page reads zero.  A child forked
 * from a volatile slot unmarks its copy: the pages it then maps are
 * mapped by a non-volatile VMA and must never be lost, whatever reclaim
 * does to the parent's volatile mapping (SPEC 4.3).
 *
 * At the end every region is unmapped and every process reaped, and the
 * counters must balance (see check_counters()).  Figures go out as a
 * "# @data {"kind":"stress",...}" line.
 *
 * Without vrange() the mark/unmark/query/SIGBUS parts are left out;
 * without MADV_FREE the lazy-free parts; the rest still runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ksft_named.h"
#include "vmab.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define NSLOTS		64	/* 4MB: two huge pages */
#define SLOT_PAGES	16
#define SLOT_LEN	(SLOT_PAGES * PAGE_SZ)
#define REGION_LEN	(NSLOTS * SLOT_LEN)
#define MAX_THREADS	16
#define MAX_PROCS	8
#define MAX_REPORTS	20

enum state { CLEAN, VOLATILE, MIXED, FREED, HOLE, DEAD };
static const char *const state_name[] = {
	"clean", "volatile", "mixed", "freed", "hole", "dead",
};

/* Shared by every process of the test (MAP_SHARED). */
struct stats {
	long ops, checks, marks, unmarks, unmarks_purged, queries, frees,
	     writes, pageouts, pageouts_wild, queries_wild, mprotects, mremaps,
	     munmaps, remaps, forks, reclaims, sigbus, zero_pages, errors,
	     dead_slots, mremap_unsupported, kernel_reads, kernel_efaults,
	     residency, thp_workers;
	int stop;
};
static struct stats *st;

#define COUNT(f)	__atomic_add_fetch(&st->f, 1, __ATOMIC_RELAXED)

static int have_vr, have_mf;
static uint64_t deadline_ns;

/* --- one worker process ------------------------------------------------ */

struct slot {
	pthread_mutex_t lock;
	enum state state;
	unsigned int gen;
};
static char *region;
static struct slot slots[NSLOTS];

static char *slot_addr(int s)
{
	return region + (size_t)s * SLOT_LEN;
}

/* Per thread: what it holds, for the SIGBUS handler. */
static __thread int held_lo = -1, held_hi = -1;	/* [lo, hi) */
static __thread char *tmp_area;				/* for mremap */
static __thread uint64_t rng;

static unsigned long rnd_below(unsigned long n)
{
	return splitmix64_below(&rng, n);
}

/* Messages from any process or thread, and from the handler: one write. */
static void report(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void report(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (__atomic_add_fetch(&st->errors, 1, __ATOMIC_RELAXED) > MAX_REPORTS)
		return;
	n = snprintf(buf, sizeof(buf), "# stress error (pid %d): ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, n) < 0)
		_exit(3);
}

static unsigned int page_seed(unsigned int gen, int s, int pg)
{
	return gen * 7919u + (unsigned int)s * SLOT_PAGES + pg;
}

/*
 * A volatile page may be purged while it is being written: the next
 * store raises SIGBUS, the handler unmarks the slot, and the rest of the
 * fill lands on a zero page.  Fill such a page again, whole.
 */
static __thread char *volatile tl_last_sigbus_page;

/*
 * Read a byte of p: it faults the page in, or raises SIGBUS, whose
 * handler changes tl_last_sigbus_page and the slot's state behind the
 * compiler's back; the barrier makes the code after it read them again.
 */
static void touch_page(const char *p)
{
	(void)*(const volatile char *)p;
	__asm__ __volatile__("" ::: "memory");
}

static void fill_slot(int s)
{
	char *p;
	int pg;

	for (pg = 0; pg < SLOT_PAGES; pg++) {
		p = slot_addr(s) + pg * PAGE_SZ;
		tl_last_sigbus_page = NULL;
		fill_pattern(p, PAGE_SZ, page_seed(slots[s].gen, s, pg));
		if (tl_last_sigbus_page == p)
			fill_pattern(p, PAGE_SZ, page_seed(slots[s].gen, s, pg));
	}
}

static void sigbus_handler(int sig, siginfo_t *si, void *uc)
{
	char *a = si->si_addr;
	int s, purged = 0, saved = errno;
	long r;

	COUNT(sigbus);
	s = a >= region && a < region + REGION_LEN ?
		(int)((a - region) / SLOT_LEN) : -1;
	if (si->si_code != BUS_ADRERR || s < held_lo || s >= held_hi ||
	    s < 0 || slots[s].state != VOLATILE) {
		report("SIGBUS code %d at %p: slot %d (held %d-%d) is %s", si->si_code,
		       (void *)a, s, held_lo, held_hi,
		       s >= 0 ? state_name[slots[s].state] : "not ours");
		_exit(4);
	}
	r = sys_vrange((unsigned long)slot_addr(s), SLOT_LEN,
		       VRANGE_NONVOLATILE, &purged);
	if (r != (long)SLOT_LEN || purged != 1) {
		report("SIGBUS at %p, then unmark of slot %d: %ld purged %d",
		       (void *)a, s, r, purged);
		_exit(4);
	}
	slots[s].state = MIXED;
	tl_last_sigbus_page = (char *)((unsigned long)a & ~(PAGE_SZ - 1));
	errno = saved;
}

/* Read a slot and check it against its state.  Returns 0 or -1. */
static int check_slot(int s, const char *why)
{
	char *p;
	int pg, zero, was_vol;
	unsigned int seed;

	if (slots[s].state == HOLE || slots[s].state == DEAD)
		return 0;
	COUNT(checks);
	for (pg = 0; pg < SLOT_PAGES; pg++) {
		p = slot_addr(s) + pg * PAGE_SZ;
		seed = page_seed(slots[s].gen, s, pg);
		was_vol = slots[s].state == VOLATILE;
		tl_last_sigbus_page = NULL;
		/* The first read of the page faults it in, or raises SIGBUS. */
		touch_page(p);
		if (check_pattern(p, PAGE_SZ, seed) < 0)
			continue;
		zero = range_is_zero(p, PAGE_SZ);
		if (zero && slots[s].state != CLEAN &&
		    (!was_vol || tl_last_sigbus_page == p)) {
			COUNT(zero_pages);
			continue;
		}
		report("%s: slot %d (%s, gen %u) page %d holds %s", why, s,
		       state_name[slots[s].state], slots[s].gen, pg,
		       zero ? "zeros without a SIGBUS" : "foreign data");
		return -1;
	}
	return 0;
}

static void write_slot(int s)
{
	int was_vol = slots[s].state == VOLATILE;

	COUNT(writes);
	slots[s].gen++;
	/*
	 * On a volatile slot a purged page raises SIGBUS mid-fill: the
	 * handler unmarks the slot (MIXED: pages written before it may have
	 * been purged) and the fill goes on, on zero pages.
	 */
	fill_slot(s);
	if (!was_vol)
		slots[s].state = CLEAN;
}

static int mark_slots(int lo, int hi)
{
	int purged = -1, s;
	long r;

	for (s = lo; s < hi; s++)
		if (slots[s].state != CLEAN && slots[s].state != VOLATILE)
			write_slot(s);
	COUNT(marks);
	r = sys_vrange((unsigned long)slot_addr(lo), (hi - lo) * SLOT_LEN,
		       VRANGE_VOLATILE, rnd_below(2) ? &purged : NULL);
	if (r != (long)((hi - lo) * SLOT_LEN)) {
		report("mark slots %d-%d: %ld (%s)", lo, hi, r, strerror(errno));
		return -1;
	}
	for (s = lo; s < hi; s++)
		slots[s].state = VOLATILE;
	return 0;
}

/* Unmark [lo, hi): slots may be holes; the walk stops at the first. */
static int unmark_slots(int lo, int hi)
{
	int purged = -1, s, any_vol = 0, end = lo, zeros = 0, pg;
	long r, want;

	while (end < hi && slots[end].state != HOLE)
		end++;
	want = (long)(end - lo) * SLOT_LEN;
	COUNT(unmarks);
	errno = 0;
	r = sys_vrange((unsigned long)slot_addr(lo), (hi - lo) * SLOT_LEN,
		       VRANGE_NONVOLATILE, &purged);
	if (end == lo ? !(r == -1 && errno == ENOMEM) : r != want) {
		report("unmark slots %d-%d (stops at %d): %ld (%s), want %ld",
		       lo, hi, end, r, strerror(errno), end == lo ? -1 : want);
		return -1;
	}
	if (end == lo)
		return 0;
	for (s = lo; s < end; s++)
		any_vol |= slots[s].state == VOLATILE;
	if (purged != 0 && purged != 1) {
		report("unmark slots %d-%d: purged is %d", lo, end, purged);
		return -1;
	}
	if (purged && !any_vol) {
		report("unmark slots %d-%d: purged, but none was volatile", lo, end);
		return -1;
	}
	if (purged)
		COUNT(unmarks_purged);
	for (s = lo; s < end; s++) {
		if (slots[s].state == VOLATILE)
			slots[s].state = purged ? MIXED : CLEAN;
		if (check_slot(s, "after unmark"))
			return -1;
		for (pg = 0; purged && pg < SLOT_PAGES; pg++)
			zeros += range_is_zero(slot_addr(s) + pg * PAGE_SZ, PAGE_SZ);
	}
	if (purged && !zeros) {
		report("unmark slots %d-%d said purged, but no page reads zero",
		       lo, end);
		return -1;
	}
	return 0;
}

static int query_slot(int s)
{
	int purged = -1;
	long r, want = slots[s].state == VOLATILE ? (long)SLOT_LEN : 0;

	COUNT(queries);
	errno = 0;
	r = sys_vrange((unsigned long)slot_addr(s), SLOT_LEN, VRANGE_QUERY,
		       &purged);
	if (slots[s].state == HOLE ? !(r == -1 && errno == ENOMEM) : r != want) {
		report("query slot %d (%s): %ld (%s), want %ld", s,
		       state_name[slots[s].state], r, strerror(errno), want);
		return -1;
	}
	return 0;
}

static int free_slot(int s)
{
	if (slots[s].state == VOLATILE || slots[s].state == HOLE)
		return 0;
	COUNT(frees);
	if (madvise(slot_addr(s), SLOT_LEN, MADV_FREE)) {
		report("MADV_FREE slot %d: %s", s, strerror(errno));
		return -1;
	}
	slots[s].state = FREED;
	return 0;
}

static void stress_pageout(char *p, size_t len, int wild)
{
	long r = madvise(p, len, MADV_PAGEOUT);

	if (wild)
		COUNT(pageouts_wild);
	else
		COUNT(pageouts);
	/* A range across slots may meet a hole another thread made. */
	if (r && !(wild && (errno == ENOMEM || errno == EINVAL)))
		report("MADV_PAGEOUT %p+%zu: %s", (void *)p, len, strerror(errno));
}

static int mprotect_slot(int s)
{
	if (slots[s].state == HOLE)
		return 0;
	COUNT(mprotects);
	if (mprotect(slot_addr(s), SLOT_LEN, PROT_READ)) {
		report("mprotect slot %d: %s", s, strerror(errno));
		return -1;
	}
	if (have_vr && query_slot(s))
		return -1;
	/* Read-only and volatile: a purged page still raises SIGBUS. */
	if (check_slot(s, "read-only"))
		return -1;
	if (mprotect(slot_addr(s), SLOT_LEN, PROT_READ | PROT_WRITE)) {
		report("mprotect slot %d back: %s", s, strerror(errno));
		return -1;
	}
	return have_vr ? query_slot(s) : 0;
}

static int mremap_slot(int s)
{
	char *p = slot_addr(s), *q;

	if (slots[s].state == HOLE)
		return 0;
	q = mremap(p, SLOT_LEN, SLOT_LEN,
		   MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, tmp_area);
	if (q == MAP_FAILED) {
		if (errno == EINVAL) {
			COUNT(mremap_unsupported);
			return 0;
		}
		report("mremap slot %d away: %s", s, strerror(errno));
		return -1;
	}
	COUNT(mremaps);
	/* The data moved; the slot left behind is empty: back over it. */
	q = mremap(tmp_area, SLOT_LEN, SLOT_LEN,
		   MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, p);
	if (q != p) {
		report("mremap slot %d back: %s", s, strerror(errno));
		_exit(5);	/* the slot is gone: nothing more to check */
	}
	if (have_vr && query_slot(s))
		return -1;
	return check_slot(s, "after mremap there and back");
}

static int unmap_slot(int s)
{
	if (slots[s].state == HOLE)
		return 0;
	COUNT(munmaps);
	if (munmap(slot_addr(s), SLOT_LEN)) {
		report("munmap slot %d: %s", s, strerror(errno));
		return -1;
	}
	slots[s].state = HOLE;
	return 0;
}

static int remap_slot(int s)
{
	void *p;

	COUNT(remaps);
	p = mmap(slot_addr(s), SLOT_LEN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != slot_addr(s)) {
		/* Someone else's mapping took the hole: leave the slot. */
		if (p != MAP_FAILED)
			munmap(p, SLOT_LEN);
		slots[s].state = DEAD;
		COUNT(dead_slots);
		return 0;
	}
	slots[s].gen++;
	fill_slot(s);
	slots[s].state = CLEAN;
	return 0;
}

/*
 * A child works on its copy of slot s; only syscalls and this file's
 * code run in it (another thread may have held a libc lock at fork).
 */
static void child_of_fork(int s)
{
	int purged = -1;
	long r;

	if (have_vr && slots[s].state == VOLATILE) {
		r = sys_vrange((unsigned long)slot_addr(s), SLOT_LEN,
			       VRANGE_NONVOLATILE, &purged);
		if (r != (long)SLOT_LEN)
			_exit(10);
		slots[s].state = purged ? MIXED : CLEAN;
	}
	/* Non-volatile here, volatile maybe in the parent: never lost. */
	madvise(slot_addr(s), SLOT_LEN, MADV_PAGEOUT);
	if (check_slot(s, "child, non-volatile copy"))
		_exit(11);
	if (have_vr) {
		if (mark_slots(s, s + 1))
			_exit(12);
		madvise(slot_addr(s), SLOT_LEN, MADV_PAGEOUT);
		if (check_slot(s, "child, volatile copy after pageout"))
			_exit(13);
		if (slots[s].state == VOLATILE && unmark_slots(s, s + 1))
			_exit(14);
	}
	_exit(0);
}

static int fork_slot(int s)
{
	int status;
	pid_t pid;

	if (slots[s].state == HOLE)
		return 0;
	COUNT(forks);
	pid = fork();
	if (pid < 0) {
		report("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		held_lo = s;
		held_hi = s + 1;
		child_of_fork(s);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		report("forked child for slot %d: status %#x", s, status);
		return -1;
	}
	return check_slot(s, "parent after child");
}

/*
 * The kernel reads a page of the slot: write(2) from it into a pipe.  A
 * purged page of a volatile slot gives EFAULT (SPEC 4.3), never an oops,
 * and then a user read of it must raise SIGBUS; otherwise what went
 * through the pipe is the page's content (or the part copied before a
 * purge cut the copy short).
 */
static __thread int tl_pipe[2];
static __thread unsigned char tl_buf[PAGE_SZ];
static int pagemap_fd = -1;

static int kernel_reads_slot(int s)
{
	int pg = (int)rnd_below(SLOT_PAGES), was_vol;
	char *p = slot_addr(s) + pg * PAGE_SZ;
	ssize_t n, got;

	if (slots[s].state == HOLE)
		return 0;
	COUNT(kernel_reads);
	was_vol = slots[s].state == VOLATILE;
	errno = 0;
	n = write(tl_pipe[1], p, PAGE_SZ);
	if (n < 0) {
		if (errno != EFAULT || !was_vol) {
			report("write(2) from slot %d (%s) page %d: %s", s,
			       state_name[slots[s].state], pg, strerror(errno));
			return -1;
		}
		COUNT(kernel_efaults);
		tl_last_sigbus_page = NULL;
		touch_page(p);
		if (tl_last_sigbus_page != p) {
			report("write(2) from slot %d page %d gave EFAULT, but the page reads without SIGBUS",
			       s, pg);
			return -1;
		}
		return check_slot(s, "after EFAULT");
	}
	got = read(tl_pipe[0], tl_buf, n);
	if (got != n) {
		report("read back %zd of %zd bytes from the pipe", got, n);
		return -1;
	}
	if (n == PAGE_SZ && check_pattern(tl_buf, PAGE_SZ,
					  page_seed(slots[s].gen, s, pg)) < 0)
		return 0;
	/* Cut short by a purge: the part copied is the pattern's. */
	if (n < PAGE_SZ && was_vol &&
	    check_pattern(tl_buf, n, page_seed(slots[s].gen, s, pg)) < 0)
		return 0;
	if (slots[s].state != CLEAN && !was_vol && range_is_zero(tl_buf, n))
		return 0;	/* MIXED or FREED: a zero page */
	report("write(2) from slot %d (%s) page %d: %zd bytes, not its content",
	       s, state_name[slots[s].state], pg, n);
	return -1;
}

/* mincore(2) and /proc/self/pagemap over a slot, purged pages and all. */
static int residency_of_slot(int s)
{
	unsigned char vec[SLOT_PAGES];
	uint64_t pm[SLOT_PAGES];
	unsigned long a = (unsigned long)slot_addr(s);

	COUNT(residency);
	errno = 0;
	if (mincore((void *)a, SLOT_LEN, vec) ?
	    !(slots[s].state == HOLE && errno == ENOMEM) : slots[s].state == HOLE) {
		report("mincore slot %d (%s): %s", s, state_name[slots[s].state],
		       strerror(errno));
		return -1;
	}
	if (pagemap_fd >= 0 &&
	    pread(pagemap_fd, pm, sizeof(pm), a / PAGE_SZ * 8) != sizeof(pm)) {
		report("pagemap of slot %d: %s", s, strerror(errno));
		return -1;
	}
	return 0;
}

/* Take [lo, hi) with trylock: all or nothing. */
static int take(int lo, int hi)
{
	int s;

	for (s = lo; s < hi; s++) {
		if (pthread_mutex_trylock(&slots[s].lock))
			goto undo;
		if (slots[s].state == DEAD) {
			pthread_mutex_unlock(&slots[s].lock);
			goto undo;
		}
	}
	held_lo = lo;
	held_hi = hi;
	return 1;
undo:
	while (--s >= lo)
		pthread_mutex_unlock(&slots[s].lock);
	return 0;
}

static void give_back(int lo, int hi)
{
	int s;

	held_lo = held_hi = -1;
	for (s = lo; s < hi; s++)
		pthread_mutex_unlock(&slots[s].lock);
}

static int one_op(void)
{
	int lo = (int)rnd_below(NSLOTS), n = 1, hi, s, err = 0, any_hole = 0;
	int op = (int)rnd_below(100);

	/* Without a lock, across slots and other threads' work. */
	if (op < 6) {
		char *p = region + rnd_below(REGION_LEN / PAGE_SZ) * PAGE_SZ;
		size_t len = (1 + rnd_below(3 * SLOT_PAGES)) * PAGE_SZ;

		if (p + len > region + REGION_LEN)
			len = region + REGION_LEN - p;
		stress_pageout(p, len, 1);
		return 0;
	}
	if (op < 10 && have_vr) {
		unsigned long a = (unsigned long)region +
				  rnd_below(REGION_LEN / PAGE_SZ) * PAGE_SZ;
		size_t len = (1 + rnd_below(3 * SLOT_PAGES)) * PAGE_SZ;
		long r;

		if (a + len > (unsigned long)region + REGION_LEN)
			len = (unsigned long)region + REGION_LEN - a;
		COUNT(queries_wild);
		errno = 0;
		r = sys_vrange(a, len, VRANGE_QUERY, NULL);
		if (!(r >= 0 && r <= (long)len) && !(r == -1 && errno == ENOMEM))
			report("wild query %#lx+%zu: %ld (%s)", a, len, r,
			       strerror(errno));
		return 0;
	}
	if (op >= 10 && op < 25)
		n = 1 + (int)rnd_below(3);
	hi = lo + n > NSLOTS ? NSLOTS : lo + n;
	if (!take(lo, hi))
		return 0;
	for (s = lo; s < hi; s++)
		any_hole |= slots[s].state == HOLE;
	if (op < 25) {
		/* Mark, or unmark, one to three slots. */
		if (!have_vr)
			err = check_slot(lo, "check");
		else if (rnd_below(2) && !any_hole)
			err = mark_slots(lo, hi);
		else
			err = unmark_slots(lo, hi);
	} else if (slots[lo].state == HOLE) {
		err = remap_slot(lo);
	} else if (op < 40) {
		err = check_slot(lo, "check");
	} else if (op < 50) {
		write_slot(lo);
	} else if (op < 55) {
		err = have_vr ? query_slot(lo) : 0;
	} else if (op < 63) {
		err = have_mf ? free_slot(lo) : 0;
	} else if (op < 73) {
		stress_pageout(slot_addr(lo), SLOT_LEN, 0);
		err = check_slot(lo, "after pageout");
	} else if (op < 80) {
		err = mprotect_slot(lo);
	} else if (op < 87) {
		err = mremap_slot(lo);
	} else if (op < 92) {
		err = unmap_slot(lo);
	} else if (op < 96) {
		err = fork_slot(lo);
	} else if (op < 98) {
		err = kernel_reads_slot(lo);
	} else {
		err = residency_of_slot(lo);
	}
	give_back(lo, hi);
	COUNT(ops);
	return err;
}

/*
 * Every mapping a worker makes besides its slots is made before any
 * thread starts: a slot-sized mmap() later could land in a slot that is
 * a hole just then (remap_slot() copes, but the slot is lost).
 */
static char *tmp_areas[MAX_THREADS];
static int pipes[MAX_THREADS][2];
static uint64_t worker_seed;
static int go;

static void *thread_main(void *arg)
{
	int i = (int)(uintptr_t)arg;

	rng = worker_seed * 1000003 + i;
	tmp_area = tmp_areas[i];
	tl_pipe[0] = pipes[i][0];
	tl_pipe[1] = pipes[i][1];
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		sched_yield();
	while (!st->stop && now_ns() < deadline_ns)
		if (one_op())
			break;
	return NULL;
}

static int worker(int nthreads, uint64_t seed, int thp)
{
	pthread_t th[MAX_THREADS];
	struct sigaction sa;
	int s, i, err = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigbus_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);

	/*
	 * Every other worker backs its region with transparent huge pages:
	 * marking, freeing, paging out, mprotecting or moving a slot then
	 * splits a huge page, and purging meets huge pages (SPEC 4.3).
	 */
	region = thp ? map_anon_aligned(REGION_LEN, HPAGE_SZ) : map_anon(REGION_LEN);
	if (region == MAP_FAILED) {
		report("mmap region: %s", strerror(errno));
		return 1;
	}
	if (thp && madvise(region, REGION_LEN, MADV_HUGEPAGE) == 0)
		COUNT(thp_workers);
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	for (s = 0; s < NSLOTS; s++) {
		pthread_mutex_init(&slots[s].lock, NULL);
		slots[s].gen = 1;
		slots[s].state = CLEAN;
		fill_slot(s);
	}
	for (i = 0; i < nthreads; i++) {
		tmp_areas[i] = mmap(NULL, SLOT_LEN, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (tmp_areas[i] == MAP_FAILED || pipe(pipes[i])) {
			report("mmap tmp: %s", strerror(errno));
			return 1;
		}
	}
	worker_seed = seed;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, thread_main,
				   (void *)(uintptr_t)i))
			return 1;
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < nthreads; i++)
		munmap(tmp_areas[i], SLOT_LEN);

	/* The end: every slot non-volatile and checked, then all unmapped. */
	rng = seed;
	for (s = 0; s < NSLOTS && !err; s++) {
		if (slots[s].state == DEAD)
			continue;
		held_lo = s;
		held_hi = s + 1;
		if (have_vr)
			err = unmark_slots(s, s + 1) || query_slot(s);
		if (!err)
			err = check_slot(s, "final");
		if (slots[s].state != HOLE)
			munmap(slot_addr(s), SLOT_LEN);
	}
	return err || st->errors;
}

/* --- the whole test ----------------------------------------------------- */

static void reclaimer(const struct memcg *cg)
{
	while (!st->stop && now_ns() < deadline_ns) {
		memcg_reclaim(cg, (1 + rnd_below(4)) << 20);
		COUNT(reclaims);
		usleep(20000);
	}
	_exit(0);
}

/* Drain every CPU's LRU batches (mlock() does lru_add_drain_all()) and
 * fold the per-CPU vmstat deltas, so the gauges are exact. */
static void settle(void)
{
	static char *page;

	if (!page)
		page = map_anon(PAGE_SZ);
	if (page != MAP_FAILED) {
		page[0] = 1;
		mlock(page, PAGE_SZ);
		munlock(page, PAGE_SZ);
	}
	vmstat_refresh();
}

/* The first active swap device in /proc/swaps, or "" when none is. */
static void active_swap_device(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/swaps", "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] == '/' && sscanf(line, "%127s", buf) == 1)
			break;
	fclose(f);
}

struct counters {
	long lazyfree, anon, swap_kb, vr_sigbus, vr_purged, lazyfreed;
};

/*
 * With swap active, cycle the device off and on before a snapshot: every
 * process's anon pages (init's and the other programs' too) are then in
 * memory and swap is empty, so nr_anon_pages and swap use are compared
 * between two equal states rather than moved by pages this test's own
 * swapoff brought back in for other processes.
 */
static void swap_cycle(void)
{
	char dev[128];

	if (!vmab_mode_has_swap())
		return;
	dev[0] = '\0';
	active_swap_device(dev, sizeof(dev));
	if (dev[0] && swapoff(dev) == 0 && swapon(dev, 0))
		printf("# swapon %s: %s\n", dev, strerror(errno));
}

static void read_counters(struct counters *c)
{
	swap_cycle();
	settle();
	c->lazyfree = vmstat_get("nr_lazyfree");
	c->anon = vmstat_get("nr_anon_pages");
	c->swap_kb = swap_used_kb();
	c->vr_sigbus = vmstat_get("pgvrange_sigbus");
	c->vr_purged = vmstat_get("pgvrange_purged");
	c->lazyfreed = vmstat_get("pglazyfreed");
}

/* Its six results, in the order it prints them. */
VMAB_NEEDS("stress_integrity", "");
VMAB_NEEDS("stress_lazyfree_gauge_balances", "madv_free");
VMAB_NEEDS("stress_no_leaked_anon_pages", "");
VMAB_NEEDS("stress_sigbus_counted", "vrange,CONFIG_VM_EVENT_COUNTERS");
VMAB_NEEDS("stress_no_leaked_swap", "swap");
VMAB_NEEDS("stress_did_work", "");

int main(int argc, char **argv)
{
	int seconds = 25, nprocs = 2, nthreads = 4, opt, i, failed = 0;
	int status, have_cg = 0, ok_lazy = 1, ok_anon, ok_sigbus = 1, ok_swap = 1;
	const char *env = getenv("VMAB_STRESS_SECONDS");
	uint64_t seed = now_ns() & 0xffffffffu, t0;
	struct counters c0, c1;
	pid_t pids[MAX_PROCS + 1];
	struct vmab_data d;
	struct memcg cg;
	double secs;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), slack, swap_slack;
	long lazyfree_max = -1, swapoffs = 0, swapoff_failed = 0;
	char swap_dev[128];
	uint64_t next_swapoff;
	int swap_lost = 0;

	if (env)
		seconds = atoi(env);
	while ((opt = getopt(argc, argv, "t:s:p:j:")) != -1) {
		switch (opt) {
		case 't': seconds = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': nprocs = atoi(optarg); break;
		case 'j': nthreads = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-s SEED] [-p PROCS] [-j THREADS]\n",
				argv[0]);
			return 2;
		}
	}
	if (nprocs < 1 || nprocs > MAX_PROCS)
		nprocs = 2;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		nthreads = 4;
	have_vr = vrange_supported();
	have_mf = madv_free_supported();
	ksft_print_header();
	ksft_set_plan(6);
	printf("# seed %llu, %d s, %d processes x %d threads, vrange %s, MADV_FREE %s, mode %s\n",
	       (unsigned long long)seed, seconds, nprocs, nthreads,
	       have_vr ? "yes" : "no", have_mf ? "yes" : "no", vmab_mode());
	fflush(stdout);

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st == MAP_FAILED) {
		printf("Bail out! mmap stats: %s\n", strerror(errno));
		return 1;
	}
	/* The workers and the reclaimer enter the cgroup, this process not:
	 * reclaim must not swap out the pages nr_anon_pages is compared on. */
	if (memcg_available() && memcg_create(&cg, "stress") == 0)
		have_cg = 1;
	/* Without them the run is smaller, not skipped: say what is left out. */
	if (!have_cg)
		printf("# no memory.reclaim reclaimer: %s\n",
		       need_memcg() ? need_memcg() : "memcg_create failed");
	if (need_thp())
		printf("# no MADV_HUGEPAGE workers: %s\n", need_thp());
	read_counters(&c0);

	deadline_ns = now_ns() + (uint64_t)seconds * 1000000000ull;
	t0 = now_ns();
	for (i = 0; i < nprocs; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			if (have_cg)
				memcg_enter(&cg);
			_exit(worker(nthreads, seed + i, (i & 1) && thp_enabled()));
		}
	}
	pids[nprocs] = have_cg ? fork() : -1;
	if (pids[nprocs] == 0) {
		memcg_enter(&cg);
		rng = seed ^ 0xabcdef;
		reclaimer(&cg);
	}
	/*
	 * Meanwhile, sample the gauge (it must have moved to mean anything)
	 * and, with swap, turn the swap device off and on every few seconds:
	 * swapoff walks every page table, purge markers and all (SPEC 4.3).
	 */
	swap_dev[0] = '\0';
	if (vmab_mode_has_swap())
		active_swap_device(swap_dev, sizeof(swap_dev));
	next_swapoff = now_ns() + 3000000000ull;
	while (now_ns() < deadline_ns) {
		long g = vmstat_get("nr_lazyfree");

		if (g > lazyfree_max)
			lazyfree_max = g;
		if (swap_dev[0] && now_ns() > next_swapoff &&
		    deadline_ns - now_ns() > 2000000000ull) {
			if (swapoff(swap_dev) == 0) {
				swapoffs++;
				if (swapon(swap_dev, 0)) {
					printf("# swapon %s after swapoff: %s\n",
					       swap_dev, strerror(errno));
					swap_lost = 1;
					swap_dev[0] = '\0';
				}
			} else {
				swapoff_failed++;
			}
			next_swapoff = now_ns() + 5000000000ull;
		}
		usleep(100000);
	}
	for (i = 0; i <= nprocs; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# process %d (%s) ended with status %#x\n",
			       (int)pids[i], i < nprocs ? "worker" : "reclaimer",
			       status);
			failed = 1;
		}
	}
	secs = (now_ns() - t0) / 1e9;
	/*
	 * A swap cache page whose entry exit could not free (its lock was
	 * busy) keeps the entry until reclaim drops it: reclaim what is left
	 * charged to the cgroup, so that what remains is the slot caches'.
	 */
	if (have_cg) {
		memcg_reclaim(&cg, 64ul << 20);
		memcg_destroy(&cg);
	}
	read_counters(&c1);
	/* The gauge may trail a freed page by a per-CPU batch: settle a while. */
	for (i = 0; i < 50 && c0.lazyfree >= 0 && c1.lazyfree != c0.lazyfree; i++) {
		usleep(20000);
		read_counters(&c1);
	}

	ksft_test_result(!failed && st->errors == 0 && !swap_lost, "stress_integrity\n");
	if (c0.lazyfree < 0)
		ksft_test_result_skip_named("stress_lazyfree_gauge_balances",
					    "no nr_lazyfree in /proc/vmstat (kernel without the gauge)");
	else
		ksft_test_result(ok_lazy = c1.lazyfree == c0.lazyfree,
				 "stress_lazyfree_gauge_balances\n");
	/*
	 * nr_anon_pages: the test's memory lived in child processes that
	 * have exited, so what is left is this process's own, as at the
	 * start; the parent only touched its stats page (shared, not anon)
	 * and one mlock()ed page in settle() (anon, counted in both reads).
	 * The rest of the guest is /init's shell, asleep in wait().  Slack:
	 * a page of stdio and stack growth per CPU.  A leak makes the count
	 * grow; it may also fall (seen once on plain 6.1, the none variant,
	 * swap-mglru: 73 to 48), as the swap cycle before each read brings
	 * back only what was swapped out and the rest of the guest is
	 * counted too.  So only growth fails; a fall is reported as data
	 * (nr_anon_pages_delta).  vrange_test checks its own mappings'
	 * anon pages exactly, where a wrong decrement would show.
	 */
	slack = 4 + 2 * cpus;
	ok_anon = c1.anon - c0.anon <= slack;
	ksft_test_result(ok_anon, "stress_no_leaked_anon_pages\n");
	if (!have_vr || c0.vr_sigbus < 0)
		ksft_test_result_skip_named("stress_sigbus_counted", "%s",
					    !have_vr ? "no vrange()" : "no pgvrange_sigbus in /proc/vmstat");
	else
		ksft_test_result(ok_sigbus = c1.vr_sigbus - c0.vr_sigbus == st->sigbus,
				 "stress_sigbus_counted\n");
	/*
	 * Swap: every worker's swap entries are freed when it exits, but each
	 * CPU's swap slot cache may hold up to SWAP_SLOTS_CACHE_SIZE (64)
	 * entries taken for allocation and as many freed ones not yet given
	 * back, at either read: the bound is 2 x 64 pages per CPU.
	 */
	swap_slack = 2 * 64 * cpus * (long)(PAGE_SZ / 1024);
	if (c0.swap_kb < 0 || !vmab_mode_has_swap())
		ksft_test_result_skip_named("stress_no_leaked_swap", "no swap device active");
	else
		ksft_test_result(ok_swap = labs(c1.swap_kb - c0.swap_kb) <= swap_slack,
				 "stress_no_leaked_swap\n");
	ksft_test_result(st->ops > 0, "stress_did_work\n");
	if (!ok_swap)
		printf("# swap used %ld kB at the start, %ld kB at the end (slack %ld kB)\n",
		       c0.swap_kb, c1.swap_kb, swap_slack);
	if (c0.lazyfree >= 0 && c1.lazyfree != c0.lazyfree)
		printf("# nr_lazyfree %ld at the start, %ld at the end\n",
		       c0.lazyfree, c1.lazyfree);
	if (!ok_anon)
		printf("# nr_anon_pages %ld at the start, %ld at the end (slack %ld)\n",
		       c0.anon, c1.anon, slack);
	if (have_vr && c0.vr_sigbus >= 0)
		printf("# pgvrange_sigbus +%ld, SIGBUS seen %ld\n",
		       c1.vr_sigbus - c0.vr_sigbus, st->sigbus);

	data_begin(&d, DKIND_STRESS);
	data_str(&d, DK_MODE, vmab_mode());
	data_double(&d, DK_SECONDS, secs);
	data_long(&d, DK_OPS, st->ops);
	data_long(&d, DK_SIGBUS, st->sigbus);
	data_long(&d, DK_ERRORS, st->errors);
	data_long(&d, DK_PROCESSES, nprocs);
	data_long(&d, DK_THREADS, nthreads);
	data_long(&d, DK_SEED, (long)seed);
	data_long(&d, DK_CHECKS, st->checks);
	data_long(&d, DK_MARKS, st->marks);
	data_long(&d, DK_UNMARKS, st->unmarks);
	data_long(&d, DK_UNMARKS_PURGED, st->unmarks_purged);
	data_long(&d, DK_QUERIES, st->queries + st->queries_wild);
	data_long(&d, DK_FREES, st->frees);
	data_long(&d, DK_WRITES, st->writes);
	data_long(&d, DK_PAGEOUTS, st->pageouts + st->pageouts_wild);
	data_long(&d, DK_MPROTECTS, st->mprotects);
	data_long(&d, DK_MREMAPS, st->mremaps);
	data_long(&d, DK_MUNMAPS, st->munmaps);
	data_long(&d, DK_FORKS, st->forks);
	data_long(&d, DK_MEMCG_RECLAIMS, st->reclaims);
	data_long(&d, DK_ZERO_PAGES, st->zero_pages);
	data_long(&d, DK_DEAD_SLOTS, st->dead_slots);
	data_long(&d, DK_MREMAP_REFUSED, st->mremap_unsupported);
	data_long(&d, DK_KERNEL_READS, st->kernel_reads);
	data_long(&d, DK_KERNEL_EFAULTS, st->kernel_efaults);
	data_long(&d, DK_RESIDENCY_CHECKS, st->residency);
	data_long(&d, DK_THP_WORKERS, st->thp_workers);
	data_long(&d, DK_NR_LAZYFREE_START, c0.lazyfree);
	data_long(&d, DK_NR_LAZYFREE_END, c1.lazyfree);
	data_long(&d, DK_NR_LAZYFREE_MAX, lazyfree_max);
	data_long(&d, DK_SWAPOFFS, swapoffs);
	data_long(&d, DK_SWAPOFF_FAILED, swapoff_failed);
	data_long(&d, DK_NR_ANON_PAGES_DELTA, c1.anon - c0.anon);
	data_long(&d, DK_SWAP_USED_KB_DELTA,
		  c0.swap_kb >= 0 && c1.swap_kb >= 0 ? c1.swap_kb - c0.swap_kb : 0);
	data_long(&d, DK_PGVRANGE_PURGED, c0.vr_purged >= 0 ? c1.vr_purged - c0.vr_purged : -1);
	data_long(&d, DK_PGVRANGE_SIGBUS, c0.vr_sigbus >= 0 ? c1.vr_sigbus - c0.vr_sigbus : -1);
	data_long(&d, DK_PGLAZYFREED, c0.lazyfreed >= 0 ? c1.lazyfreed - c0.lazyfreed : -1);
	data_long(&d, DK_VRANGE, have_vr);
	data_long(&d, DK_MADV_FREE, have_mf);
	data_emit(&d);
	return failed || st->errors || swap_lost || !ok_anon || !ok_lazy || !ok_sigbus || !ok_swap;
}
