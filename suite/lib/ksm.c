// SPDX-License-Identifier: GPL-2.0
/* ksmd made fast for a test, and waiting for its scans; see vmab.h. */
#include <unistd.h>

#include "vmab.h"

int ksm_fast(void)
{
	int r = knob_set(KSM_DIR "pages_to_scan", "1000");

	return r ? r : knob_set(KSM_DIR "sleep_millisecs", "10");
}

int ksm_wait_scans(int n)
{
	long start = knob_get_long(KSM_DIR "full_scans");
	uint64_t t0 = now_ns();

	while (knob_get_long(KSM_DIR "full_scans") < start + n) {
		if (now_ns() - t0 > 120ull * 1000000000ull)
			return -1;
		usleep(20000);
	}
	return 0;
}
