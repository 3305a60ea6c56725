// SPDX-License-Identifier: GPL-2.0
/* Memory helpers: mappings, patterns, residency, smaps; see vmab.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmab.h"

void *map_anon(size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

void *trim_to_alignment(void *mapping, size_t len, size_t align)
{
	char *p = mapping;
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

void *map_anon_aligned(size_t len, size_t align)
{
	return trim_to_alignment(mmap(NULL, len + align, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
				 len, align);
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

void fill_pages(void *p, size_t len, unsigned int seed)
{
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ)
		fill_pattern((char *)p + off, PAGE_SZ, seed + off / PAGE_SZ);
}

long changed_bytes(const void *p, size_t len, unsigned int seed)
{
	unsigned char ref[PAGE_SZ];
	long i, lost = 0;
	size_t b;

	for (i = 0; i < (long)(len / PAGE_SZ); i++) {
		const unsigned char *pg = (const unsigned char *)p + i * PAGE_SZ;

		if (check_pattern(pg, PAGE_SZ, seed + i) == -1)
			continue;
		fill_pattern(ref, PAGE_SZ, seed + i);
		for (b = 0; b < PAGE_SZ; b++)
			lost += pg[b] != ref[b];
	}
	return lost;
}

long first_changed_page(const void *p, size_t len, unsigned int seed)
{
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ)
		if (check_pattern((const char *)p + off, PAGE_SZ,
				  seed + off / PAGE_SZ) != -1)
			return off / PAGE_SZ;
	return -1;
}

long changed_pages(const void *p, size_t len, unsigned int seed)
{
	size_t off;
	long n = 0;

	for (off = 0; off < len; off += PAGE_SZ)
		n += check_pattern((const char *)p + off, PAGE_SZ,
				   seed + off / PAGE_SZ) != -1;
	return n;
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

void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

int pageout(void *p, size_t len)
{
	cpu_set_t allowed, one;
	int cpu, ret = 0, err = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return madvise(p, len, MADV_PAGEOUT);
	for (cpu = 0; cpu < CPU_SETSIZE && !ret; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		ret = madvise(p, len, MADV_PAGEOUT);
		err = errno;
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	errno = err;
	return ret;
}

long pageout_all(void *p, size_t len)
{
	uint64_t deadline = now_ns() + 10ull * 1000000000ull;
	long n = 0;

	for (;;) {
		if (pageout(p, len))
			return -errno;
		n = nonresident_pages(p, len);
		if (n == (long)(len / PAGE_SZ) || now_ns() > deadline)
			break;
		usleep(20000);
	}
	return n;
}

long nonresident_pages(const void *p, size_t len)
{
	long n = resident_pages(p, len);

	return n < 0 ? -1 : (long)((len + PAGE_SZ - 1) / PAGE_SZ) - n;
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
