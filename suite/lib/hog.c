// SPDX-License-Identifier: GPL-2.0
/*
 * A memory hog for global pressure: a child process that writes len bytes
 * of its own and waits to be killed (scenario_test, madvfree_test); and its
 * sibling, a child that holds a volatile range with nothing in it.
 */
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "vmab.h"

/*
 * A child that runs prepare(len) and then waits to be killed: *got is 1
 * once prepare() returned 0, 0 if the child died before; -1 if fork()
 * failed.
 */
static pid_t start_waiter(int (*prepare)(size_t), size_t len, int *got)
{
	int fd[2];
	char c = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(fd[0]);
		if (prepare(len) || write(fd[1], "1", 1) != 1)
			_exit(1);	/* the parent reads EOF: *got = 0 */
		for (;;)
			pause();
	}
	close(fd[1]);
	*got = pid > 0 && read(fd[0], &c, 1) == 1;
	close(fd[0]);
	return pid;
}

/* The hog's memory: the OOM killer's first choice. */
static int hog_prepare(size_t len)
{
	char *h;

	write_file("/proc/self/oom_score_adj", "1000");
	h = map_anon(len);
	if (h == MAP_FAILED)
		return -1;
	madvise(h, len, MADV_NOHUGEPAGE);
	if (madvise(h, len, MADV_POPULATE_WRITE)) {
		size_t i;

		for (i = 0; i < len; i += PAGE_SZ)
			h[i] = 1;
	}
	return 0;
}

/* What it does: vmab.h.  The caller makes itself the OOM killer's last choice. */
pid_t start_hog(size_t len, int *got)
{
	return start_waiter(hog_prepare, len, got);
}

/* len bytes marked volatile and never written: nothing to purge. */
static int volatile_holder_prepare(size_t len)
{
	char *p = map_anon(len);

	if (p == MAP_FAILED)
		return -1;
	return sys_vrange((unsigned long)p, len, VRANGE_VOLATILE, NULL) == (long)len ? 0 : -1;
}

pid_t start_volatile_holder(size_t len, int *got)
{
	return start_waiter(volatile_holder_prepare, len, got);
}

long squeeze_free_memory(void)
{
	long free_kb = meminfo_kb("MemFree"), min_kb;

	if (free_kb <= 64 * 1024)
		return -1;
	/* The low watermark is 1.25 min: 16 MiB below MemFree. */
	min_kb = (free_kb - 16 * 1024) * 4 / 5;
	return knob_set_long("/proc/sys/vm/min_free_kbytes", min_kb) ? -1 : min_kb;
}

void stop_hog(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}
