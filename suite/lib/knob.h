/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Knobs: the proc and sysfs files a test changes (vm.nr_hugepages,
 * vm.max_map_count, vm.min_free_kbytes, ksm/run, khugepaged's sleeps...),
 * after LTP's .save_restore: the first knob_set() of a file saves what it
 * held on a stack, and knob_restore_all() writes every saved value back,
 * the last one set first, and empties the stack.  It runs at exit(); a
 * kselftest-harness test ends with _exit(), so its FIXTURE_TEARDOWN (or
 * the test itself, where it has no fixture) calls knob_restore_all().
 * A value read as "always [madvise] never" is saved as the selected word.
 */
#ifndef VMAB_KNOB_H
#define VMAB_KNOB_H

/* THP's knobs: written only through knob_set(), so they are put back. */
#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"
#define THP_ENABLED THP_DIR "enabled"

/* Save the file's value (once) and write val.  0 or -errno. */
int knob_set(const char *path, const char *val);
int knob_set_long(const char *path, long val);
/* The value as a number, or -1 if the file cannot be read. */
long knob_get_long(const char *path);
void knob_restore_all(void);

#endif /* VMAB_KNOB_H */
