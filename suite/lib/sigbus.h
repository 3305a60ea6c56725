/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Touching a purged page of a volatile range raises SIGBUS (SPEC 4.3).
 * A test catches it to check si_code and si_addr:
 *   sigbus_catch(0);            handler on; seen counts reset
 *   sigbus_read(p)              1 if the read raised SIGBUS, else 0
 *   sigbus_write(p, v)          the same for a one-byte store
 *   sigbus_seen.addr, .code, .count   of the last signal, and how many
 * sigbus_catch(1) recovers instead, as an allocator would: the handler
 * makes the faulting page non-volatile (it must report purged, else the
 * process exits 99) and returns, so the access is retried and sees a zero
 * page.  sigbus_probe_read(p) is sigbus_read() with the handler on only
 * for that one read (the previous one put back afterwards).
 */
#ifndef VMAB_SIGBUS_H
#define VMAB_SIGBUS_H

struct sigbus_seen {
	void *volatile addr;
	volatile int code;
	volatile int count;
};
extern struct sigbus_seen sigbus_seen;

void sigbus_catch(int recover);
int sigbus_read(const void *p);
int sigbus_write(void *p, char v);
int sigbus_probe_read(const void *p);

#endif /* VMAB_SIGBUS_H */
