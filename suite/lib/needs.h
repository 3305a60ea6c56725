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
 * madv_free, droppable, thp, ksm, memcg, lru_gen; no_NAME for the option
 * off), swap or noswap, mglru or classic.  Every test is declared
 * (matrix/t/suite_names.t fails otherwise); the lines that match a test
 * add up, so a fixture's glob says what all its tests need and a line of
 * one test adds its own.  The test still skips by itself, saying what it
 * lacks; the declaration tells the judge when that is expected, and a
 * skip whose reason names what the declaration does not list is reported.
 */
#ifndef VMAB_NEEDS_H
#define VMAB_NEEDS_H

#define VMAB_NEEDS_CAT2(a, b) a##b
#define VMAB_NEEDS_CAT(a, b) VMAB_NEEDS_CAT2(a, b)
#define VMAB_NEEDS(tests, needs)						\
	static const char *const VMAB_NEEDS_CAT(vmab_needs_, __LINE__)[2]	\
		__attribute__((unused)) = { tests, needs }

#endif /* VMAB_NEEDS_H */
