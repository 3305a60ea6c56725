// SPDX-License-Identifier: GPL-2.0
/*
 * Design C: mmap(MAP_DROPPABLE) (SPEC 5.1), the kernel side's own check of
 * its ABI: the mapping is created where CONFIG_MAP_DROPPABLE=y and is EINVAL
 * elsewhere; its VMA flags, the refusals of mainline and its later fixes
 * (MADV_KEEPONFORK, MADV_DODUMP, mlock(), mlockall(MCL_FUTURE),
 * userfaultfd), the wipe on fork(), and one drop by memory.reclaim.  The
 * scenarios and figures of design C are the shared suite's.
 *
 * Where the kernel lacks design C every test skips with the reason
 * "CONFIG_MAP_DROPPABLE=n", except droppable_absent_gives_einval, which
 * passes only there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vmab.h"

#define NPAGES 64

/* map_droppable(len): suite/lib/designs.c's, the same mmap() call. */

/* 1 where mmap(MAP_DROPPABLE) works, 0 where the kernel says EINVAL. */
static int droppable_supported(void)
{
	void *p = map_droppable(PAGE_SZ);

	if (p == MAP_FAILED)
		return 0;
	munmap(p, PAGE_SZ);
	return 1;
}

#define NEEDS_DROPPABLE() do {						\
	if (!droppable_supported())					\
		SKIP(return, "CONFIG_MAP_DROPPABLE=n (mmap(MAP_DROPPABLE) is EINVAL)"); \
} while (0)

/* Page i holds the byte i % 251 + 1 (never 0) in every position. */
static void fill_numbered(char *p, int npages)
{
	for (int i = 0; i < npages; i++)
		memset(p + i * PAGE_SZ, i % 251 + 1, PAGE_SZ);
}

/*
 * How many pages read zero; -1 if a page holds anything but its own
 * number or zero (a page must come back whole or not at all).
 */
static int zero_pages(const char *p, int npages)
{
	int zeros = 0;

	for (int i = 0; i < npages; i++) {
		const char *pg = p + i * PAGE_SZ;
		char want = pg[0] ? i % 251 + 1 : 0;

		for (size_t j = 0; j < PAGE_SZ; j++)
			if (pg[j] != want)
				return -1;
		zeros += !want;
	}
	return zeros;
}

VMAB_NEEDS("droppable_absent_gives_einval", "no_droppable");
TEST(droppable_absent_gives_einval)
{
	void *p = map_droppable(PAGE_SZ);

	if (p != MAP_FAILED) {
		munmap(p, PAGE_SZ);
		SKIP(return, "design C present (CONFIG_MAP_DROPPABLE=y)");
	}
	EXPECT_EQ(EINVAL, errno);
}

VMAB_NEEDS("droppable_mapping_and_its_flags", "droppable");
TEST(droppable_mapping_and_its_flags)
{
	size_t len = NPAGES * PAGE_SZ;
	char *p;

	NEEDS_DROPPABLE();
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	fill_numbered(p, NPAGES);
	EXPECT_EQ(0, zero_pages(p, NPAGES));
	EXPECT_EQ(1, smaps_has_flag(p, "dp"));	/* VM_DROPPABLE */
	EXPECT_EQ(1, smaps_has_flag(p, "wf"));	/* VM_WIPEONFORK */
	EXPECT_EQ(1, smaps_has_flag(p, "dd"));	/* VM_DONTDUMP */
	EXPECT_EQ(0, smaps_has_flag(p, "ac"));	/* VM_NORESERVE: not accounted */
	EXPECT_EQ(-1, madvise(p, len, MADV_KEEPONFORK));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, madvise(p, len, MADV_DODUMP));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, smaps_has_flag(p, "wf"));
	EXPECT_EQ(1, smaps_has_flag(p, "dd"));
	munmap(p, len);
}

VMAB_NEEDS("droppable_refuses_file_shared_locked", "droppable");
TEST(droppable_refuses_file_shared_locked)
{
	char path[] = "/tmp/vmab-droppable-XXXXXX";
	int fd = mkstemp(path);

	NEEDS_DROPPABLE();
	ASSERT_LE(0, fd);
	unlink(path);
	ASSERT_EQ(0, ftruncate(fd, PAGE_SZ));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
				   MAP_DROPPABLE, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	/* 0x08 | MAP_SHARED is map type 0x09: unknown. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
				   MAP_DROPPABLE | MAP_SHARED | MAP_ANONYMOUS, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
				   MAP_DROPPABLE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
				   MAP_DROPPABLE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

/* mlock() succeeds but locks nothing: no "lo", no VmLck. */
VMAB_NEEDS("droppable_mlock_does_not_lock", "droppable");
TEST(droppable_mlock_does_not_lock)
{
	size_t len = 16 * PAGE_SZ;
	char *p;

	NEEDS_DROPPABLE();
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	fill_numbered(p, 16);
	EXPECT_EQ(0, mlock(p, len));
	EXPECT_EQ(0, smaps_has_flag(p, "lo"));
	EXPECT_EQ(0, smaps_field_kb(p, "Locked"));
	munlock(p, len);
	munmap(p, len);
}

/* mainline d239462787b0: mlockall(MCL_FUTURE) must not lock it either. */
VMAB_NEEDS("droppable_mlockall_future_does_not_lock", "droppable");
TEST(droppable_mlockall_future_does_not_lock)
{
	size_t len = 16 * PAGE_SZ;
	char *p, *q;

	NEEDS_DROPPABLE();
	ASSERT_EQ(0, mlockall(MCL_FUTURE));
	p = map_droppable(len);
	q = map_anon(PAGE_SZ);		/* the control: locked */
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_NE(MAP_FAILED, q);
	EXPECT_EQ(0, smaps_has_flag(p, "lo"));
	EXPECT_EQ(1, smaps_has_flag(q, "lo"));
	munlockall();
	munmap(p, len);
	munmap(q, PAGE_SZ);
}

/* Tal Zussman's fix of 9651fcedf7b9: UFFDIO_REGISTER is EINVAL. */
VMAB_NEEDS("droppable_userfaultfd_register_refused", "droppable,CONFIG_USERFAULTFD");
TEST(droppable_userfaultfd_register_refused)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	size_t len = 4 * PAGE_SZ;
	char *p;
	int uffd;

	NEEDS_DROPPABLE();
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		SKIP(return, "needs CONFIG_USERFAULTFD (userfaultfd(): %s)", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	reg.range.start = (unsigned long)p;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	EXPECT_EQ(-1, ioctl(uffd, UFFDIO_REGISTER, &reg));
	EXPECT_EQ(EINVAL, errno);
	/* The control: the same on a private anonymous mapping works. */
	munmap(p, len);
	p = map_anon(len);
	ASSERT_NE(MAP_FAILED, p);
	reg.range.start = (unsigned long)p;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	munmap(p, len);
	close(uffd);
}

VMAB_NEEDS("droppable_wiped_in_fork_child", "droppable");
TEST(droppable_wiped_in_fork_child)
{
	size_t len = NPAGES * PAGE_SZ;
	int status;
	pid_t pid;
	char *p;

	NEEDS_DROPPABLE();
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	fill_numbered(p, NPAGES);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(zero_pages(p, NPAGES) == NPAGES ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, zero_pages(p, NPAGES));	/* the parent keeps its pages */
	munmap(p, len);
}

/*
 * Written (dirty) pages are dropped by reclaim, never swapped: after
 * memory.reclaim of the cgroup every page is whole or zero, some are zero,
 * and the mapping has no swap entry (smaps Swap: 0 kB).
 */
VMAB_NEEDS("droppable_dropped_dirty_by_memory_reclaim", "droppable,memcg");
TEST(droppable_dropped_dirty_by_memory_reclaim)
{
	size_t len = 4 * NPAGES * PAGE_SZ;
	long pswpout, lazyfreed;
	struct memcg cg;
	int zeros = 0, ret;
	char *p;

	NEEDS_DROPPABLE();
	NEEDS(need_memcg());
	ASSERT_EQ(0, memcg_create(&cg, "droppable"));
	ASSERT_EQ(0, memcg_enter(&cg));
	p = map_droppable(len);
	ASSERT_NE(MAP_FAILED, p);
	fill_numbered(p, 4 * NPAGES);
	pswpout = vmstat_get("pswpout");
	lazyfreed = vmstat_get("pglazyfreed");
	for (int round = 0; round < 8 && zeros < 4 * NPAGES; round++) {
		ret = memcg_reclaim(&cg, len);	/* -EAGAIN: not all of it */
		zeros = zero_pages(p, 4 * NPAGES);
		ASSERT_LE(0, zeros);
		TH_LOG("round %d: memory.reclaim %d, %d of %d pages dropped",
		       round, ret, zeros, 4 * NPAGES);
	}
	TH_LOG("pglazyfreed %+ld", vmstat_get("pglazyfreed") - lazyfreed);
	EXPECT_LT(0, zeros);
	/* Nothing of the mapping went to swap (the rest of the cgroup may). */
	EXPECT_EQ(0, smaps_field_kb(p, "Swap"));
	TH_LOG("pswpout %+ld (the whole system)", vmstat_get("pswpout") - pswpout);
	munmap(p, len);
	memcg_leave();
	memcg_destroy(&cg);
}

TEST_HARNESS_MAIN
