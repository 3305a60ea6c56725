// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the in-guest programs; see vmab.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "vmab.h"

/*
 * Every program writes its TAP, and the harness its TH_LOG lines
 * (-DTH_LOG_STREAM=stdout, suite/Makefile), to stdout.  The harness logs
 * from the forked test process, which ends with _exit(): a line still in
 * a full buffer then would be lost, or come out twice after a fork.
 * Line-buffered, each line is out when it ends, in order.
 */
__attribute__((constructor)) static void stdout_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

const char *vmab_mode(void)
{
	const char *m = getenv("VMAB_MODE");

	return m ? m : "unknown";
}

const char *vmab_variant(void)
{
	const char *v = getenv("VMAB_VARIANT");

	return v ? v : "unknown";
}

int vmab_mode_has_swap(void)
{
	return strncmp(vmab_mode(), "swap-", 5) == 0;
}

int vmab_mode_is_mglru(void)
{
	return strstr(vmab_mode(), "mglru") != NULL;
}

int vrange_supported(void)
{
	void *p = map_anon(PAGE_SZ);
	int purged = 0;
	long r;

	/*
	 * QUERY of a mapped page succeeds only where 451 is vrange(): it is
	 * ENOSYS without CONFIG_VRANGE, and newer kernels (the host) use 451
	 * for cachestat(), which fails on this fd with EBADF.  Any other
	 * answer is a vrange(), even a broken one, so its tests run and fail.
	 */
	if (p == MAP_FAILED)
		return 0;
	errno = 0;
	r = sys_vrange((unsigned long)p, PAGE_SZ, VRANGE_QUERY, &purged);
	munmap(p, PAGE_SZ);
	return !(r < 0 && (errno == ENOSYS || errno == EBADF));
}

/*
 * A zero-length call: madvise() refuses an unknown advice before it looks
 * at the length, and frees nothing, so the probe leaves no lazily free page
 * behind (after a real MADV_FREE, vrange patch 13 makes every later unmark
 * of the process look at its page tables).
 */
int madv_free_supported(void)
{
	void *p = map_anon(PAGE_SZ);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	ok = madvise(p, 0, MADV_FREE) == 0;
	munmap(p, PAGE_SZ);
	return ok;
}

static long keyed_value(const char *path, const char *key, char sep)
{
	char line[256];
	size_t klen = strlen(key);
	long val = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == sep) {
			val = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

long vmstat_get(const char *name)
{
	return keyed_value("/proc/vmstat", name, ' ');
}

int vmstat_refresh(void)
{
	return write_file("/proc/sys/vm/stat_refresh", "1");
}

long meminfo_kb(const char *name)
{
	return keyed_value("/proc/meminfo", name, ':');
}

long swap_used_kb(void)
{
	long total = meminfo_kb("SwapTotal"), free = meminfo_kb("SwapFree");

	return total < 0 || free < 0 ? -1 : total - free;
}

void *map_anon(size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

void *map_anon_aligned(size_t len, size_t align)
{
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start, end;

	if (p == MAP_FAILED)
		return p;
	start = ((uintptr_t)p + align - 1) & ~(align - 1);
	end = start + len;
	if (start > (uintptr_t)p)
		munmap(p, start - (uintptr_t)p);
	if ((uintptr_t)p + len + align > end)
		munmap((void *)end, (uintptr_t)p + len + align - end);
	return (void *)start;
}

/* A pattern that differs per page and per byte, and is never all zero. */
static unsigned char pattern_byte(size_t off, unsigned int seed)
{
	uint32_t x = (uint32_t)(off / 8) * 2654435761u ^ seed;

	return (unsigned char)((x >> ((off % 4) * 8)) | 1);
}

void fill_pattern(void *p, size_t len, unsigned int seed)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		c[i] = pattern_byte(i, seed);
}

long check_pattern(const void *p, size_t len, unsigned int seed)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[i] != pattern_byte(i, seed))
			return (long)i;
	return -1;
}

int range_is_zero(const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[i])
			return 0;
	return 1;
}

void touch_read(const void *p, size_t len)
{
	const volatile unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i += PAGE_SZ)
		(void)c[i];
}

void touch_write(void *p, size_t len)
{
	volatile unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i += PAGE_SZ)
		c[i] = (unsigned char)(i >> 12 | 1);
}

long resident_pages(const void *p, size_t len)
{
	size_t i, np = (len + PAGE_SZ - 1) / PAGE_SZ;
	unsigned char *vec = malloc(np);
	long n = 0;

	if (!vec || mincore((void *)p, len, vec)) {
		free(vec);
		return -1;
	}
	for (i = 0; i < np; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

int count_vmas(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* Position f just after the smaps header line of the VMA holding addr. */
static FILE *smaps_find(const void *addr)
{
	char line[512];
	unsigned long a = (unsigned long)addr, lo, hi;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ') && a >= lo && a < hi)
			return f;
	}
	fclose(f);
	return NULL;
}

int smaps_has_flag(const void *addr, const char *flag)
{
	char line[512];
	int found = 0;
	FILE *f = smaps_find(addr);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "VmFlags:", 8) == 0) {
			char *tok = strtok(line + 8, " \n");

			for (; tok; tok = strtok(NULL, " \n"))
				if (strcmp(tok, flag) == 0)
					found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

long smaps_field_kb(const void *addr, const char *field)
{
	char line[512];
	size_t flen = strlen(field);
	long val = -1;
	FILE *f = smaps_find(addr);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, field, flen) == 0 && line[flen] == ':') {
			val = strtol(line + flen + 1, NULL, 10);
			break;
		}
		if (strncmp(line, "VmFlags:", 8) == 0)
			break;
	}
	fclose(f);
	return val;
}

int thp_enabled(void)
{
	return need_thp() == NULL;
}

int no_hugepage(void *p, size_t len)
{
	if (!thp_enabled())
		return 0;
	return madvise(p, len, MADV_NOHUGEPAGE) ? -errno : 0;
}

/* An optional feature's sysfs folder: NULL if it is there, else why. */
static const char *need_path(const char *path, const char *why)
{
	return access(path, F_OK) == 0 ? NULL : why;
}

const char *need_thp(void)
{
	return need_path("/sys/kernel/mm/transparent_hugepage/enabled",
			 "needs CONFIG_TRANSPARENT_HUGEPAGE (no /sys/kernel/mm/transparent_hugepage)");
}

const char *need_ksm(void)
{
	return need_path("/sys/kernel/mm/ksm/run",
			 "needs CONFIG_KSM (no /sys/kernel/mm/ksm)");
}

const char *need_lru_gen(void)
{
	return need_path("/sys/kernel/mm/lru_gen/enabled",
			 "needs CONFIG_LRU_GEN (no /sys/kernel/mm/lru_gen)");
}

/* A word in a cgroup v2 list file ("cpu io memory pids"). */
static int cgroup_list_has(const char *path, const char *word)
{
	char buf[256], *tok, *save;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (strcmp(tok, word) == 0)
			return 1;
	return 0;
}

const char *need_memcg(void)
{
	/* The kernel has it: listed in the root's cgroup.controllers. */
	if (!cgroup_list_has("/sys/fs/cgroup/cgroup.controllers", "memory"))
		return "needs CONFIG_MEMCG (no memory controller in /sys/fs/cgroup/cgroup.controllers)";
	/* init.sh enables it for the children; if that failed, say so. */
	if (!cgroup_list_has("/sys/fs/cgroup/cgroup.subtree_control", "memory"))
		return "memory controller not enabled in /sys/fs/cgroup/cgroup.subtree_control";
	return NULL;
}

#define KHUGEPAGED "/sys/kernel/mm/transparent_hugepage/khugepaged/"

int khugepaged_fast(struct khugepaged_saved *s)
{
	long r;

	r = read_file(KHUGEPAGED "scan_sleep_millisecs", s->scan, sizeof(s->scan));
	if (r >= 0)
		r = read_file(KHUGEPAGED "alloc_sleep_millisecs", s->alloc, sizeof(s->alloc));
	if (r < 0)
		return r;
	r = write_file(KHUGEPAGED "scan_sleep_millisecs", "10");
	if (!r)
		r = write_file(KHUGEPAGED "alloc_sleep_millisecs", "10");
	if (r)
		khugepaged_restore(s);
	return r;
}

void khugepaged_restore(const struct khugepaged_saved *s)
{
	write_file(KHUGEPAGED "scan_sleep_millisecs", s->scan);
	write_file(KHUGEPAGED "alloc_sleep_millisecs", s->alloc);
}

int khugepaged_wait(const void *p, const char *event, long since, int secs)
{
	int i;

	for (i = 0; i < secs * 10; i++) {
		if (smaps_field_kb(p, "AnonHugePages") >= (long)(HPAGE_SZ >> 10))
			return 1;
		if (event && vmstat_get(event) > since)
			return 1;
		usleep(100000);
	}
	return 0;
}

int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

long read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

int memcg_available(void)
{
	return need_memcg() == NULL;
}

int memcg_create(struct memcg *cg, const char *tag)
{
	snprintf(cg->path, sizeof(cg->path), "/sys/fs/cgroup/vmab-%s-%d",
		 tag, (int)getpid());
	if (mkdir(cg->path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int memcg_write(const struct memcg *cg, const char *file, const char *val)
{
	char p[320];

	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	return write_file(p, val);
}

int memcg_enter(const struct memcg *cg)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return memcg_write(cg, "cgroup.procs", pid);
}

int memcg_leave(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_file("/sys/fs/cgroup/cgroup.procs", pid);
}

int memcg_destroy(struct memcg *cg)
{
	int i;

	/* The cgroup may still hold exiting tasks for a moment. */
	for (i = 0; i < 100; i++) {
		if (rmdir(cg->path) == 0 || errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -errno;
}

int memcg_reclaim(const struct memcg *cg, size_t bytes)
{
	char val[32];

	snprintf(val, sizeof(val), "%zu", bytes);
	return memcg_write(cg, "memory.reclaim", val);
}

long memcg_stat(const struct memcg *cg, const char *key)
{
	char p[320];

	snprintf(p, sizeof(p), "%s/memory.stat", cg->path);
	return keyed_value(p, key, ' ');
}

long memcg_read_long(const struct memcg *cg, const char *file)
{
	char p[320], buf[64];

	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	if (read_file(p, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static double tsc_ns_per_tick;	/* 0 before the first call, -1 unused */
static uint64_t tsc_base, tsc_base_ns;

#ifdef HAVE_TSC
/* Spin until CLOCK_MONOTONIC moves on to its next tick; the new time. */
static uint64_t next_tick_ns(void)
{
	uint64_t t = now_ns(), u;

	while ((u = now_ns()) == t)
		;
	return u;
}
#endif

static void fine_init(void)
{
#ifdef HAVE_TSC
	uint64_t t0, t1, c0, c1;
#endif

	tsc_ns_per_tick = -1;
#ifdef HAVE_TSC
	/* Tick edge to tick edge over ~200 ms: the tick's width cancels out. */
	t0 = next_tick_ns();
	c0 = __rdtsc();
	while (now_ns() < t0 + 200000000ull)
		;
	t1 = next_tick_ns();
	c1 = __rdtsc();
	if (c1 > c0 && t1 > t0) {
		tsc_ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
		tsc_base = c1;
		tsc_base_ns = t1;
	}
#endif
}

uint64_t fine_ns(void)
{
	if (!tsc_ns_per_tick)
		fine_init();
#ifdef HAVE_TSC
	if (tsc_ns_per_tick > 0)
		return tsc_base_ns + (uint64_t)((double)(__rdtsc() - tsc_base) * tsc_ns_per_tick);
#endif
	return now_ns();
}

const char *fine_clock_name(void)
{
	if (!tsc_ns_per_tick)
		fine_init();
	return tsc_ns_per_tick > 0 ? "tsc-calibrated" : "monotonic";
}

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

static int tap_num;

void tap_plan(int n)
{
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

void tap_result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++tap_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void tap_skip(const char *name, const char *reason_fmt, ...)
{
	va_list ap;

	printf("ok %d %s # SKIP ", ++tap_num, name);
	va_start(ap, reason_fmt);
	vprintf(reason_fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}
