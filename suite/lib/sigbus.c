// SPDX-License-Identifier: GPL-2.0
/* Catching the SIGBUS of a purged volatile page; see sigbus.h. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <unistd.h>

#include "vmab.h"

struct sigbus_seen sigbus_seen;
static sigjmp_buf sigbus_jmp;
static volatile int sigbus_recover;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	sigbus_seen.addr = si->si_addr;
	sigbus_seen.code = si->si_code;
	sigbus_seen.count++;
	if (sigbus_recover) {
		/* Take the page back; returning retries the access. */
		int purged = -1;
		unsigned long pg = (unsigned long)si->si_addr & ~(PAGE_SZ - 1);

		if (sys_vrange(pg, PAGE_SZ, VRANGE_NONVOLATILE, &purged) !=
		    (long)PAGE_SZ || purged != 1)
			_exit(99);
		return;
	}
	siglongjmp(sigbus_jmp, 1);
}

static void sigbus_install(int recover, struct sigaction *old)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, old);
	sigbus_seen.addr = NULL;
	sigbus_seen.code = 0;
	sigbus_seen.count = 0;
	sigbus_recover = recover;
}

void sigbus_catch(int recover)
{
	sigbus_install(recover, NULL);
}

int sigbus_read(const void *p)
{
	if (sigsetjmp(sigbus_jmp, 1) == 0) {
		(void)*(const volatile char *)p;
		return 0;
	}
	return 1;
}

int sigbus_write(void *p, char v)
{
	if (sigsetjmp(sigbus_jmp, 1) == 0) {
		*(volatile char *)p = v;
		return 0;
	}
	return 1;
}

int sigbus_probe_read(const void *p)
{
	struct sigaction old;
	int hit;

	sigbus_install(0, &old);
	hit = sigbus_read(p);
	sigaction(SIGBUS, &old, NULL);
	return hit;
}
