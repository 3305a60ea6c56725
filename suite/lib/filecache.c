// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaimable file pages in a guest whose root is an initramfs (its files
 * are shmem or ramfs, never reclaimed as file pages): the page cache of the
 * swap disk, read as a block device; see vmab.h.  The last close of a
 * block device drops its page cache (blkdev_put() kills the mapping when
 * nobody has it open: without swap on it, nothing else does), so the
 * device stays open from the first call on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "vmab.h"

const char *need_file_pages(void)
{
	struct stat st;

	if (stat(FILECACHE_DEV, &st) || !S_ISBLK(st.st_mode))
		return "needs CONFIG_SWAP (file pages come from the page cache of "
		       FILECACHE_DEV ", the swap disk, which only variants with swap get)";
	return NULL;
}

static int dev_fd = -1;

static int dev_open(void)
{
	if (dev_fd < 0)
		dev_fd = open(FILECACHE_DEV, O_RDONLY | O_CLOEXEC);
	return dev_fd;
}

int filecache_fill(size_t len)
{
	size_t chunk = 1UL << 20, done = 0;
	int fd = dev_open(), err = 0;
	char *buf = malloc(chunk);

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	while (done < len) {
		ssize_t n = pread(fd, buf, len - done < chunk ? len - done : chunk,
				  (off_t)done);

		if (n <= 0) {
			err = n < 0 ? -errno : -ENOSPC;
			break;
		}
		done += n;
	}
out:
	free(buf);
	return err;
}

int filecache_drop(void)
{
	int fd = dev_open();

	if (fd < 0)
		return -errno;
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}
