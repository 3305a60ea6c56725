// SPDX-License-Identifier: GPL-2.0
/* khugepaged made fast for a test, and waiting for it; see vmab.h. */
#define _GNU_SOURCE
#include <stddef.h>

#include "vmab.h"

#define KHUGEPAGED THP_DIR "khugepaged/"

int khugepaged_fast(void)
{
	int r = knob_set(KHUGEPAGED "scan_sleep_millisecs", "10");

	return r ? r : knob_set(KHUGEPAGED "alloc_sleep_millisecs", "10");
}

int khugepaged_wait(const void *p, const char *event, long since, int secs)
{
	int i;

	for (i = 0; i < secs * 10; i++) {
		if (smaps_field_kb(p, "AnonHugePages") >= (long)(HPAGE_SZ >> 10))
			return 1;
		if (event && vmstat_get(event) > since)
			return 1;
		usleep(100000);
	}
	return 0;
}

