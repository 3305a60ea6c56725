/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain TAP 13 for the programs that are not kselftest-harness tests (the
 * benchmarks, the fuzzer, the stress test): the kernel's own kselftest.h
 * (ksft_print_header, ksft_set_plan, ksft_test_result), plus a skip that
 * keeps the test's name.  kselftest.h's ksft_test_result_skip() writes
 * "ok N # SKIP why", with no name; like kselftest_harness.h, say the name
 * first in a "#  RUN name ..." line, which is where the host's TAP reader
 * (matrix/lib/VMAB/Tap.pm) takes a nameless result's name from.
 */
#ifndef VMAB_KSFT_NAMED_H
#define VMAB_KSFT_NAMED_H

#include "kselftest.h"

#define ksft_test_result_skip_named(name, fmt, ...) do {		\
	ksft_print_msg(" RUN %s ...\n", (name));			\
	ksft_test_result_skip(fmt "\n", ##__VA_ARGS__);			\
} while (0)

#endif /* VMAB_KSFT_NAMED_H */
