// SPDX-License-Identifier: GPL-2.0
/*
 * bench_registry_reclaim: what processes that once called vrange() cost a
 * reclaim after they gave all their volatile memory back (review issue 30,
 * item 6).  Design A's purge pass walks the processes of its registry
 * before the LRU lists, and a process stays there until it exits, whether
 * or not it still holds volatile memory.
 *
 * In one memory cgroup (memory.swap.max 0 where the kernel has swap, so
 * that only file pages are reclaimed in every mode), three arms in turn:
 *   none        -n sleeping processes that never called vrange()
 *   former      -n sleeping processes, each of which marked one page of
 *               its own volatile and unmarked it again, then sleeps
 *   none_again  as none, to show how far the figures drift within a boot
 * In each arm, -r rounds of: the cgroup's -f file pages read again (the
 * swap disk's page cache, lib/filecache.c), then one memory.reclaim of -R
 * bytes, timed.  A process outside the cgroup holds one page marked
 * volatile, unwritten, through all arms: without any volatile VMA in the
 * system the pass does not run at all, and the registry costs nothing.
 * Three untimed rounds come first (the first reclaims of a boot were
 * slower by up to 2x).  The goal: former's median at most 1.1x the median
 * of none's and none_again's rounds together (one boot); a missed goal
 * is a figure (DK_VERDICT), not a failed test.  The TAP line fails only
 * when the setup or a call failed.
 *
 * Under TCG: 17-31 s a mode with the defaults (1,000 processes
 * forked three times, 9 rounds an arm).
 *
 * Usage: bench_registry_reclaim [-n PROCS] [-r ROUNDS] [-f FILE] [-R RECLAIM]
 *   defaults: 1000 processes, 9 rounds, 32M of file pages, 8M reclaimed
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

#include "ksft_named.h"
#include "vmab.h"

#define MAX_ROUNDS 32
#define MAX_PROCS 4000
#define GOAL_RATIO 1.1
#define WARMUP_ROUNDS 3

enum arm { ARM_NONE, ARM_FORMER, ARM_NONE_AGAIN, ARM_NR };
static const char *const arm_name[ARM_NR] = { "none", "former", "none_again" };

static struct {
	int procs, rounds;
	size_t file, reclaim;
} opt = { 1000, 9, 32UL << 20, 8UL << 20 };

struct figures {
	double ns[MAX_ROUNDS];
	long eagain, errors, pgscan_anon, pgscan_file;
	long file_kb;	/* memory.stat file after the first fill */
};

static pid_t sleepers[MAX_PROCS];

/*
 * opt.procs children of this process (so in its cgroup) that sleep until
 * killed; each former user first marks and unmarks one page of its own.
 * 0 once all are asleep, -1 if one could not be started or its vrange()
 * failed.
 */
static int start_sleepers(int former)
{
	char *page = map_anon(PAGE_SZ);
	int fd[2], i, ok = 0;
	char c;

	if (page == MAP_FAILED || pipe(fd))
		return -1;
	for (i = 0; i < opt.procs; i++) {
		sleepers[i] = fork();
		if (sleepers[i] == 0) {
			int purged = -1;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(fd[0]);
			if (former &&
			    (sys_vrange((unsigned long)page, PAGE_SZ, VRANGE_VOLATILE, NULL) != PAGE_SZ ||
			     sys_vrange((unsigned long)page, PAGE_SZ, VRANGE_NONVOLATILE, &purged) != PAGE_SZ))
				_exit(1);
			if (write(fd[1], "r", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
		if (sleepers[i] < 0)
			break;
	}
	close(fd[1]);
	while (ok < i && read(fd[0], &c, 1) == 1)
		ok++;
	close(fd[0]);
	munmap(page, PAGE_SZ);
	return ok == opt.procs ? 0 : -1;
}

static void stop_sleepers(void)
{
	int i;

	for (i = 0; i < opt.procs; i++)
		if (sleepers[i] > 0)
			kill(sleepers[i], SIGKILL);
	for (i = 0; i < opt.procs; i++)
		if (sleepers[i] > 0)
			waitpid(sleepers[i], NULL, 0);
	memset(sleepers, 0, sizeof(sleepers));
}

static void run_arm(enum arm a, const struct memcg *cg, struct figures *f)
{
	long anon0, file0;
	int r;

	if (start_sleepers(a == ARM_FORMER)) {
		printf("# %s: could not start %d sleeping processes\n", arm_name[a], opt.procs);
		f->errors++;
		stop_sleepers();
		return;
	}
	anon0 = vmstat_get("pgscan_anon");
	file0 = vmstat_get("pgscan_file");
	for (r = 0; r < opt.rounds; r++) {
		uint64_t t0;
		int rc;

		if (filecache_fill(opt.file)) {
			f->errors++;
			break;
		}
		if (!r)
			f->file_kb = memcg_stat(cg, "file") >> 10;
		t0 = fine_ns();
		rc = memcg_reclaim(cg, opt.reclaim);
		f->ns[r] = fine_ns() - t0;
		f->eagain += rc == -EAGAIN;
		f->errors += rc && rc != -EAGAIN;
	}
	f->pgscan_anon = vmstat_get("pgscan_anon") - anon0;
	f->pgscan_file = vmstat_get("pgscan_file") - file0;
	stop_sleepers();
}

static void emit_arm(enum arm a, const struct figures *f)
{
	struct vmab_data dd;

	data_begin_bench(&dd, "registry_reclaim", "vrange", arm_name[a]);
	data_long(&dd, DK_PROCESSES, opt.procs);
	data_long(&dd, DK_ROUNDS, opt.rounds);
	data_long(&dd, DK_SIZE, (long)opt.reclaim);
	data_long(&dd, DK_FILE_KB, (long)(opt.file >> 10));
	data_double(&dd, DK_NS_MEDIAN, median(f->ns, opt.rounds));
	data_long(&dd, DK_RECLAIM_SHORT, f->eagain);
	data_long(&dd, DK_PGSCAN_ANON, f->pgscan_anon);
	data_long(&dd, DK_PGSCAN_FILE, f->pgscan_file);
	data_long(&dd, DK_MEMCG_PREFIX "file_kb", f->file_kb);
	data_long(&dd, DK_ERRORS, f->errors);
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_emit(&dd);
	printf("# %s: memory.reclaim of %zu bytes, median %.2f ms over %d rounds (%ld short of it)\n",
	       arm_name[a], opt.reclaim, median(f->ns, opt.rounds) / 1e6, opt.rounds, f->eagain);
}

VMAB_NEEDS("registry_reclaim", "vrange,memcg,CONFIG_SWAP");

int main(int argc, char **argv)
{
	static struct figures fig[ARM_NR];
	static double pooled[2 * MAX_ROUNDS];
	const char *why = NULL;
	int c, a, bad = 0, got = 0;
	double ratio, drift;
	struct vmab_data dd;
	struct memcg cg;
	pid_t holder;

	while ((c = getopt(argc, argv, "n:r:f:R:")) != -1) {
		switch (c) {
		case 'n': opt.procs = atoi(optarg); break;
		case 'r': opt.rounds = atoi(optarg); break;
		case 'f': bad |= parse_size(optarg, &opt.file); break;
		case 'R': bad |= parse_size(optarg, &opt.reclaim); break;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || opt.procs < 1 || opt.procs > MAX_PROCS ||
	    opt.rounds < 1 || opt.rounds > MAX_ROUNDS || opt.reclaim > opt.file) {
		fprintf(stderr, "usage: %s [-n PROCS (1-%d)] [-r ROUNDS (1-%d)] [-f FILE] [-R RECLAIM <= FILE]\n",
			argv[0], MAX_PROCS, MAX_ROUNDS);
		return 2;
	}
	ksft_print_header();
	ksft_set_plan(1);
	fine_ns();
	printf("# mode %s, variant %s: memory.reclaim of %zu bytes of %zu of file pages, %d processes, %d rounds an arm, clock %s\n",
	       vmab_mode(), vmab_variant(), opt.reclaim, opt.file, opt.procs, opt.rounds,
	       fine_clock_name());
	why = first_need(3, design_absent(DESIGN_VRANGE), need_memcg(), need_file_pages());
	if (why) {
		ksft_test_result_skip_named("registry_reclaim", "%s", why);
		return 0;
	}
	holder = start_volatile_holder(PAGE_SZ, &got);
	if (!got || memcg_create(&cg, "registry") || memcg_enter(&cg) ||
	    (memcg_read_long(&cg, "memory.swap.max") != -1 &&
	     memcg_write(&cg, "memory.swap.max", "0")) || filecache_drop()) {
		printf("# setup failed: holder %d, %s\n", got, strerror(errno));
		stop_hog(holder);
		ksft_test_result(0, "registry_reclaim\n");
		return 0;
	}
	/* Untimed rounds first: the first reclaims of a boot are the slowest. */
	for (c = 0; c < WARMUP_ROUNDS; c++) {
		int rc = filecache_fill(opt.file);

		if (rc || ((rc = memcg_reclaim(&cg, opt.reclaim)) && rc != -EAGAIN))
			bad = 1;
	}
	for (a = 0; a < ARM_NR; a++) {
		run_arm(a, &cg, &fig[a]);
		emit_arm(a, &fig[a]);
		bad |= fig[a].errors != 0;
	}
	filecache_drop();
	memcg_leave();
	memcg_destroy(&cg);
	stop_hog(holder);

	/* The control: both arms without former users, pooled. */
	memcpy(pooled, fig[ARM_NONE].ns, opt.rounds * sizeof(double));
	memcpy(pooled + opt.rounds, fig[ARM_NONE_AGAIN].ns, opt.rounds * sizeof(double));
	ratio = median(fig[ARM_FORMER].ns, opt.rounds) / median(pooled, 2 * opt.rounds);
	drift = median(fig[ARM_NONE_AGAIN].ns, opt.rounds) / median(fig[ARM_NONE].ns, opt.rounds);
	data_begin_bench(&dd, "registry_reclaim", "vrange", "goal");
	data_double(&dd, DK_RATIO, ratio);
	data_double(&dd, DK_CONTROL_RATIO, drift);
	data_double(&dd, DK_GOAL_RATIO, GOAL_RATIO);
	data_str(&dd, DK_VERDICT, bad ? "error" : ratio <= GOAL_RATIO ? "met" : "missed");
	data_emit(&dd);
	printf("# former/none: %.2fx (none and none_again pooled; none_again/none %.2fx): goal %.1fx %s\n",
	       ratio, drift, GOAL_RATIO, ratio <= GOAL_RATIO ? "met" : "MISSED");
	ksft_test_result(!bad, "registry_reclaim\n");
	return 0;
}
