// SPDX-License-Identifier: GPL-2.0
/* Run-time mode and which designs this kernel has; see vmab.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vmab.h"

const char *vmab_mode(void)
{
	const char *m = getenv("VMAB_MODE");

	return m ? m : "unknown";
}

const char *vmab_variant(void)
{
	const char *v = getenv("VMAB_VARIANT");

	return v ? v : "unknown";
}

/* /init sets these from the mode (suite/init.sh); no program reads its name. */
static int env_is(const char *name, const char *val)
{
	const char *v = getenv(name);

	return v && strcmp(v, val) == 0;
}

int vmab_mode_has_swap(void)
{
	return env_is("VMAB_SWAP", "on");
}

int vmab_mode_is_mglru(void)
{
	return env_is("VMAB_LRU", "mglru");
}

int vrange_supported(void)
{
	void *p = map_anon(PAGE_SZ);
	int purged = 0;
	long r;

	/*
	 * QUERY of a mapped page succeeds only where __NR_vrange (472) is
	 * vrange(): it is ENOSYS without CONFIG_VRANGE and on kernels that
	 * do not have the number; EBADF, from a call that takes an fd where
	 * vrange() takes an address, counts as "not vrange()" too.  Any
	 * other answer is a vrange(), even a broken one, so its tests run
	 * and fail.
	 */
	if (p == MAP_FAILED)
		return 0;
	errno = 0;
	r = sys_vrange((unsigned long)p, PAGE_SZ, VRANGE_QUERY, &purged);
	munmap(p, PAGE_SZ);
	return !(r < 0 && (errno == ENOSYS || errno == EBADF));
}

/*
 * A zero-length call: madvise() refuses an unknown advice before it looks
 * at the length, and frees nothing, so the probe leaves no lazily free page
 * behind (after a real MADV_FREE, the next unmark of that VMA looks at its
 * page tables: vrange patch 20).
 */
int madv_free_supported(void)
{
	void *p = map_anon(PAGE_SZ);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	ok = madvise(p, 0, MADV_FREE) == 0;
	munmap(p, PAGE_SZ);
	return ok;
}
