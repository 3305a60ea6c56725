// SPDX-License-Identifier: GPL-2.0
/*
 * The suite library's own tests, run on the host (make -C suite lib-check,
 * from matrix/t/suite_lib.t): what can be checked without the patched
 * kernel.  Knobs are tested on files of a temporary folder; write_file()
 * does not truncate (sysfs and procfs need not), so each test's values
 * have the length of what they overwrite.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vmab.h"

/* --- parse_size ----------------------------------------------------------- */

TEST(parse_size_suffixes)
{
	size_t v = 7;

	ASSERT_EQ(0, parse_size("4096", &v));
	ASSERT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("16k", &v));
	ASSERT_EQ(16UL << 10, v);
	ASSERT_EQ(0, parse_size("4M", &v));
	ASSERT_EQ(4UL << 20, v);
	/* bench_pressure's own parse_size() read this as 1 byte */
	ASSERT_EQ(0, parse_size("1G", &v));
	ASSERT_EQ(1UL << 30, v);
	ASSERT_EQ(0, parse_size("2g", &v));
	ASSERT_EQ(2UL << 30, v);
	ASSERT_EQ(0, parse_size("0x10K", &v));
	ASSERT_EQ(16UL << 10, v);
}

TEST(parse_size_refuses)
{
	static const char *const bad[] = {
		"", "G", "1T", "1GB", "1 G", "-1", "+1", "x",
		"99999999999999999999", "17179869184G",
	};
	size_t v = 7;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		TH_LOG("\"%s\"", bad[i]);
		ASSERT_EQ(-EINVAL, parse_size(bad[i], &v));
	}
	ASSERT_EQ(7, v);	/* untouched */
	ASSERT_EQ(-EINVAL, parse_size(NULL, &v));
}

/* --- knobs ---------------------------------------------------------------- */

FIXTURE(knob) {
	char dir[64];
	char a[96], b[96];
};

static void put(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	fputs(val, f);
	fclose(f);
}

static const char *got(const char *path)
{
	static char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return "(unreadable)";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

FIXTURE_SETUP(knob)
{
	strcpy(self->dir, "/tmp/vmab-knob-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->a, sizeof(self->a), "%s/nr_hugepages", self->dir);
	snprintf(self->b, sizeof(self->b), "%s/enabled", self->dir);
	put(self->a, "2\n");
	put(self->b, "always [madvise] never\n");
}

FIXTURE_TEARDOWN(knob)
{
	knob_restore_all();
	unlink(self->a);
	unlink(self->b);
	rmdir(self->dir);
}

/* vrange_test's teardown once wrote "0" here, whatever had been there. */
TEST_F(knob, restores_the_old_value)
{
	ASSERT_EQ(0, knob_set(self->a, "1"));
	ASSERT_STREQ("1", got(self->a));
	ASSERT_EQ(0, knob_set_long(self->a, 3));	/* saved once: "2" */
	ASSERT_STREQ("3", got(self->a));
	knob_restore_all();
	ASSERT_STREQ("2", got(self->a));
	ASSERT_EQ(2, knob_get_long(self->a));
	knob_restore_all();				/* nothing left */
	ASSERT_STREQ("2", got(self->a));
}

TEST_F(knob, restores_the_selected_word)
{
	ASSERT_EQ(0, knob_set(self->b, "never"));
	knob_restore_all();
	ASSERT_EQ(0, strncmp(got(self->b), "madvise", 7));
}

TEST_F(knob, missing_file_is_an_error)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/none", self->dir);
	ASSERT_EQ(-ENOENT, knob_set(path, "1"));
	ASSERT_EQ(-1, knob_get_long(path));
}

/* exit() restores; a child's exit() leaves its parent's knobs alone. */
TEST_F(knob, restored_at_exit_of_the_setter_only)
{
	pid_t pid;
	int st;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		knob_set(self->a, "1");
		if (fork() == 0)
			exit(0);	/* the setter's child */
		wait(NULL);
		exit(strcmp(got(self->a), "1") ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, WEXITSTATUS(st));		/* still "1" after the child */
	ASSERT_STREQ("2", got(self->a));	/* back after the setter's exit */
}

/* --- SIGBUS --------------------------------------------------------------- */

/* A page past the end of a file raises SIGBUS, like a purged page. */
TEST(sigbus_probe_reports_addr_and_code)
{
	char path[] = "/tmp/vmab-sigbus-XXXXXX";
	int fd = mkstemp(path);
	char *p;

	ASSERT_LE(0, fd);
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, PAGE_SZ));
	p = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, sigbus_probe_read(p));
	ASSERT_EQ(1, sigbus_probe_read(p + PAGE_SZ + 5));
	ASSERT_EQ(p + PAGE_SZ + 5, sigbus_seen.addr);
	ASSERT_EQ(BUS_ADRERR, sigbus_seen.code);
	sigbus_catch(0);
	ASSERT_EQ(1, sigbus_read(p + PAGE_SZ));
	ASSERT_EQ(1, sigbus_write(p + PAGE_SZ + 100, 1));
	ASSERT_EQ(0, sigbus_write(p + 100, 1));
	ASSERT_EQ(p + PAGE_SZ + 100, sigbus_seen.addr);
	ASSERT_EQ(2, sigbus_seen.count);
	munmap(p, 2 * PAGE_SZ);
	close(fd);
}

/* --- PRNG ----------------------------------------------------------------- */

/* The sequences the programs had before (their seeded figures depend on it). */
TEST(prng_sequences)
{
	uint64_t x = 1, s = 0;

	ASSERT_EQ(0x40822041ull, xorshift64(&x));
	ASSERT_EQ(0x40822041ull, x);
	ASSERT_EQ(0xe220a8397b1dcdafull, splitmix64(&s));
	ASSERT_EQ(0x9e3779b97f4a7c15ull, s);
	ASSERT_EQ(0, splitmix64_below(&s, 0));
	ASSERT_GT(10, splitmix64_below(&s, 10));
}

/* --- pages ---------------------------------------------------------------- */

/* Pages judged one by one: which lost their pattern, which are resident. */
TEST(pages_changed_and_resident)
{
	size_t len = 8 * PAGE_SZ;
	char *p = map_anon(len);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(8, nonresident_pages(p, len));	/* never touched */
	fill_pages(p, len, 77);
	ASSERT_EQ(0, nonresident_pages(p, len));
	ASSERT_EQ(-1, first_changed_page(p, len, 77));
	ASSERT_EQ(0, changed_pages(p, len, 77));
	ASSERT_EQ(0, check_pattern(p + PAGE_SZ, PAGE_SZ, 77));	/* seed + 1 */
	p[5 * PAGE_SZ + 100] ^= 1;
	p[7 * PAGE_SZ] ^= 1;
	ASSERT_EQ(5, first_changed_page(p, len, 77));
	ASSERT_EQ(2, changed_pages(p, len, 77));
	ASSERT_EQ(0, madvise(p + 6 * PAGE_SZ, 2 * PAGE_SZ, MADV_DONTNEED));
	ASSERT_EQ(2, nonresident_pages(p, len));
	munmap(p, len);
}

/* --- figures over rounds -------------------------------------------------- */

TEST(median_leaves_its_input)
{
	const double odd[] = { 5, 1, 4, 1, 3 }, even[] = { 8, 2, 6, 4 };
	double copy[4] = { 8, 2, 6, 4 };

	ASSERT_EQ(3, median(odd, 5));
	ASSERT_EQ(5, median(even, 4));		/* (4 + 6) / 2 */
	ASSERT_EQ(1, median(odd + 1, 1));
	ASSERT_EQ(0, median(odd, 0));
	ASSERT_EQ(1, median((const double[]){ 1, 1, 1 }, 3));
	median(copy, 4);
	ASSERT_EQ(0, memcmp(copy, even, sizeof(copy)));
}

/* --- @data ---------------------------------------------------------------- */

TEST(data_line_is_json)
{
	struct vmab_data d;
	int i;

	data_begin(&d, DKIND_SCENARIO);
	data_str(&d, DK_DESIGN, "vrange");
	data_str(&d, DK_DETECT, NULL);
	data_long(&d, DK_PAGES_MARKED, 256);
	data_double(&d, DK_RATIO_MIN, 0.5);
	data_double(&d, DK_RATIO_MAX, NAN);
	ASSERT_STREQ("{\"kind\":\"scenario\",\"design\":\"vrange\",\"detect\":null,"
		     "\"pages_marked\":256,\"ratio_min\":0.5,\"ratio_max\":null", d.buf);
	/* A field that does not fit is dropped whole. */
	for (i = 0; i < 1000; i++)
		data_long(&d, DK_PAGES_MARKED, 123456789);
	ASSERT_LT(d.len, sizeof(d.buf) - 1);
	ASSERT_EQ('9', d.buf[d.len - 1]);
}

/* The mode's traits come from VMAB_SWAP and VMAB_LRU, never from its name. */
TEST(mode_traits_from_the_environment)
{
	setenv("VMAB_MODE", "swap-mglru", 1);
	unsetenv("VMAB_SWAP");
	unsetenv("VMAB_LRU");
	ASSERT_FALSE(vmab_mode_has_swap());
	ASSERT_FALSE(vmab_mode_is_mglru());
	setenv("VMAB_SWAP", "on", 1);
	setenv("VMAB_LRU", "mglru", 1);
	ASSERT_TRUE(vmab_mode_has_swap());
	ASSERT_TRUE(vmab_mode_is_mglru());
	setenv("VMAB_SWAP", "off", 1);
	setenv("VMAB_LRU", "classic", 1);
	ASSERT_FALSE(vmab_mode_has_swap());
	ASSERT_FALSE(vmab_mode_is_mglru());
}

/* make host-bench (VMAB_VARIANT=host) never gets a memory cgroup on the host. */
TEST(no_memcg_under_host_bench)
{
	setenv("VMAB_VARIANT", "host", 1);
	ASSERT_FALSE(memcg_available());
	ASSERT_NE(NULL, strstr(need_memcg(), "host-bench"));
	unsetenv("VMAB_VARIANT");
}

/* --- designs ---------------------------------------------------------------- */

/*
 * The table: every design named once, with its Kconfig option in the
 * reason its tests skip with (matrix/lib/VMAB/Expectations.pm reads it there),
 * and every operation a program calls.
 */
TEST(designs_table_is_whole)
{
	int d, e;

	for (d = 0; d < DESIGN_NR; d++) {
		const struct design_def *x = &designs[d];

		ASSERT_EQ(d, (int)x->id);
		ASSERT_NE(NULL, x->name);
		ASSERT_NE(NULL, x->kconfig);
		ASSERT_NE(NULL, strstr(x->absent, x->kconfig)) TH_LOG("%s", x->name);
		ASSERT_TRUE(x->supported && x->map && x->give_back && x->take_back);
		ASSERT_EQ(x, design_by_name(x->name));
		for (e = 0; e < d; e++)
			ASSERT_NE(0, strcmp(x->name, designs[e].name));
	}
	ASSERT_EQ(NULL, design_by_name("none"));
	ASSERT_STREQ("vrange", designs[DESIGN_VRANGE].name);
	ASSERT_STREQ("madv_free", designs[DESIGN_MADV_FREE].name);
	ASSERT_STREQ("droppable", designs[DESIGN_DROPPABLE].name);
}

/*
 * Cookies: a page that lost its cookie is counted by a read and by the
 * write-back; cookie_take_back() leaves such a page as it found it (a
 * dropped page stays zero, never half-rewritten) and every other page
 * holding its cookie.
 */
TEST(cookies_count_lost_pages)
{
	const uint64_t cookie = 0x1234567890abcdefull;
	const size_t len = 8 * PAGE_SZ;
	char *p = map_anon(len);

	ASSERT_NE(MAP_FAILED, p);
	cookie_write(p, len, cookie);
	ASSERT_EQ(0, cookie_lost(p, len, cookie));
	ASSERT_EQ(0, cookie_take_back(p, len, cookie));
	memset(p + 3 * PAGE_SZ, 0, PAGE_SZ);
	memset(p + 5 * PAGE_SZ, 0, PAGE_SZ);
	ASSERT_EQ(2, cookie_lost(p, len, cookie));
	ASSERT_EQ(2, cookie_take_back(p, len, cookie));
	ASSERT_TRUE(range_is_zero(p + 3 * PAGE_SZ, PAGE_SZ));
	ASSERT_EQ(cookie, *(uint64_t *)(p + 4 * PAGE_SZ));
	munmap(p, len);
}

/*
 * pageout() runs MADV_PAGEOUT on each allowed CPU in turn and then gives
 * the task its CPUs back; a failure keeps madvise()'s errno.
 */
TEST(pageout_restores_affinity_and_errno)
{
	cpu_set_t before, after;
	char *p;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(before), &before));
	p = map_anon(4 * PAGE_SZ);
	ASSERT_NE(MAP_FAILED, p);
	touch_write(p, 4 * PAGE_SZ);
	ASSERT_EQ(0, pageout(p, 4 * PAGE_SZ));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after));
	/* An unmapped range: ENOMEM, as madvise() says. */
	ASSERT_EQ(0, munmap(p, 4 * PAGE_SZ));
	errno = 0;
	EXPECT_EQ(-1, pageout(p, 4 * PAGE_SZ));
	EXPECT_EQ(ENOMEM, errno);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

TEST_HARNESS_MAIN
