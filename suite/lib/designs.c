// SPDX-License-Identifier: GPL-2.0
/* The designs, guest side; see designs.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "vmab.h"

/* --- A: vrange() ---------------------------------------------------------- */

static int vrange_give_back(void *p, size_t len)
{
	long r = sys_vrange((unsigned long)p, len, VRANGE_VOLATILE, NULL);

	if (r < 0)
		return -errno;
	return r == (long)len ? 0 : -EIO;
}

static int vrange_take_back(void *p, size_t len, int *purged)
{
	int flag = 0;
	long r = sys_vrange((unsigned long)p, len, VRANGE_NONVOLATILE, &flag);

	if (purged)
		*purged = flag;
	if (r < 0)
		return -errno;
	return r == (long)len ? 0 : -EIO;
}

/* --- B: MADV_FREE ----------------------------------------------------------- */

static int madv_free_give_back(void *p, size_t len)
{
	return madvise(p, len, MADV_FREE) ? -errno : 0;
}

static int madv_free_take_back(void *p, size_t len, int *purged)
{
	size_t off;

	/* A write to each page: what cancels its pending free (SPEC 5). */
	for (off = 0; off < len; off += PAGE_SZ)
		__atomic_fetch_add((unsigned char *)p + off, 0, __ATOMIC_RELAXED);
	if (purged)
		*purged = 0;
	return 0;
}

/* --- C: MAP_DROPPABLE ------------------------------------------------------- */

void *map_droppable(size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);
}

int map_droppable_supported(void)
{
	void *p = map_droppable(PAGE_SZ);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, PAGE_SZ);
	return 1;
}

static int droppable_give_back(void *p, size_t len)
{
	return 0;	/* droppable from the mmap() on */
}

static int droppable_take_back(void *p, size_t len, int *purged)
{
	if (purged)
		*purged = 0;
	return 0;	/* nothing to call: its pages stay droppable */
}

/* --- the table -------------------------------------------------------------- */

const struct design_def designs[DESIGN_NR] = {
	[DESIGN_VRANGE] = {
		.id = DESIGN_VRANGE,
		.name = "vrange",
		.letter = "A",
		.kconfig = "CONFIG_VRANGE",
		.absent = "CONFIG_VRANGE=n (vrange() is ENOSYS)",
		.counter_discarded = "pgvrange_purged",
		.counter_given_back = NULL,
		.loss = LOSS_PURGED_FLAG,
		.keeps_taken_back = 1,
		.reclaim_counts_it = 1,
		.supported = vrange_supported,
		.map = map_anon,
		.give_back = vrange_give_back,
		.take_back = vrange_take_back,
	},
	[DESIGN_MADV_FREE] = {
		.id = DESIGN_MADV_FREE,
		.name = "madv_free",
		.letter = "B",
		.kconfig = "CONFIG_MADV_FREE",
		.absent = "CONFIG_MADV_FREE=n (madvise(MADV_FREE) is EINVAL)",
		.counter_discarded = "pglazyfreed",
		.counter_given_back = "pglazyfree",
		.loss = LOSS_COOKIE,
		.writes_take_back = 1,
		.keeps_taken_back = 1,
		.reclaim_counts_it = 1,
		.supported = madv_free_supported,
		.map = map_anon,
		.give_back = madv_free_give_back,
		.take_back = madv_free_take_back,
	},
	[DESIGN_DROPPABLE] = {
		.id = DESIGN_DROPPABLE,
		.name = "droppable",
		.letter = "C",
		.kconfig = "CONFIG_MAP_DROPPABLE",
		.absent = "CONFIG_MAP_DROPPABLE=n (mmap(MAP_DROPPABLE) is EINVAL)",
		.counter_discarded = NULL,	/* see designs.h */
		.counter_given_back = NULL,
		.loss = LOSS_COOKIE,
		.supported = map_droppable_supported,
		.map = map_droppable,
		.give_back = droppable_give_back,
		.take_back = droppable_take_back,
	},
};

const char *design_absent(enum design_id id)
{
	return designs[id].supported() ? NULL : designs[id].absent;
}

const struct design_def *design_by_name(const char *name)
{
	int d;

	for (d = 0; d < DESIGN_NR; d++)
		if (strcmp(designs[d].name, name) == 0)
			return &designs[d];
	return NULL;
}

/* --- cookies ---------------------------------------------------------------- */

void cookie_write(void *p, size_t len, uint64_t cookie)
{
	size_t off;

	for (off = 0; off + sizeof(cookie) <= len; off += PAGE_SZ)
		__atomic_store_n((uint64_t *)((char *)p + off), cookie, __ATOMIC_RELAXED);
}

long cookie_lost(const void *p, size_t len, uint64_t cookie)
{
	size_t off;
	long lost = 0;

	for (off = 0; off + sizeof(cookie) <= len; off += PAGE_SZ)
		lost += __atomic_load_n((const uint64_t *)((const char *)p + off),
					__ATOMIC_RELAXED) != cookie;
	return lost;
}

long cookie_take_back(void *p, size_t len, uint64_t cookie)
{
	size_t off;
	long lost = 0;

	for (off = 0; off + sizeof(cookie) <= len; off += PAGE_SZ) {
		uint64_t seen = cookie;

		lost += !__atomic_compare_exchange_n((uint64_t *)((char *)p + off),
						     &seen, cookie, 0,
						     __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	return lost;
}
