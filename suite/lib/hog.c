// SPDX-License-Identifier: GPL-2.0
/*
 * A memory hog for global pressure: a child process that writes len bytes
 * of its own and waits to be killed (scenario_test, madvfree_test).
 */
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "vmab.h"

/* What it does: vmab.h.  The caller makes itself the OOM killer's last choice. */
pid_t start_hog(size_t len, int *got)
{
	int fd[2];
	char c = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *h;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		write_file("/proc/self/oom_score_adj", "1000");
		close(fd[0]);
		h = map_anon(len);
		if (h == MAP_FAILED)
			_exit(1);	/* the parent reads EOF: *got = 0 */
		madvise(h, len, MADV_NOHUGEPAGE);
		if (madvise(h, len, MADV_POPULATE_WRITE)) {
			size_t i;

			for (i = 0; i < len; i += PAGE_SZ)
				h[i] = 1;
		}
		if (write(fd[1], "1", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	*got = pid > 0 && read(fd[0], &c, 1) == 1;
	close(fd[0]);
	return pid;
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
