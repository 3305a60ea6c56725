/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel touching user memory for a test: read(2) into p and write(2)
 * from p through a pipe, to ask what a discarded page gives the kernel
 * (vrange: EFAULT, SPEC 4.3; MADV_FREE and MAP_DROPPABLE: a zero page).
 *   kernel_write_from(p, n, out)  write(2) of n bytes at p into a pipe:
 *                                 bytes or -errno; what it wrote goes to out
 *   kernel_read_into(p, src, n)   read(2) of n bytes from a pipe holding src
 *                                 into p: bytes or -errno
 *   kernel_access_word(r)         "ok", "efault" or "error", as the
 *                                 "# @data" records say it
 */
#ifndef VMAB_KACCESS_H
#define VMAB_KACCESS_H

#include <stddef.h>

long kernel_write_from(const void *p, size_t n, void *out);
long kernel_read_into(void *p, const void *src, size_t n);
const char *kernel_access_word(long r);

#endif /* VMAB_KACCESS_H */
