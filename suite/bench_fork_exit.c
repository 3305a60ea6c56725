// SPDX-License-Identifier: GPL-2.0
/*
 * bench_fork_exit: what a kernel with design A costs a fork() and an exit
 * of processes that never use it (review issue 30, item 6): every fork()
 * looks its parent up in the registry of processes that used vrange()
 * (vrange_dup_mmap()), every last mmput() erases the mm from it
 * (vrange_exit_mm(), the xarray's lock).  Nothing in this program calls
 * vrange().
 *
 * -r rounds of -n iterations of fork(), the child's _exit(0), waitpid(),
 * by a process pinned to CPU 0 (the child too) with -m bytes of private memory written (page tables and
 * pages for fork() to copy); the figure is the median over the rounds of
 * the time per iteration.  The goal, a CONFIG_VRANGE=y kernel within 2% of
 * CONFIG_VRANGE=n, cannot be judged in one boot: the record carries the
 * figure and whether this kernel has vrange(), and the report compares the
 * `both` variant's run with the `madv-free` variant's (the same kernel
 * without design A); the record's verdict says so ("across_boots").
 *
 * Under TCG: 2-10 s a mode with the defaults, with the host's load.
 *
 * Usage: bench_fork_exit [-n ITERATIONS] [-r ROUNDS] [-m PARENT]
 *   defaults: 100 iterations, 7 rounds, 4M
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

#define MAX_ROUNDS 32
#define GOAL_RATIO 1.02

VMAB_NEEDS("fork_exit", "");

int main(int argc, char **argv)
{
	static double ns[MAX_ROUNDS];
	int c, r, i, bad = 0, errors = 0, iters = 100, rounds = 7;
	size_t parent = 4UL << 20;
	struct vmab_data dd;
	char *mem = NULL;

	while ((c = getopt(argc, argv, "n:r:m:")) != -1) {
		switch (c) {
		case 'n': iters = atoi(optarg); break;
		case 'r': rounds = atoi(optarg); break;
		case 'm': bad |= parse_size(optarg, &parent); break;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || iters < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: %s [-n ITERATIONS] [-r ROUNDS (1-%d)] [-m PARENT]\n",
			argv[0], MAX_ROUNDS);
		return 2;
	}
	ksft_print_header();
	ksft_set_plan(1);
	/*
	 * Parent and child on one CPU: under TCG a wake-up of the other CPU
	 * took milliseconds, and that is not what a fork costs.
	 */
	pin_to_cpu0();
	fine_ns();
	printf("# mode %s, variant %s: %d rounds of %d fork()+exit, %zu bytes written in the parent, vrange() %s, clock %s\n",
	       vmab_mode(), vmab_variant(), rounds, iters, parent,
	       vrange_supported() ? "present" : "absent", fine_clock_name());
	if (parent) {
		mem = map_anon(parent);
		if (mem == MAP_FAILED || no_hugepage(mem, parent)) {
			ksft_test_result(0, "fork_exit # mapping: %s\n", strerror(errno));
			return 0;
		}
		touch_write(mem, parent);
	}
	for (r = 0; r < rounds; r++) {
		uint64_t t0 = fine_ns();

		for (i = 0; i < iters; i++) {
			int status;
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status) || WEXITSTATUS(status))
				errors++;
		}
		ns[r] = (double)(fine_ns() - t0) / iters;
	}
	data_begin_bench(&dd, "fork_exit", NULL, NULL);
	data_long(&dd, DK_VRANGE_KERNEL, vrange_supported());
	data_long(&dd, DK_ITERATIONS, iters);
	data_long(&dd, DK_ROUNDS, rounds);
	data_long(&dd, DK_PARENT_KB, (long)(parent >> 10));
	data_double(&dd, DK_NS_PER_ITER, median(ns, rounds));
	data_double(&dd, DK_GOAL_RATIO, GOAL_RATIO);
	data_str(&dd, DK_VERDICT, "across_boots");
	data_long(&dd, DK_ERRORS, errors);
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_emit(&dd);
	printf("# fork()+exit: median %.1f us an iteration over %d rounds; the goal (CONFIG_VRANGE=y within %.0f%% of =n) is judged across boots\n",
	       median(ns, rounds) / 1e3, rounds, (GOAL_RATIO - 1) * 100);
	ksft_test_result(!errors, "fork_exit\n");
	return 0;
}
