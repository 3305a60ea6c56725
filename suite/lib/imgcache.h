/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image cache the scenarios keep (scenario_test's image_cache for
 * designs A and B, droppable_test's for C): CACHE_OBJS objects of OBJ_LEN
 * bytes, each page headed by a canary of its own and a "pin" word
 * (PAGE_HDR bytes), the rest a pattern of the object and page.
 *   cache_canary(n, pg)        page pg of object n's canary (never 0)
 *   cache_build(obj, n)        writes object n at obj
 *   cache_object_right(obj, n) the test's oracle: 1 if obj is exactly what
 *                              cache_build() wrote
 *   cache_canaries_lost(obj, n) how a cache that has no flag learns of a
 *                              loss, reading only: the pages whose canary
 *                              is gone
 *   cache_garbage_pages(obj, n) pages of a lost object that hold neither
 *                              zeros nor their own canary
 *   cache_settle(obj, n, lost, &t)  one object fetched: if the cache found
 *                              it lost, what its pages held (garbage) and
 *                              its regeneration; then the oracle's verdict
 *   cache_data(&dd, design, pressure, detect, paged_out, &t, ns_fetch)
 *                              begins the "image_cache" record (kind
 *                              "scenario") with the fields every design's
 *                              has; the caller adds its own and emits it
 */
#ifndef VMAB_IMGCACHE_H
#define VMAB_IMGCACHE_H

#include <stdint.h>

#include "data.h"

#define OBJ_LEN (32 * 1024UL)
#define CACHE_OBJS 256
#define PAGE_HDR 16		/* canary, pin */

uint64_t cache_canary(long obj, long pg);
void cache_build(char *obj, long n);
int cache_object_right(const char *obj, long n);
long cache_canaries_lost(const char *obj, long n);
long cache_garbage_pages(const char *obj, long n);

struct cache_tally {
	long regenerated, wrong, garbage;
};
void cache_settle(char *obj, long n, int lost, struct cache_tally *t);
void cache_data(struct vmab_data *dd, const char *design, const char *pressure,
		const char *detect, long paged_out, const struct cache_tally *t,
		long ns_fetch);

#endif /* VMAB_IMGCACHE_H */
