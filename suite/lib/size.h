/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VMAB_SIZE_H
#define VMAB_SIZE_H

#include <stddef.h>

/*
 * A size from the command line: a number (decimal, 0x hex or 0 octal, as
 * strtoull reads it) and an optional suffix K, M or G (either case) for
 * KiB, MiB or GiB.  0 with *out set, or -EINVAL for anything else (no
 * digits, another suffix, text after it, or a value that overflows), so
 * that "1G" is never quietly read as one byte.
 */
int parse_size(const char *s, size_t *out);

#endif /* VMAB_SIZE_H */
