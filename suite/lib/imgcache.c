// SPDX-License-Identifier: GPL-2.0
/* The scenarios' image cache objects; see imgcache.h. */
#include "vmab.h"

#define OBJ_PAGES ((long)(OBJ_LEN / PAGE_SZ))

uint64_t cache_canary(long obj, long pg)
{
	return 0xca1a5e0000000000ull | (uint64_t)obj << 16 | (uint64_t)pg << 1 | 1;
}

void cache_build(char *obj, long n)
{
	long pg;

	for (pg = 0; pg < OBJ_PAGES; pg++) {
		char *page = obj + pg * PAGE_SZ;

		((uint64_t *)page)[0] = cache_canary(n, pg);
		((uint64_t *)page)[1] = 0;
		fill_pattern(page + PAGE_HDR, PAGE_SZ - PAGE_HDR, n * 64 + pg);
	}
}

int cache_object_right(const char *obj, long n)
{
	long pg;

	for (pg = 0; pg < OBJ_PAGES; pg++) {
		const char *page = obj + pg * PAGE_SZ;

		if (((const uint64_t *)page)[0] != cache_canary(n, pg) ||
		    check_pattern(page + PAGE_HDR, PAGE_SZ - PAGE_HDR,
				  n * 64 + pg) != -1)
			return 0;
	}
	return 1;
}

long cache_canaries_lost(const char *obj, long n)
{
	long pg, lost = 0;

	for (pg = 0; pg < OBJ_PAGES; pg++)
		lost += ((const volatile uint64_t *)(obj + pg * PAGE_SZ))[0] !=
			cache_canary(n, pg);
	return lost;
}

long cache_garbage_pages(const char *obj, long n)
{
	long pg, garbage = 0;

	for (pg = 0; pg < OBJ_PAGES; pg++) {
		const char *page = obj + pg * PAGE_SZ;

		garbage += !range_is_zero(page, PAGE_SZ) &&
			((const uint64_t *)page)[0] != cache_canary(n, pg);
	}
	return garbage;
}

void cache_settle(char *obj, long n, int lost, struct cache_tally *t)
{
	if (lost) {
		t->garbage += cache_garbage_pages(obj, n);
		cache_build(obj, n);
		t->regenerated++;
	}
	if (!cache_object_right(obj, n))
		t->wrong++;
}

void cache_data(struct vmab_data *dd, const char *design, const char *pressure,
		const char *detect, long paged_out, const struct cache_tally *t,
		long ns_fetch)
{
	data_begin(dd, DKIND_SCENARIO);
	data_str(dd, DK_SCENARIO, "image_cache");
	data_str(dd, DK_DESIGN, design);
	data_str(dd, DK_PRESSURE, pressure);
	data_str(dd, DK_DETECT, detect);
	data_long(dd, DK_CACHE_OBJECTS, CACHE_OBJS);
	data_long(dd, DK_CACHE_OBJECT_KB, OBJ_LEN / 1024);
	data_long(dd, DK_PAGES_MARKED, CACHE_OBJS * OBJ_PAGES);
	data_long(dd, DK_OBJECTS_PAGED_OUT, paged_out);
	data_long(dd, DK_CACHE_REGENERATED, t->regenerated);
	data_long(dd, DK_CACHE_WRONG, t->wrong);
	data_long(dd, DK_PAGES_GARBAGE, t->garbage);
	data_long(dd, DK_NS_FETCH_ALL, ns_fetch);
}
