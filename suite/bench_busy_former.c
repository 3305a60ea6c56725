// SPDX-License-Identifier: GPL-2.0
/*
 * bench_busy_former: does a busy process that once called vrange() make
 * reclaim without swap scan anonymous memory (review issue 30, item 6)?
 * Design A's purge pass passes over a registered process whose mmap_lock
 * it cannot take, and says so (vrange_unreached), and the reclaim then
 * scans the anon LRU lists even without swap, for volatile pages the pass
 * could not reach, though that process holds none.  A process stays
 * registered until it exits.
 *
 * Two arms in turn, each in a memory cgroup of its own with no swap
 * (memory.swap.max 0 where the kernel has swap) holding -f of file pages
 * (the swap disk's page cache, lib/filecache.c) and one busy process:
 *   never   the busy process never called vrange()
 *   former  it marked one page volatile and unmarked it first
 * The busy process writes 16 MiB of its own, then in a loop: makes them
 * read-only and writable again (mprotect() holds the mmap_lock for writing
 * over every pte), maps 256 one-page mappings (every other one read-only,
 * so that they stay separate VMAs), writes the writable ones and unmaps
 * them all: its VMAs are charged to the cgroup, and allocated under its
 * mmap_lock.  For -d seconds, every 100 ms, the cgroup's
 * memory.max is set to what it uses (so the busy process's charges make it
 * reclaim, inside mmap() and munmap() too) and memory.reclaim takes 256
 * KiB of it.  A process outside the cgroup holds one page marked volatile,
 * unwritten, through both arms (without any volatile VMA in the system
 * the pass does not run).  The goal: pgscan_anon (/proc/vmstat; 6.1 has
 * it) moves by 0 in the former arm, as it does in the never arm: a
 * count, not a time, so it is asserted (the TAP line fails when it
 * moves) as well as recorded (DK_VERDICT).
 *
 * Under TCG: about 10 s a mode with the defaults.
 *
 * Usage: bench_busy_former [-d SECONDS] [-f FILE]
 *   defaults: 3 s, 32M of file pages
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define BUSY_MAPS 256
#define BUSY_REGION (16UL << 20)
#define TICK_US 100000

enum arm { ARM_NEVER, ARM_FORMER, ARM_NR };
static const char *const arm_name[ARM_NR] = { "never", "former" };

static struct {
	double seconds;
	size_t file;
} opt = { 3, 32UL << 20 };

struct figures {
	long pgscan_anon, pgscan_file, pgsteal_file, loops, ticks, errors;
};

/* The busy process's loop; the loops it made go to fd when told to stop. */
static void busy(int former, int ready, int stop, int report)
{
	static char *maps[BUSY_MAPS];
	char *region;
	long loops = 0;
	char c;
	int i;

	if (former) {
		char *page = map_anon(PAGE_SZ);
		int purged = -1;

		if (page == MAP_FAILED ||
		    sys_vrange((unsigned long)page, PAGE_SZ, VRANGE_VOLATILE, NULL) != PAGE_SZ ||
		    sys_vrange((unsigned long)page, PAGE_SZ, VRANGE_NONVOLATILE, &purged) != PAGE_SZ)
			_exit(1);
		munmap(page, PAGE_SZ);
	}
	region = map_anon(BUSY_REGION);
	if (region == MAP_FAILED || no_hugepage(region, BUSY_REGION))
		_exit(1);
	touch_write(region, BUSY_REGION);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	while (read(stop, &c, 1) < 0 && errno == EAGAIN) {
		/* The write lock held over every pte of the region. */
		mprotect(region, BUSY_REGION, PROT_READ);
		mprotect(region, BUSY_REGION, PROT_READ | PROT_WRITE);
		for (i = 0; i < BUSY_MAPS; i++) {
			int prot = i % 2 ? PROT_READ : PROT_READ | PROT_WRITE;

			maps[i] = mmap(NULL, PAGE_SZ, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (maps[i] != MAP_FAILED && !(i % 2))
				maps[i][0] = 1;
		}
		for (i = 0; i < BUSY_MAPS; i++)
			if (maps[i] != MAP_FAILED)
				munmap(maps[i], PAGE_SZ);
		loops++;
	}
	_exit(write(report, &loops, sizeof(loops)) == sizeof(loops) ? 0 : 1);
}

static void run_arm(enum arm a, struct figures *f)
{
	int ready[2], stop[2], report[2];
	long anon0, file0, steal0, cur;
	struct memcg cg;
	uint64_t end;
	char c, val[32];
	pid_t pid;

	if (memcg_create(&cg, arm_name[a]) ||
	    (memcg_read_long(&cg, "memory.swap.max") != -1 &&
	     memcg_write(&cg, "memory.swap.max", "0")) ||
	    pipe(ready) || pipe(stop) || pipe(report)) {
		f->errors++;
		return;
	}
	/* The file pages, charged to the cgroup. */
	if (memcg_enter(&cg) || filecache_drop() || filecache_fill(opt.file) || memcg_leave())
		f->errors++;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(stop[1]);
		close(report[0]);
		if (memcg_enter(&cg) || fcntl(stop[0], F_SETFL, O_NONBLOCK))
			_exit(1);
		busy(a == ARM_FORMER, ready[1], stop[0], report[1]);
	}
	close(ready[1]);
	close(stop[0]);
	close(report[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		f->errors++;
		goto out;
	}
	anon0 = vmstat_get("pgscan_anon");
	file0 = vmstat_get("pgscan_file");
	steal0 = vmstat_get("pgsteal_file");
	end = now_ns() + (uint64_t)(opt.seconds * 1e9);
	while (now_ns() < end) {
		cur = memcg_read_long(&cg, "memory.current");
		snprintf(val, sizeof(val), "%ld", cur);
		if (cur <= 0 || memcg_write(&cg, "memory.max", val))
			f->errors++;
		memcg_reclaim(&cg, 256UL << 10);	/* -EAGAIN: not all of it */
		f->ticks++;
		usleep(TICK_US);
	}
	f->pgscan_anon = vmstat_get("pgscan_anon") - anon0;
	f->pgscan_file = vmstat_get("pgscan_file") - file0;
	f->pgsteal_file = vmstat_get("pgsteal_file") - steal0;
	memcg_write(&cg, "memory.max", "max");
	if (write(stop[1], "s", 1) != 1 ||
	    read(report[0], &f->loops, sizeof(f->loops)) != sizeof(f->loops))
		f->errors++;
out:
	close(ready[0]);
	close(stop[1]);
	close(report[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	memcg_enter(&cg);
	filecache_drop();
	memcg_leave();
	memcg_destroy(&cg);
}

static void emit_arm(enum arm a, const struct figures *f)
{
	struct vmab_data dd;

	data_begin_bench(&dd, "busy_former", "vrange", arm_name[a]);
	data_double(&dd, DK_SECONDS, opt.seconds);
	data_long(&dd, DK_FILE_KB, (long)(opt.file >> 10));
	data_long(&dd, DK_TICKS, f->ticks);
	data_long(&dd, DK_BUSY_LOOPS, f->loops);
	data_long(&dd, DK_PGSCAN_ANON, f->pgscan_anon);
	data_long(&dd, DK_PGSCAN_FILE, f->pgscan_file);
	data_long(&dd, DK_PGSTEAL_FILE, f->pgsteal_file);
	data_long(&dd, DK_ERRORS, f->errors);
	data_emit(&dd);
	printf("# %s: pgscan_anon +%ld, pgscan_file +%ld, pgsteal_file +%ld over %ld ticks, %ld busy loops\n",
	       arm_name[a], f->pgscan_anon, f->pgscan_file, f->pgsteal_file, f->ticks, f->loops);
}

VMAB_NEEDS("busy_former", "vrange,memcg,CONFIG_SWAP");

int main(int argc, char **argv)
{
	static struct figures fig[ARM_NR];
	const char *why = NULL, *verdict;
	int c, a, bad = 0, got = 0;
	struct vmab_data dd;
	pid_t holder;

	while ((c = getopt(argc, argv, "d:f:")) != -1) {
		switch (c) {
		case 'd': opt.seconds = atof(optarg); break;
		case 'f': bad |= parse_size(optarg, &opt.file); break;
		default: bad = 1;
		}
	}
	if (bad || optind < argc || opt.seconds <= 0 || opt.seconds > 60 || opt.file < (1UL << 20)) {
		fprintf(stderr, "usage: %s [-d SECONDS (0-60)] [-f FILE (1M at least)]\n", argv[0]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);	/* a busy process killed: an error, not our death */
	ksft_print_header();
	ksft_set_plan(1);
	printf("# mode %s, variant %s: %.1f s of reclaim in a cgroup without swap holding %zu bytes of file pages and a busy process\n",
	       vmab_mode(), vmab_variant(), opt.seconds, opt.file);
	why = first_need(3, design_absent(DESIGN_VRANGE), need_memcg(), need_file_pages());
	if (why) {
		ksft_test_result_skip_named("busy_former", "%s", why);
		return 0;
	}
	holder = start_volatile_holder(PAGE_SZ, &got);
	if (!got) {
		printf("# the holder of a volatile page did not start\n");
		stop_hog(holder);
		ksft_test_result(0, "busy_former\n");
		return 0;
	}
	for (a = 0; a < ARM_NR; a++) {
		run_arm(a, &fig[a]);
		emit_arm(a, &fig[a]);
		bad |= fig[a].errors != 0;
	}
	stop_hog(holder);
	verdict = bad ? "error" : fig[ARM_FORMER].pgscan_anon == 0 ? "met" : "missed";
	data_begin_bench(&dd, "busy_former", "vrange", "goal");
	data_long(&dd, DK_PGSCAN_ANON, fig[ARM_FORMER].pgscan_anon);
	data_str(&dd, DK_VERDICT, verdict);
	data_emit(&dd);
	printf("# pgscan_anon with a busy former user: +%ld (never: +%ld): goal 0 %s\n",
	       fig[ARM_FORMER].pgscan_anon, fig[ARM_NEVER].pgscan_anon,
	       !strcmp(verdict, "met") ? "met" : "MISSED");
	ksft_test_result(!bad && fig[ARM_FORMER].pgscan_anon == 0, "busy_former\n");
	return 0;
}
