// SPDX-License-Identifier: GPL-2.0
/* read(2) into and write(2) from user memory through a pipe; see kaccess.h. */
#include <errno.h>
#include <unistd.h>

#include "vmab.h"

long kernel_write_from(const void *p, size_t n, void *out)
{
	int fd[2];
	long r;

	if (pipe(fd))
		return -errno;
	r = write(fd[1], p, n);
	if (r < 0)
		r = -errno;
	else if (read(fd[0], out, r) != r)
		r = -EIO;
	close(fd[0]);
	close(fd[1]);
	return r;
}

long kernel_read_into(void *p, const void *src, size_t n)
{
	int fd[2];
	long r;

	if (pipe(fd))
		return -errno;
	if (write(fd[1], src, n) != (long)n) {
		r = -EIO;
	} else {
		r = read(fd[0], p, n);
		if (r < 0)
			r = -errno;
	}
	close(fd[0]);
	close(fd[1]);
	return r;
}

const char *kernel_access_word(long r)
{
	if (r == -EFAULT)
		return "efault";
	return r >= 0 ? "ok" : "error";
}
