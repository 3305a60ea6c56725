// SPDX-License-Identifier: GPL-2.0
/* The "# @data" writer; see data.h. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>

#include "vmab.h"

static void data_add(struct vmab_data *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void data_add(struct vmab_data *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (d->len >= sizeof(d->buf) - 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(d->buf + d->len, sizeof(d->buf) - 2 - d->len, fmt, ap);
	va_end(ap);
	/* Keep the line valid JSON even when a field did not fit: drop it. */
	if (n < 0 || d->len + n >= sizeof(d->buf) - 2)
		d->buf[d->len] = '\0';
	else
		d->len += n;
}

void data_begin(struct vmab_data *d, const char *kind)
{
	d->len = 0;
	d->buf[0] = '\0';
	data_add(d, "{\"kind\":\"%s\"", kind);
}

void data_begin_bench(struct vmab_data *d, const char *bench, const char *design,
		      const char *op)
{
	data_begin(d, DKIND_BENCH);
	data_str(d, DK_BENCH, bench);
	if (design)
		data_str(d, DK_DESIGN, design);
	if (op)
		data_str(d, DK_OP, op);
}

void data_str(struct vmab_data *d, const char *key, const char *val)
{
	if (val)
		data_add(d, ",\"%s\":\"%s\"", key, val);
	else
		data_add(d, ",\"%s\":null", key);
}

void data_long(struct vmab_data *d, const char *key, long val)
{
	data_add(d, ",\"%s\":%ld", key, val);
}

void data_double(struct vmab_data *d, const char *key, double val)
{
	if (val != val || val - val != 0)	/* NaN and inf are not JSON */
		data_add(d, ",\"%s\":null", key);
	else
		data_add(d, ",\"%s\":%.6g", key, val);
}

void data_emit(struct vmab_data *d)
{
	printf("# @data %s}\n", d->buf);
	fflush(stdout);
}

