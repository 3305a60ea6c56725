// SPDX-License-Identifier: GPL-2.0
/* Reading and writing proc and sysfs files; see vmab.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmab.h"

long keyed_value(const char *path, const char *key, char sep)
{
	char line[256];
	size_t klen = strlen(key);
	long val = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == sep) {
			val = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

long vmstat_get(const char *name)
{
	return keyed_value("/proc/vmstat", name, ' ');
}

int vmstat_refresh(void)
{
	return write_file("/proc/sys/vm/stat_refresh", "1");
}

long meminfo_kb(const char *name)
{
	return keyed_value("/proc/meminfo", name, ':');
}

long kswapd_gave_up(void)
{
	char line[256];
	long any = -1, v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " node_unreclaimable: %ld", &v) != 1)
			continue;
		any = any > v ? any : v;
	}
	fclose(f);
	return any;
}

long swap_used_kb(void)
{
	long total = meminfo_kb("SwapTotal"), free = meminfo_kb("SwapFree");

	return total < 0 || free < 0 ? -1 : total - free;
}

int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

long read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}
