// SPDX-License-Identifier: GPL-2.0
/*
 * bench_chunk_unmark: vrange(NONVOLATILE) of a chunk of a big volatile VMA
 * (SPEC 4.5; review issue 30, item 8).  The unmark is O(1) only when the
 * VMA's walk bit (vm_vrange_walk) is clear; the bit is copied into both
 * halves of a split and ORed back by a merge, so a heap VMA that once had a
 * page lazily freed may make every later chunk unmark walk its page tables.
 *
 * Two arms, each in a child of its own (one process's history must not
 * reach the other's), each with a -v mapping (default 1 GiB, THP off) of
 * which only the -c chunk in its middle (default 64 MiB) and its first
 * two pages are written:
 *   fresh  nothing else happened to the mapping
 *   used   before marking, its first page was swapped out (MADV_PAGEOUT;
 *          in a mode with swap; the record's pswpout says it was) and its
 *          second lazily freed (MADV_FREE, where the kernel has it)
 * Each repeat: vrange(VOLATILE) of the whole mapping (the chunk's VMA merges
 * back into it), then timed: getppid() (the null-call control, as in
 * bench_mark: under TCG a null call itself slows as the process touches
 * more memory), then vrange(NONVOLATILE) of the chunk, which must report
 * nothing purged.  The goal: used/fresh of the medians at most 2, as it is
 * or divided by the control's used/fresh (how the report judges
 * bench_mark's flatness).  A missed goal is a figure (DK_VERDICT), not a
 * failed test; the TAP line fails only when a call did not do what it
 * must.
 *
 * Usage: bench_chunk_unmark [-v VMA] [-c CHUNK] [-r REPS]
 *   defaults: 1G, 64M, 15 repeats
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

#define MAX_REPS 64
#define GOAL_RATIO 2.0

enum arm { ARM_FRESH, ARM_USED, ARM_NR };
static const char *const arm_name[ARM_NR] = { "fresh", "used" };

static struct {
	size_t vma, chunk;
	int reps;
} opt = { 1UL << 30, 64UL << 20, 15 };

/* What a child sends back through its pipe. */
struct arm_result {
	double unmark_ns[MAX_REPS], control_ns[MAX_REPS];
	double first_unmark_ns;
	int n;
	long swapped, lazyfree_errno, errors;
	long vmas_after_unmark;	/* the first unmark's VMAs, less the mapping's before it */
};

/* One arm, in the calling child; the figures go to *res. */
static void run_arm(enum arm a, struct arm_result *res)
{
	size_t off = (opt.vma / 2 - opt.chunk / 2) & ~(PAGE_SZ - 1);
	char *p = map_anon(opt.vma), *chunk;
	int rep, purged, vmas_before = 0;
	long r;

	if (p == MAP_FAILED || no_hugepage(p, opt.vma)) {
		printf("# %s: mapping %zu bytes: %s\n", arm_name[a], opt.vma, strerror(errno));
		res->errors++;
		return;
	}
	chunk = p + off;
	memset(chunk, 1, opt.chunk);
	p[0] = p[PAGE_SZ] = 1;
	if (a == ARM_USED) {
		long out0 = vmstat_get("pswpout");

		/* Written to swap; mincore() still sees it in the swap cache. */
		if (vmab_mode_has_swap() && pageout(p, PAGE_SZ) == 0)
			res->swapped = vmstat_get("pswpout") - out0;
		res->lazyfree_errno = madvise(p + PAGE_SZ, PAGE_SZ, MADV_FREE) ? errno : 0;
	}
	for (rep = 0; rep < opt.reps; rep++) {
		uint64_t t0, t1, t2;

		if (!rep)
			vmas_before = count_vmas();
		if (sys_vrange((unsigned long)p, opt.vma, VRANGE_VOLATILE, NULL) != (long)opt.vma) {
			printf("# %s: VOLATILE: %s\n", arm_name[a], strerror(errno));
			res->errors++;
			return;
		}
		purged = -1;
		t0 = fine_ns();
		syscall(SYS_getppid);
		t1 = fine_ns();
		r = sys_vrange((unsigned long)chunk, opt.chunk, VRANGE_NONVOLATILE, &purged);
		t2 = fine_ns();
		if (r != (long)opt.chunk || purged != 0) {
			printf("# %s: NONVOLATILE of the chunk: %ld, purged %d (%s)\n",
			       arm_name[a], r, purged, strerror(errno));
			res->errors++;
			return;
		}
		res->control_ns[rep] = t1 - t0;
		res->unmark_ns[rep] = t2 - t1;
		if (!rep) {
			res->first_unmark_ns = t2 - t1;
			res->vmas_after_unmark = count_vmas() - vmas_before;
		}
		res->n = rep + 1;
	}
	/* The chunk kept its data (nothing purged without pressure). */
	if (chunk[0] != 1 || chunk[opt.chunk - 1] != 1) {
		printf("# %s: the chunk lost its data\n", arm_name[a]);
		res->errors++;
	}
}

/* Run one arm in a child; 0, or -1 if the child died or sent nothing. */
static int arm_in_child(enum arm a, struct arm_result *res)
{
	int fd[2], status;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct arm_result mine = { .n = 0 };

		close(fd[0]);
		run_arm(a, &mine);
		_exit(write(fd[1], &mine, sizeof(mine)) == sizeof(mine) ? 0 : 1);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], res, sizeof(*res)) != sizeof(*res)) {
		close(fd[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return -1;
	}
	close(fd[0]);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static void emit_arm(enum arm a, const struct arm_result *res)
{
	struct vmab_data dd;

	data_begin_bench(&dd, "chunk_unmark", "vrange", arm_name[a]);
	data_long(&dd, DK_SIZE, (long)opt.vma);
	data_long(&dd, DK_CHUNK_KB, (long)(opt.chunk >> 10));
	data_long(&dd, DK_REPS, res->n);
	data_double(&dd, DK_NS_MEDIAN, median(res->unmark_ns, res->n));
	data_double(&dd, DK_NS_FIRST, res->first_unmark_ns);
	data_double(&dd, DK_NS_CONTROL_MEDIAN, median(res->control_ns, res->n));
	data_long(&dd, DK_VMAS_DELTA_AFTER_UNMARK, res->vmas_after_unmark);
	if (a == ARM_USED) {
		data_long(&dd, DK_PSWPOUT, res->swapped);
		data_long(&dd, DK_MADV_FREE_ERRNO, res->lazyfree_errno);
	}
	data_long(&dd, DK_ERRORS, res->errors);
	data_str(&dd, DK_THP, "never");
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_emit(&dd);
}

VMAB_NEEDS("chunk_unmark_vrange", "vrange");

int main(int argc, char **argv)
{
	struct arm_result res[ARM_NR];
	double ratio, control, adjusted;
	int c, a, bad = 0, failed = 0;
	struct vmab_data dd;
	const char *why;

	while ((c = getopt(argc, argv, "v:c:r:")) != -1) {
		switch (c) {
		case 'v': bad |= parse_size(optarg, &opt.vma); break;
		case 'c': bad |= parse_size(optarg, &opt.chunk); break;
		case 'r': opt.reps = atoi(optarg); break;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || opt.reps < 1 || opt.reps > MAX_REPS ||
	    opt.chunk < PAGE_SZ || opt.vma < opt.chunk + 4 * PAGE_SZ) {
		fprintf(stderr, "usage: %s [-v VMA] [-c CHUNK < VMA] [-r REPS (1-%d)]\n",
			argv[0], MAX_REPS);
		return 2;
	}
	opt.chunk -= opt.chunk % PAGE_SZ;
	ksft_print_header();
	ksft_set_plan(1);
	fine_ns();	/* calibrates once, before the children fork */
	printf("# mode %s, variant %s: NONVOLATILE of %zu bytes in a volatile mapping of %zu, %d repeats, clock %s\n",
	       vmab_mode(), vmab_variant(), opt.chunk, opt.vma, opt.reps, fine_clock_name());
	why = design_absent(DESIGN_VRANGE);
	if (why) {
		ksft_test_result_skip_named("chunk_unmark_vrange", "%s", why);
		return 0;
	}
	for (a = 0; a < ARM_NR; a++) {
		if (arm_in_child(a, &res[a]) || res[a].errors || res[a].n < 1) {
			printf("# arm %s failed (%d repeats)\n", arm_name[a], res[a].n);
			failed = 1;
			continue;
		}
		emit_arm(a, &res[a]);
	}
	if (failed) {
		ksft_test_result(0, "chunk_unmark_vrange\n");
		return 0;
	}
	ratio = median(res[ARM_USED].unmark_ns, res[ARM_USED].n) /
		median(res[ARM_FRESH].unmark_ns, res[ARM_FRESH].n);
	control = median(res[ARM_USED].control_ns, res[ARM_USED].n) /
		  median(res[ARM_FRESH].control_ns, res[ARM_FRESH].n);
	adjusted = control > 0 ? ratio / control : ratio;
	data_begin_bench(&dd, "chunk_unmark", "vrange", "goal");
	data_double(&dd, DK_RATIO, ratio);
	data_double(&dd, DK_CONTROL_RATIO, control);
	data_double(&dd, DK_RATIO_ADJUSTED, adjusted);
	data_double(&dd, DK_GOAL_RATIO, GOAL_RATIO);
	data_str(&dd, DK_VERDICT, ratio <= GOAL_RATIO || adjusted <= GOAL_RATIO ? "met" : "missed");
	data_emit(&dd);
	printf("# used/fresh: %.2fx (getppid control %.2fx, adjusted %.2fx): goal %.1fx %s\n",
	       ratio, control, adjusted, GOAL_RATIO,
	       ratio <= GOAL_RATIO || adjusted <= GOAL_RATIO ? "met" : "MISSED");
	ksft_test_result(1, "chunk_unmark_vrange\n");
	return 0;
}
