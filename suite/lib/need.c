// SPDX-License-Identifier: GPL-2.0
/* The optional mm features a test may need; see vmab.h. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vmab.h"


/* An optional feature's sysfs folder: NULL if it is there, else why. */
static const char *need_path(const char *path, const char *why)
{
	return access(path, F_OK) == 0 ? NULL : why;
}

const char *need_thp(void)
{
	return need_path(THP_ENABLED,
			 "needs CONFIG_TRANSPARENT_HUGEPAGE (no /sys/kernel/mm/transparent_hugepage)");
}

const char *need_ksm(void)
{
	return need_path("/sys/kernel/mm/ksm/run",
			 "needs CONFIG_KSM (no /sys/kernel/mm/ksm)");
}

const char *need_lru_gen(void)
{
	return need_path("/sys/kernel/mm/lru_gen/enabled",
			 "needs CONFIG_LRU_GEN (no /sys/kernel/mm/lru_gen)");
}

/* A word in a cgroup v2 list file ("cpu io memory pids"). */
static int cgroup_list_has(const char *path, const char *word)
{
	char buf[256], *tok, *save;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (strcmp(tok, word) == 0)
			return 1;
	return 0;
}

const char *need_memcg(void)
{
	const char *v = getenv("VMAB_VARIANT");

	/* make host-bench creates no cgroup on the host (docs/host-bench.md). */
	if (v && strcmp(v, "host") == 0)
		return "make host-bench uses no memory cgroup on the host";
	/* The kernel has it: listed in the root's cgroup.controllers. */
	if (!cgroup_list_has("/sys/fs/cgroup/cgroup.controllers", "memory"))
		return "needs CONFIG_MEMCG (no memory controller in /sys/fs/cgroup/cgroup.controllers)";
	/* init.sh enables it for the children; if that failed, say so. */
	if (!cgroup_list_has("/sys/fs/cgroup/cgroup.subtree_control", "memory"))
		return "memory controller not enabled in /sys/fs/cgroup/cgroup.subtree_control";
	return NULL;
}

int memcg_available(void)
{
	return need_memcg() == NULL;
}


const char *first_need(int n, ...)
{
	const char *why = NULL;
	va_list ap;

	va_start(ap, n);
	while (n-- > 0 && !why)
		why = va_arg(ap, const char *);
	va_end(ap);
	return why;
}
