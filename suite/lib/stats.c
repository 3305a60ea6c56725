// SPDX-License-Identifier: GPL-2.0
/* Figures over rounds; see stats.h. */
#include "stats.h"

/* The value at index k of v sorted, without sorting v (n is small). */
static double kth(const double *v, int n, int k)
{
	int i, j;

	for (i = 0; i < n; i++) {
		int below = 0, equal = 0;

		for (j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		if (below <= k && k < below + equal)
			return v[i];
	}
	return v[0];	/* only for a NaN in v */
}

double median(const double *v, int n)
{
	if (n < 1)
		return 0;
	if (n % 2)
		return kth(v, n, n / 2);
	return (kth(v, n, n / 2 - 1) + kth(v, n, n / 2)) / 2;
}
