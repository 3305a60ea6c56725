/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's two pseudo-random generators, each a few lines, so that a
 * seed gives the same sequence in every program (the figures of a seeded
 * run can be compared across variants and modes).
 *   xorshift64: Marsaglia's 13/7/17 shift register; fast, for benchmarks.
 *               The state must not be 0.
 *   splitmix64: Steele, Lea and Flood's mixer; any state, 0 included, for
 *               the fuzzer and the stress test.
 */
#ifndef VMAB_PRNG_H
#define VMAB_PRNG_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64 below n: 0 <= result < n, and 0 for n == 0. */
static inline unsigned long splitmix64_below(uint64_t *s, unsigned long n)
{
	return n ? splitmix64(s) % n : 0;
}

#endif /* VMAB_PRNG_H */
