/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a test needs, declared on one line beside it, for the host's judge
 * (matrix/lib/VMAB/Needs.pm reads the sources; the guest does not):
 *
 *   VMAB_NEEDS("swap_cache_page_is_purged", "vrange,swap");
 *   VMAB_NEEDS("droppable_*", "CONFIG_MAP_DROPPABLE");
 *   VMAB_NEEDS("vrange_fuzz", "");	(nothing, whatever the name says)
 *
 * The first argument is the test's name as its TAP line gives it
 * (fixture.test, fixture.variant.test, or a ksft_* result's name; * globs),
 * the second what it needs: CONFIG_X or CONFIG_X=n, a short name (vrange,
 * madv_free, thp, ksm, memcg, lru_gen; no_NAME for the option off), swap
 * or noswap, mglru or classic.  A test that declares nothing is judged by
 * its name and its skip reason.  The test still skips by itself, saying
 * what it lacks; the declaration tells the judge when that is expected.
 */
#ifndef VMAB_NEEDS_H
#define VMAB_NEEDS_H

#define VMAB_NEEDS_CAT2(a, b) a##b
#define VMAB_NEEDS_CAT(a, b) VMAB_NEEDS_CAT2(a, b)
#define VMAB_NEEDS(tests, needs)						\
	static const char *const VMAB_NEEDS_CAT(vmab_needs_, __LINE__)[2]	\
		__attribute__((unused)) = { tests, needs }

#endif /* VMAB_NEEDS_H */
