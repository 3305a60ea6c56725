/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VMAB_DATA_H
#define VMAB_DATA_H

#include <stddef.h>

#include "data_keys.h"

/*
 * Figures for the report: one "# @data {single-line JSON}" line on stdout,
 * which the host's matrix/lib/VMAB/Tap.pm stores in matrix.json.
 *   struct vmab_data d;
 *   data_begin(&d, "scenario"); data_str(&d, DK_DESIGN, "vrange");
 *   data_long(&d, DK_PAGES_MARKED, 256); data_emit(&d);
 * Every key is a DK_* name from data_keys.h, the one list of what the
 * suite writes (matrix/t/suite_names.t checks the report against it).
 * Keys and string values are written as given (no escaping needed for the
 * plain names the suite uses); a NULL string is written as null.  Too many
 * fields are cut off at the buffer's end rather than overflowing it.
 */
struct vmab_data {
	char buf[4096];
	size_t len;
};
void data_begin(struct vmab_data *d, const char *kind);
/* A benchmark's record: kind "bench", its name, and design and op where not NULL. */
void data_begin_bench(struct vmab_data *d, const char *bench, const char *design,
		      const char *op);
void data_str(struct vmab_data *d, const char *key, const char *val);
void data_long(struct vmab_data *d, const char *key, long val);
void data_double(struct vmab_data *d, const char *key, double val);
void data_emit(struct vmab_data *d);	/* prints the line and flushes stdout */

#endif /* VMAB_DATA_H */
