// SPDX-License-Identifier: GPL-2.0
/*
 * An OOM in a memory cgroup whose memory cannot be swapped, the one that
 * reclaim_test asserts on and bench_oom times.
 */
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/wait.h>

#include "vmab.h"

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int noswap_oom(const char *tag, size_t len, unsigned int seed, uint64_t *ns, long *scan)
{
	struct memcg cg;
	int status, fds[2], ret = -1;
	long scan0;
	uint64_t t0;
	pid_t pid;
	char c;

	if (memcg_create(&cg, tag))
		return -1;
	/* Absent without CONFIG_SWAP: then nothing can be swapped anyway. */
	if (memcg_read_long(&cg, "memory.swap.max") != -1 &&
	    memcg_write(&cg, "memory.swap.max", "0"))
		goto out;
	if (pipe(fds))
		goto out;
	pid = fork();
	if (pid == 0) {
		char *hog;

		close(fds[0]);
		if (memcg_enter(&cg))
			_exit(2);
		hog = map_anon(len);
		if (hog == MAP_FAILED)
			_exit(3);
		fill_pages(hog, len, seed);
		if (write(fds[1], "r", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &c, 1) != 1) {
		close(fds[0]);
		if (pid > 0)
			reap(pid);
		goto out;
	}
	close(fds[0]);

	scan0 = vmstat_get("pgscan_anon");
	t0 = fine_ns();
	memcg_reclaim(&cg, len);	/* -EAGAIN: nothing to take */
	/* Reclaim finds nothing, then the OOM killer the child. */
	memcg_write(&cg, "memory.max", "1M");
	if (waitpid(pid, &status, 0) != pid) {
		reap(pid);
		goto out;
	}
	if (ns)
		*ns = fine_ns() - t0;
	*scan = scan0 >= 0 ? vmstat_get("pgscan_anon") - scan0 : 0;
	ret = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
out:
	memcg_destroy(&cg);
	return ret;
}
