// SPDX-License-Identifier: GPL-2.0
/* Knobs set by a test and put back after it; see knob.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmab.h"

#define KNOB_MAX 16

static struct knob_saved {
	char path[128];
	char old[64];
} knob_stack[KNOB_MAX];
static int knob_depth;
static pid_t knob_owner;	/* the process whose exit restores them */

/* "always [madvise] never" -> "madvise"; "42\n" -> "42". */
static void knob_value(char *buf)
{
	char *open = strchr(buf, '['), *close;

	if (open && (close = strchr(open, ']'))) {
		*close = '\0';
		memmove(buf, open + 1, strlen(open + 1) + 1);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static int knob_saved_already(const char *path)
{
	int i;

	for (i = 0; i < knob_depth; i++)
		if (strcmp(knob_stack[i].path, path) == 0)
			return 1;
	return 0;
}

/* A child that calls exit() leaves what its parent set alone. */
static void knob_atexit(void)
{
	if (getpid() == knob_owner)
		knob_restore_all();
}

int knob_set(const char *path, const char *val)
{
	static int registered;
	struct knob_saved *k;
	long r;

	if (!knob_saved_already(path)) {
		if (knob_depth == KNOB_MAX || strlen(path) >= sizeof(k->path))
			return -ENOSPC;
		k = &knob_stack[knob_depth];
		r = read_file(path, k->old, sizeof(k->old));
		if (r < 0)
			return r;
		knob_value(k->old);
		strcpy(k->path, path);
		knob_depth++;
		if (!registered) {
			knob_owner = getpid();
			registered = !atexit(knob_atexit);
		}
	}
	return write_file(path, val);
}

int knob_set_long(const char *path, long val)
{
	char v[32];

	snprintf(v, sizeof(v), "%ld", val);
	return knob_set(path, v);
}

long knob_get_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

void knob_restore_all(void)
{
	while (knob_depth > 0) {
		struct knob_saved *k = &knob_stack[--knob_depth];

		write_file(k->path, k->old);
	}
}
