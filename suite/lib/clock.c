// SPDX-License-Identifier: GPL-2.0
/* Clocks: monotonic, and one fine enough for a system call; see vmab.h. */
#define _GNU_SOURCE
#include <time.h>

#include "vmab.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static double tsc_ns_per_tick;	/* 0 before the first call, -1 unused */
static uint64_t tsc_base, tsc_base_ns;

#ifdef HAVE_TSC
/* Spin until CLOCK_MONOTONIC moves on to its next tick; the new time. */
static uint64_t next_tick_ns(void)
{
	uint64_t t = now_ns(), u;

	while ((u = now_ns()) == t)
		;
	return u;
}
#endif

static void fine_init(void)
{
#ifdef HAVE_TSC
	uint64_t t0, t1, c0, c1;
#endif

	tsc_ns_per_tick = -1;
#ifdef HAVE_TSC
	/* Tick edge to tick edge over ~200 ms: the tick's width cancels out. */
	t0 = next_tick_ns();
	c0 = __rdtsc();
	while (now_ns() < t0 + 200000000ull)
		;
	t1 = next_tick_ns();
	c1 = __rdtsc();
	if (c1 > c0 && t1 > t0) {
		tsc_ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
		tsc_base = c1;
		tsc_base_ns = t1;
	}
#endif
}

uint64_t fine_ns(void)
{
	if (!tsc_ns_per_tick)
		fine_init();
#ifdef HAVE_TSC
	if (tsc_ns_per_tick > 0)
		return tsc_base_ns + (uint64_t)((double)(__rdtsc() - tsc_base) * tsc_ns_per_tick);
#endif
	return now_ns();
}

const char *fine_clock_name(void)
{
	if (!tsc_ns_per_tick)
		fine_init();
	return tsc_ns_per_tick > 0 ? "tsc-calibrated" : "monotonic";
}

