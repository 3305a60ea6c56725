// SPDX-License-Identifier: GPL-2.0
/*
 * bench_oom: how quickly an OOM comes in a memory cgroup without swap while
 * another process holds memory it marked (SPEC 4.5, 9).  Memory marked in
 * one process must not delay an OOM kill elsewhere: the kernel's reclaim
 * there has nothing to take, and whatever it does for marked memory it
 * cannot reach is time the allocator spends retrying before the kill.
 *
 * In each round, one design after the other (so that a change in the
 * background load hits all of them; each round starts one design further
 * on, so that none is always first):
 *   a holder process fills -v bytes and marks them in the design
 *     none       plain memory: nothing marked anywhere (the control)
 *     madv_free  MADV_FREE
 *     vrange     vrange(VOLATILE)
 *     droppable  a MAP_DROPPABLE mapping, written: droppable from the
 *                mmap() on, nothing to mark
 *   a victim child in a memory cgroup of its own, memory.swap.max 0, fills
 *   -H bytes; then memory.reclaim of that size (nothing can be taken) and
 *   memory.max 1M: timed from memory.reclaim to the victim's death (which
 *   includes the OOM report the kernel prints on the console, the same
 *   in every design);
 *   the holder then takes its memory back and counts the pages it lost.
 * Reported per design: the median time and its spread, the median of each
 * round's ratio to the control's time in the same round (the goal: 1.25 at
 * most, the report judges it), pgscan_anon over the OOMs (no swap to go
 * to: must be 0), pages the holder lost (must be 0), kills (one a round).
 *
 * Usage: bench_oom [-r ROUNDS] [-v MARKED] [-H HOG]
 *   defaults: 15 rounds, 16M marked, 8M in the victim
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ksft_named.h"
#include "vmab.h"

#define MAX_ROUNDS 32
#define HOLDER_SEED 0x686f6c64u
#define VICTIM_SEED 0x7669636bu

/*
 * The runs: nothing marked (the control), then designs B, A and C of
 * lib/designs.h; each holder's memory is its design's mapping (C's a
 * droppable one, whose give_back and take_back do nothing).
 */
enum design { D_NONE, D_MADV_FREE, D_VRANGE, D_DROPPABLE, D_NR };
static const int run_design_id[D_NR] = { -1, DESIGN_MADV_FREE, DESIGN_VRANGE, DESIGN_DROPPABLE };

static const char *run_name(enum design d)
{
	return run_design_id[d] < 0 ? "none" : designs[run_design_id[d]].name;
}

static struct {
	int rounds;
	size_t marked, hog;
} opt = { 15, 16UL << 20, 8UL << 20 };

struct figures {
	double ns[MAX_ROUNDS], ratio[MAX_ROUNDS];
	long pgscan_anon, lost, kills, purged, errors;
};

/* A holder: pid, and the pipes it is told and answers through. */
struct holder {
	pid_t pid;
	int cmd, ans;
};

/* Mark [p, p+len) in design d; 0 or -1. */
static int mark(enum design d, char *p, size_t len)
{
	if (run_design_id[d] < 0)
		return 0;
	return designs[run_design_id[d]].give_back(p, len) ? -1 : 0;
}

/* Take [p, p+len) back: the pages lost, or -1 if a call failed. */
static long take_back(enum design d, char *p, size_t len)
{
	int purged = 0;

	if (run_design_id[d] >= 0 && designs[run_design_id[d]].take_back(p, len, &purged))
		return -1;
	return changed_pages(p, len, HOLDER_SEED);
}

/*
 * Start a holder of opt.marked bytes marked in design d; it answers "r"
 * once they are, and the pages it lost (a long) when told anything.  0 or -1.
 */
static int holder_start(struct holder *h, enum design d)
{
	int to[2], from[2];
	long lost = -1;
	char c;

	if (pipe(to))
		return -1;
	if (pipe(from)) {
		close(to[0]);
		close(to[1]);
		return -1;
	}
	h->pid = fork();
	if (h->pid == 0) {
		char *p = run_design_id[d] < 0 ? map_anon(opt.marked) :
			designs[run_design_id[d]].map(opt.marked);

		close(to[1]);
		close(from[0]);
		if (p == MAP_FAILED || no_hugepage(p, opt.marked))
			_exit(2);
		fill_pages(p, opt.marked, HOLDER_SEED);
		if (mark(d, p, opt.marked) || write(from[1], "r", 1) != 1)
			_exit(3);
		if (read(to[0], &c, 1) == 1)
			lost = take_back(d, p, opt.marked);
		if (write(from[1], &lost, sizeof(lost)) != sizeof(lost))
			_exit(4);
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	h->cmd = to[1];
	h->ans = from[0];
	if (h->pid < 0 || read(h->ans, &c, 1) != 1 || c != 'r') {
		close(h->cmd);
		close(h->ans);
		if (h->pid > 0)
			waitpid(h->pid, NULL, 0);
		return -1;
	}
	return 0;
}

/* The pages the holder lost (-1: it could not tell); it has exited. */
static long holder_finish(struct holder *h)
{
	long lost = -1;

	if (write(h->cmd, "c", 1) != 1 ||
	    read(h->ans, &lost, sizeof(lost)) != sizeof(lost))
		lost = -1;
	close(h->cmd);
	close(h->ans);
	waitpid(h->pid, NULL, 0);
	return lost;
}

/* The counter of pages this design's reclaim took, or NULL. */
static const char *purge_counter(enum design d)
{
	return run_design_id[d] < 0 ? NULL : designs[run_design_id[d]].counter_discarded;
}

static void round_of(enum design d, int r, struct figures *f)
{
	const char *ctr = purge_counter(d);
	long scan = 0, lost, before = ctr ? vmstat_get(ctr) : -1;
	struct holder h;
	uint64_t ns = 0;
	int killed;

	if (holder_start(&h, d)) {
		f->errors++;
		return;
	}
	killed = noswap_oom("oom", opt.hog, VICTIM_SEED, &ns, &scan);
	lost = holder_finish(&h);
	if (killed < 0 || lost < 0)
		f->errors++;
	f->kills += killed > 0;
	f->ns[r] = ns;
	f->pgscan_anon += scan;
	f->lost += lost > 0 ? lost : 0;
	if (before >= 0)
		f->purged += vmstat_get(ctr) - before;
}

static void report(enum design d, struct figures *f, const struct figures *ctl)
{
	const char *ctr = purge_counter(d);
	struct vmab_data dd;
	double lo = f->ns[0], hi = f->ns[0];
	int r, ok;
	char name[32];

	for (r = 1; r < opt.rounds; r++) {
		lo = f->ns[r] < lo ? f->ns[r] : lo;
		hi = f->ns[r] > hi ? f->ns[r] : hi;
	}
	data_begin(&dd, DKIND_BENCH);
	data_str(&dd, DK_BENCH, "oom");
	data_str(&dd, DK_DESIGN, run_name(d));
	data_long(&dd, DK_SWAP, vmab_mode_has_swap());
	data_long(&dd, DK_ROUNDS, opt.rounds);
	data_long(&dd, DK_PAGES_MARKED, (long)(opt.marked / PAGE_SZ));
	data_long(&dd, DK_HOG_KB, (long)(opt.hog >> 10));
	data_double(&dd, DK_NS_MEDIAN, median(f->ns, opt.rounds));
	data_double(&dd, DK_NS_MIN, lo);
	data_double(&dd, DK_NS_MAX, hi);
	if (ctl) {
		for (r = 0; r < opt.rounds; r++)
			f->ratio[r] = ctl->ns[r] > 0 ? f->ns[r] / ctl->ns[r] : 0;
		data_double(&dd, DK_RATIO_TO_CONTROL, median(f->ratio, opt.rounds));
	}
	data_long(&dd, DK_OOM_KILL, f->kills);
	data_long(&dd, DK_PGSCAN_ANON, f->pgscan_anon);
	data_long(&dd, DK_PAGES_DISCARDED, f->lost);
	if (ctr && vmstat_get(ctr) >= 0)
		data_long(&dd, ctr, f->purged);
	data_long(&dd, DK_ERRORS, f->errors);
	data_str(&dd, DK_CLOCK, fine_clock_name());
	data_emit(&dd);

	/* The figures are the report's; what must hold is checked here. */
	snprintf(name, sizeof(name), "oom_%s", run_name(d));
	ok = !f->errors && f->kills == opt.rounds && !f->lost && !f->purged;
	if (!ok)
		printf("# %s: %ld of %d killed, %ld pages lost, %ld purged, %ld errors\n",
		       name, f->kills, opt.rounds, f->lost, f->purged, f->errors);
	ksft_test_result(ok, "%s\n", name);
}

/* Every run is an OOM in a memory cgroup. */
VMAB_NEEDS("oom_*", "memcg");
VMAB_NEEDS("oom_madv_free", "madv_free");
VMAB_NEEDS("oom_vrange", "vrange");
VMAB_NEEDS("oom_droppable", "droppable");

int main(int argc, char **argv)
{
	static struct figures fig[D_NR];
	const char *why[D_NR] = { NULL };
	int c, d, r, bad = 0;

	while ((c = getopt(argc, argv, "r:v:H:")) != -1) {
		switch (c) {
		case 'r':
			opt.rounds = atoi(optarg);
			break;
		case 'v':
			bad |= parse_size(optarg, &opt.marked);
			break;
		case 'H':
			bad |= parse_size(optarg, &opt.hog);
			break;
		default:
			bad = 1;
		}
	}
	if (bad || optind < argc || opt.rounds < 1 || opt.rounds > MAX_ROUNDS ||
	    opt.marked < PAGE_SZ || opt.hog < PAGE_SZ) {
		fprintf(stderr, "usage: %s [-r ROUNDS (1-%d)] [-v MARKED] [-H HOG]\n",
			argv[0], MAX_ROUNDS);
		return 2;
	}
	opt.marked -= opt.marked % PAGE_SZ;
	opt.hog -= opt.hog % PAGE_SZ;
	ksft_print_header();
	ksft_set_plan(D_NR);
	printf("# mode %s, variant %s: %d rounds, %zu bytes marked in a holder, an OOM of %zu bytes in a cgroup without swap, clock %s\n",
	       vmab_mode(), vmab_variant(), opt.rounds, opt.marked, opt.hog,
	       fine_clock_name());
	for (d = 0; d < D_NR; d++)
		if (run_design_id[d] >= 0)
			why[d] = design_absent(run_design_id[d]);
	if (!memcg_available()) {
		for (d = 0; d < D_NR; d++) {
			char name[32];

			snprintf(name, sizeof(name), "oom_%s", run_name(d));
			ksft_test_result_skip_named(name, "%s", need_memcg());
		}
		return 0;
	}
	for (r = 0; r < opt.rounds; r++)
		for (c = 0; c < D_NR; c++) {
			d = (r + c) % D_NR;
			if (!why[d])
				round_of(d, r, &fig[d]);
		}
	for (d = 0; d < D_NR; d++) {
		char name[32];

		snprintf(name, sizeof(name), "oom_%s", run_name(d));
		if (why[d])
			ksft_test_result_skip_named(name, "%s", why[d]);
		else
			report(d, &fig[d], d == D_NONE ? NULL : &fig[D_NONE]);
	}
	return 0;
}
