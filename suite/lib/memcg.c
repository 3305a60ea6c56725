// SPDX-License-Identifier: GPL-2.0
/* A private memory cgroup for one test; see vmab.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "vmab.h"

int memcg_create(struct memcg *cg, const char *tag)
{
	snprintf(cg->path, sizeof(cg->path), "/sys/fs/cgroup/vmab-%s-%d",
		 tag, (int)getpid());
	if (mkdir(cg->path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int memcg_write(const struct memcg *cg, const char *file, const char *val)
{
	char p[320];

	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	return write_file(p, val);
}

int memcg_enter(const struct memcg *cg)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return memcg_write(cg, "cgroup.procs", pid);
}

int memcg_leave(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_file("/sys/fs/cgroup/cgroup.procs", pid);
}

int memcg_destroy(struct memcg *cg)
{
	int i;

	/* The cgroup may still hold exiting tasks for a moment. */
	for (i = 0; i < 100; i++) {
		if (rmdir(cg->path) == 0 || errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -errno;
}

int memcg_reclaim(const struct memcg *cg, size_t bytes)
{
	char val[32];

	snprintf(val, sizeof(val), "%zu", bytes);
	return memcg_write(cg, "memory.reclaim", val);
}

long memcg_stat_wait(const struct memcg *cg, const char *key, long want)
{
	long v = -1;
	int i;

	for (i = 0; i < 60; i++) {
		v = memcg_stat(cg, key);
		if (v == want)
			break;
		usleep(100000);
	}
	return v;
}

long memcg_stat(const struct memcg *cg, const char *key)
{
	char p[320];

	snprintf(p, sizeof(p), "%s/memory.stat", cg->path);
	return keyed_value(p, key, ' ');
}

long memcg_read_long(const struct memcg *cg, const char *file)
{
	char p[320], buf[64];

	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	if (read_file(p, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

