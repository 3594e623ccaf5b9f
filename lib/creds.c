/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * creds.c: a process that changes its credentials leaves the session first.
 *
 * The session is one shared mapping: every traced process of a run has
 * all of it, every thread's ring and counters, read-write.  A forked child
 * inherits it (MAP_SHARED survives fork), with or without -f.  That is
 * harmless while every process is the user who ran ltruss, but a daemon
 * traced as root forks workers that drop to another user without exec
 * (setgroups, setgid, setuid: nginx, sshd, postfix): such a worker would
 * go on reading, as nobody, what root captures later (the strings of its
 * calls), and could write what ltruss reads.
 *
 * So the functions that change credentials are hooked always, as the wait
 * family is (lib/hooks.c), also in forked children that are not traced:
 * the set*id family, setgroups, initgroups, capset, and syscall() when its
 * number is one of those.  Before the real call, the process leaves the
 * session: a traced process first puts an UNTRACED event in its ring
 * (ltruss prints "+++ untraced: setuid changed its credentials +++"), then
 * tracing stops (ltr_flags = 0, as when ltruss is gone) and the whole
 * session is replaced, in one mmap(MAP_FIXED), by private zero pages of the
 * same size.  Other threads of the process that are writing an event at
 * that moment write into those pages and go on; a thread waiting for room
 * in its ring sees tracing stopped and gives up.  The memfd itself was
 * closed at start-up, and once the process is another user it cannot open
 * ltruss's copy through /proc.  The process runs on untraced and unharmed.
 *
 * It is done before the call, because after it other threads of the
 * program already run with the new credentials; a call that fails costs
 * the trace of that process.  A call that changes nothing (setgid(getgid())
 * in a process whose real, effective and saved ids are already that), or
 * one the process lacks the capability for (it fails: a non-root program
 * trying setgroups), keeps the session.  setgroups and initgroups leave it
 * whenever the process has CAP_SETGID, capset whenever it has any
 * capability.
 *
 * A vfork child (or any child sharing the memory: clone(CLONE_VM)) that
 * changes its credentials before it execs (a server dropping root for the
 * worker it vforks) must not take the session from its parent, whose
 * memory it is: it only stops tracing itself (its thread's mask), and
 * what it executes gets no session (ltr_creds_left_here()).  Until then it
 * runs the parent's own code, in the parent's memory, which it could read
 * whole anyway.
 *
 * What this does not see: a credential change made by a system call
 * instruction of the program's own (not through libc's functions or its
 * syscall()), by libc internally without a PLT call, or by prctl (securebits,
 * the bounding set).  Such a process keeps the mapping; see docs/FAULTS.md.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "hooks.h"
#include "interposer.h"
#include "process.h"

#define NO_ID 0xffffffffu /* -1: "leave this id as it is" */

static bool left; /* the session is gone from this process */
static int32_t left_child; /* a child sharing our memory left (its pid) */

/* Does setting the ids of ids[] (NO_ID: unchanged) leave all three ids as they are? */
static bool ids_unchanged(long getres, const uint32_t *ids, unsigned n)
{
	uint32_t cur[3];
	unsigned i;

	if (ltr_syscall3(getres, (long)&cur[0], (long)&cur[1],
			 (long)&cur[2]) != 0)
		return false;
	for (i = 0; i < n; i++)
		if (ids[i] != NO_ID &&
		    (ids[i] != cur[0] || ids[i] != cur[1] || ids[i] != cur[2]))
			return false;
	return true;
}

#define CAP_SETGID_BIT (1u << 6)
#define CAP_SETUID_BIT (1u << 7)

/*
 * The system calls that set ids: how many they take, where to read the
 * current ones, and the capability without which they change nothing
 * (ltruss refuses set-uid programs, so an unprivileged traced process has
 * one id of each kind, and may only set that one).
 */
static const struct {
	long nr, getres;
	unsigned nids;
	uint32_t cap;
} id_calls[] = {
	{ SYS_setuid, SYS_getresuid, 1, CAP_SETUID_BIT },
	{ SYS_setfsuid, SYS_getresuid, 1, CAP_SETUID_BIT },
	{ SYS_setreuid, SYS_getresuid, 2, CAP_SETUID_BIT },
	{ SYS_setresuid, SYS_getresuid, 3, CAP_SETUID_BIT },
	{ SYS_setgid, SYS_getresgid, 1, CAP_SETGID_BIT },
	{ SYS_setfsgid, SYS_getresgid, 1, CAP_SETGID_BIT },
	{ SYS_setregid, SYS_getresgid, 2, CAP_SETGID_BIT },
	{ SYS_setresgid, SYS_getresgid, 3, CAP_SETGID_BIT },
	{ SYS_setgroups, 0, 0, CAP_SETGID_BIT },
};

/* This process's capabilities 0-31: effective, or permitted; all if unknown. */
static uint32_t caps(bool permitted)
{
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0 };
	struct {
		uint32_t effective, permitted, inheritable;
	} data[2];

	if (ltr_syscall3(SYS_capget, (long)&hdr, (long)data, 0) != 0)
		return ~0u;
	return permitted ? data[0].permitted | data[1].permitted
			 : data[0].effective;
}

/*
 * Would system call nr with arguments a, b, c change this process's
 * credentials?  A call it has no capability for fails, and keeps the
 * session (a non-root program trying setgroups or setuid(0)).
 */
static bool creds_change(long nr, long a, long b, long c)
{
	uint32_t ids[3] = { (uint32_t)a, (uint32_t)b, (uint32_t)c };
	size_t i;

	if (nr == SYS_capset)
		return caps(true) != 0;
	for (i = 0; i < sizeof(id_calls) / sizeof(id_calls[0]); i++)
		if (id_calls[i].nr == nr)
			return (caps(false) & id_calls[i].cap) &&
			       (!id_calls[i].nids ||
				!ids_unchanged(id_calls[i].getres, ids,
					       id_calls[i].nids));
	return false;
}

/* Leave the session before a credential change made by function name. */
static void creds_leave(const char *name)
{
	uint64_t size = ltr_header_size_lib();
	bool child = ltr_process_shares_memory();
	/* A child sharing our memory uses the state it has, never makes one. */
	struct ltr_tstate *ts = child ? ltr_tls_self : NULL;
	/* An untraced vfork child (no -f) has nothing to say. */
	bool traced = !ltr_forked() && ltr_flags &&
		      (!child || !ts || ts->flag_mask);
	void *p;

	if (child ? ltr_creds_left_here()
		  : __atomic_exchange_n(&left, true, __ATOMIC_ACQ_REL))
		return;
	if (traced && (ltr_flags & LTR_F_TRACE) &&
	    (ts || (!child && (ts = ltr_thread_self()))) && !ts->busy &&
	    !ts->shared_slot) {
		ts->busy = 1;
		ltr_event_untraced(ts, name);
		ts->busy = 0;
	} else if (traced) {
		ltr_warn(name, "the process changes its credentials: it is not traced from here on");
	}
	if (child) {
		/*
		 * The parent's memory: leave it its session.  A vfork
		 * child told apart (lib/returns.c) stops tracing until it
		 * leaves, when its parent's mask comes back.
		 */
		if (ts && ts->vfork_guest)
			ts->flag_mask = 0;
		left_child = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
		return;
	}
	__atomic_store_n(&ltr_flags, 0, __ATOMIC_RELEASE);
	ltr_slots_leave();
	p = (void *)ltr_syscall6(SYS_mmap, (long)ltr_session, (long)size,
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
					 MAP_NORESERVE, -1, 0);
	/* Without spare address space, unmapping is still better than leaking. */
	if (p != (void *)ltr_session)
		ltr_syscall3(SYS_munmap, (long)ltr_session, (long)size, 0);
}

bool ltr_creds_left_here(void)
{
	return left || (left_child && ltr_sys_ok(SYS_getpid) &&
			left_child == (int32_t)ltr_syscall3(SYS_getpid, 0, 0,
							     0));
}

/* Leave the session if system call nr, made by function name, changes credentials. */
static void creds_check(const char *name, long nr, long a, long b, long c)
{
	if (ltr_session && !__atomic_load_n(&left, __ATOMIC_ACQUIRE) &&
	    creds_change(nr, a, b, c))
		creds_leave(name);
}

#define REAL(h) ((long (*)(long, long, long))ltr_hook_real[h])

/* A credential function's hook: report it, leave the session, call it. */
static long creds_hook(enum ltr_hook h, const char *name, long nr, long a,
		       long b, long c)
{
	ltr_hook_note(h, (uint64_t)a, (uint64_t)b, (uint64_t)c);
	creds_check(name, nr, a, b, c);
	return REAL(h)(a, b, c);
}

/* The hooks themselves: one line each, their real function's own arguments. */
#define CREDS_HOOK(fn, h, nr)                                       \
	long ltr_hook_##fn(long a, long b, long c)                  \
	{                                                           \
		return creds_hook(h, #fn, nr, a, b, c);             \
	}

CREDS_HOOK(setuid, LTR_H_SETUID, SYS_setuid)
CREDS_HOOK(setreuid, LTR_H_SETREUID, SYS_setreuid)
CREDS_HOOK(setresuid, LTR_H_SETRESUID, SYS_setresuid)
CREDS_HOOK(setfsuid, LTR_H_SETFSUID, SYS_setfsuid)
CREDS_HOOK(setgid, LTR_H_SETGID, SYS_setgid)
CREDS_HOOK(setregid, LTR_H_SETREGID, SYS_setregid)
CREDS_HOOK(setresgid, LTR_H_SETRESGID, SYS_setresgid)
CREDS_HOOK(setfsgid, LTR_H_SETFSGID, SYS_setfsgid)
CREDS_HOOK(setgroups, LTR_H_SETGROUPS, SYS_setgroups)
CREDS_HOOK(capset, LTR_H_CAPSET, SYS_capset)

/* seteuid(e) is setresuid(-1, e, -1); setegid likewise. */
long ltr_hook_seteuid(long e)
{
	ltr_hook_note(LTR_H_SETEUID, (uint64_t)e, 0, 0);
	creds_check("seteuid", SYS_setresuid, -1, e, -1);
	return REAL(LTR_H_SETEUID)(e, 0, 0);
}

long ltr_hook_setegid(long e)
{
	ltr_hook_note(LTR_H_SETEGID, (uint64_t)e, 0, 0);
	creds_check("setegid", SYS_setresgid, -1, e, -1);
	return REAL(LTR_H_SETEGID)(e, 0, 0);
}

/* initgroups sets the supplementary groups inside libc, without a PLT call. */
long ltr_hook_initgroups(long user, long group)
{
	ltr_hook_note(LTR_H_INITGROUPS, (uint64_t)user, (uint64_t)group, 0);
	creds_check("initgroups", SYS_setgroups, 0, 0, 0);
	return REAL(LTR_H_INITGROUPS)(user, group, 0);
}

/*
 * syscall(nr, ...): the way C programs make a system call raw.  Its six
 * arguments are passed on whatever nr takes (reading an unused register
 * or stack word of the caller's frame is harmless).  An entry into
 * seccomp made through it is noted too (lib/seccomp.c).
 */
long ltr_hook_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
	/* Read only for the calls that may enter seccomp (lib/seccomp.c). */
	uint64_t t0 = nr == SYS_seccomp || nr == SYS_prctl ? ltr_now() : 0;
	long r;

	ltr_hook_note(LTR_H_SYSCALL, (uint64_t)nr, (uint64_t)a, (uint64_t)b);
	creds_check("syscall", nr, a, b, c);
	r = ((long (*)(long, long, long, long, long, long,
		       long))ltr_hook_real[LTR_H_SYSCALL])(nr, a, b, c, d, e, f);
	ltr_seccomp_syscall(nr, a, b, c, r, t0);
	return r;
}
