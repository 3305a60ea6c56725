// SPDX-License-Identifier: GPL-2.0
/*
 * How fine the guest's CLOCK_MONOTONIC is: read it back to back for a few
 * seconds and print the steps it moves in, with the clocksource it read.
 * On refined-jiffies it moves in 4 ms steps (HZ=250); on the TSC in well
 * under a microsecond, even under TCG.  A check of VMAB::Qemu's clock
 * arguments, booted with the driver's quick boot:
 *
 *   gcc -static -O2 -o /tmp/clock-steps tools/clock-steps.c
 *   matrix/vmab boot --variant both --prog /tmp/clock-steps
 *
 * One TAP result: ok when the median step seen while spinning (the
 * clock's resolution as a program sees it; the largest steps are the
 * spinner being interrupted) is below 1 ms, which a jiffies clock's never
 * is; a "# @data" line holds the figures.  Not part of the suite.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void clocksource(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	snprintf(buf, len, "unknown");
	if (f && fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	if (f)
		fclose(f);
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3.0;
	static long long step[1 << 20];
	long long t0, prev, t, reads = 0, max = 0;
	size_t n = 0;
	char before[64], after[64];
	struct timespec res;

	clocksource(before, sizeof(before));
	clock_getres(CLOCK_MONOTONIC, &res);
	t0 = prev = now_ns();
	while ((t = now_ns()) - t0 < (long long)(secs * 1e9)) {
		reads++;
		if (t == prev)
			continue;
		if (n < sizeof(step) / sizeof(step[0]))
			step[n++] = t - prev;
		if (t - prev > max)
			max = t - prev;
		prev = t;
	}
	clocksource(after, sizeof(after));
	qsort(step, n, sizeof(step[0]), cmp);
	printf("TAP version 13\n1..1\n");
	printf("# @data {\"kind\":\"clock\",\"clocksource_before\":\"%s\",\"clocksource_after\":\"%s\","
	       "\"getres_ns\":%ld,\"seconds\":%.1f,\"reads\":%lld,\"steps\":%zu,"
	       "\"min_step_ns\":%lld,\"median_step_ns\":%lld,\"p99_step_ns\":%lld,\"max_step_ns\":%lld}\n",
	       before, after, res.tv_nsec, secs, reads, n, n ? step[0] : 0, n ? step[n / 2] : 0,
	       n ? step[n * 99 / 100] : 0, max);
	printf("%s 1 monotonic_steps_below_1ms # %s, median step %lld ns\n",
	       n && step[n / 2] < 1000000 ? "ok" : "not ok", after, n ? step[n / 2] : 0);
	return 0;
}
