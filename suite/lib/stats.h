/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VMAB_STATS_H
#define VMAB_STATS_H

/*
 * The median of n >= 1 values (the mean of the middle two for an even n),
 * the benchmarks' figure over rounds; v is left as it was.  0 for n < 1.
 */
double median(const double *v, int n);

#endif /* VMAB_STATS_H */
