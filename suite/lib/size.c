// SPDX-License-Identifier: GPL-2.0
/* Sizes with K/M/G suffixes, for the benchmarks' options; see size.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "size.h"

int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || *s < '0' || *s > '9')	/* strtoull would take "-1" */
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'G': case 'g': shift = 30; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'K': case 'k': shift = 10; end++; break;
	}
	if (*end || v > (SIZE_MAX >> shift))
		return -EINVAL;
	*out = (size_t)v << shift;
	return 0;
}
