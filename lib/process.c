/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process.c: every traced process registers itself in the session, and
 * records how it exits.
 *
 * ltruss can wait only for its own children (and, as a subreaper, for
 * orphans); a process that a traced parent reaps is invisible to it.  So
 * each process reports its own exit status: an on_exit handler registered
 * in the program's libc (it runs last in exit(), after the destructors, so
 * every event is in the ring before the status), and hooks on _exit and
 * _Exit.  A process killed by a signal cannot report itself, so with -f
 * the wait family is hooked too: a traced parent that reaps a child
 * records the child's wait status.  ltruss also has its own wait, and
 * /proc while a process is a zombie.
 */
#include <elf.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "arch/x86_64/cpu.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"

static struct ltr_process *self; /* this process's entry, or NULL */

/*
 * Claim an entry of the session's process table for the calling process,
 * with its ids (as ltruss sees them, and as its own namespace does); NULL
 * when the table is full.  Its state is the caller's to set, last.
 */
static struct ltr_process *proc_claim(void)
{
	struct ltr_process *p;
	int32_t tid;
	uint32_t i = __atomic_fetch_add(&ltr_session->nprocs, 1,
					__ATOMIC_ACQ_REL);

	if (i >= LTR_MAX_PROCS) {
		__atomic_store_n(&ltr_session->nprocs, LTR_MAX_PROCS,
				 __ATOMIC_RELAXED);
		return NULL;
	}
	p = &ltr_session->procs[i];
	p->local_pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	ltr_pidns_view(p->local_pid, p->local_pid, &p->pid, &tid);
	p->pidns = ltr_pidns_of(p->local_pid);
	p->started = 1;
	return p;
}

void ltr_process_register(bool loading)
{
	self = proc_claim();
	if (!self)
		return;
	if (loading)
		self->started = 0;
	__atomic_store_n(&self->state, LTR_PROC_RUNNING, __ATOMIC_RELEASE);
}

/*
 * The loader has loaded and relocated every object of the program, and
 * its code is about to run: a process registered while loading that
 * exits before this (status 127) was refused by the loader, which ltruss
 * explains (bin/refusal.c).  Forked children are started at once.
 */
void ltr_process_started(void)
{
	if (self)
		__atomic_store_n(&self->started, 1, __ATOMIC_RELEASE);
}

/*
 * Who runs in this memory: the process that registered self (1), a child
 * sharing its memory (0: vfork, clone(CLONE_VM)), or nobody can tell (-1).
 */
static int whose_memory(void)
{
	if (!self || ltr_forked() || !ltr_sys_ok(SYS_getpid))
		return -1;
	return self->local_pid == (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
}

/* Is this the process that registered self (not a vfork child)? */
static bool is_self(void)
{
	return whose_memory() == 1;
}

bool ltr_process_is_self(void)
{
	return is_self();
}

bool ltr_process_shares_memory(void)
{
	return whose_memory() == 0;
}

/*
 * A vfork child shares its parent's memory (self is the parent's) until
 * it execs; one that exits instead, followed (-f), records its end in an
 * entry of its own, so that its exit line carries its pid.
 */
static void vfork_child_exiting(int status)
{
	struct ltr_process *p;

	/* Not self: a vfork child, unless seccomp kept is_self from asking. */
	if (!self || !(ltr_flags & LTR_F_FOLLOW) || ltr_forked() ||
	    !ltr_sys_ok(SYS_getpid))
		return;
	p = proc_claim();
	if (!p)
		return;
	p->status = status;
	__atomic_store_n(&p->state, LTR_PROC_EXITED, __ATOMIC_RELEASE);
}

void ltr_process_exiting(int status)
{
	ltr_vfork_child_leaving(LTR_END_EXITED);
	if (!is_self()) {
		vfork_child_exiting(status);
		return;
	}
	self->status = status;
	/* Counted once: an exit handler may call exit again. */
	if (__atomic_exchange_n(&self->state, LTR_PROC_EXITED,
				__ATOMIC_ACQ_REL) != LTR_PROC_EXITED)
		__atomic_fetch_add(&ltr_session->procs_exited, 1,
				   __ATOMIC_RELAXED);
}

/*
 * Is entry p the process that pid names for us (self): the same pid in
 * our pid namespace, or in ltruss's when we are in it?
 */
static bool names(const struct ltr_process *p, int pid)
{
	uint32_t ns = self->pidns;

	return (p->pidns == ns && p->local_pid == pid) ||
	       (ns == ltr_session->reader_pidns && p->pid == pid);
}

/* Record that pid (a child of ours) was reaped with wait status. */
static void process_reaped(int pid, int status)
{
	uint32_t n = __atomic_load_n(&ltr_session->nprocs, __ATOMIC_ACQUIRE);

	/* Only ended children: waits also report stopped and continued ones. */
	if (!is_self() || !(WIFEXITED(status) || WIFSIGNALED(status)))
		return;
	if (n > LTR_MAX_PROCS)
		n = LTR_MAX_PROCS;
	/* The latest entry of that pid: an exec'd image registers anew. */
	while (n--) {
		struct ltr_process *p = &ltr_session->procs[n];

		if (!names(p, pid))
			continue;
		if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) == LTR_PROC_RUNNING) {
			p->status = status;
			__atomic_store_n(&p->state, LTR_PROC_REAPED,
					 __ATOMIC_RELEASE);
		}
		return;
	}
}

#define REAL(h, type) ((type)ltr_hook_real[h])

void ltr_hook_exit_(int status)
{
	ltr_hook_note(LTR_H_EXIT_, (uint64_t)status, 0, 0);
	ltr_process_exiting(status);
	REAL(LTR_H_EXIT_, void (*)(int))(status);
	__builtin_unreachable();
}

void ltr_hook_Exit(int status)
{
	ltr_hook_note(LTR_H_EXIT, (uint64_t)status, 0, 0);
	ltr_process_exiting(status);
	REAL(LTR_H_EXIT, void (*)(int))(status);
	__builtin_unreachable();
}

/*
 * The wait hooks pass the caller's own status pointer (a bad one must
 * fail as it would without us); without one, they use their own.
 */
int ltr_hook_wait(int *status)
{
	int st, *p = status ? status : &st, r;

	ltr_hook_note(LTR_H_WAIT, (uint64_t)status, 0, 0);
	r = REAL(LTR_H_WAIT, int (*)(int *))(p);
	if (r > 0)
		process_reaped(r, *p);
	return r;
}

int ltr_hook_waitpid(int pid, int *status, int options)
{
	int st, *p = status ? status : &st, r;

	ltr_hook_note(LTR_H_WAITPID, (uint64_t)pid, (uint64_t)status,
		      (uint64_t)options);
	r = REAL(LTR_H_WAITPID, int (*)(int, int *, int))(pid, p, options);
	if (r > 0)
		process_reaped(r, *p);
	return r;
}

int ltr_hook_wait3(int *status, int options, void *rusage)
{
	int st, *p = status ? status : &st, r;

	ltr_hook_note(LTR_H_WAIT3, (uint64_t)status, (uint64_t)options,
		      (uint64_t)rusage);
	r = REAL(LTR_H_WAIT3, int (*)(int *, int, void *))(p, options, rusage);
	if (r > 0)
		process_reaped(r, *p);
	return r;
}

int ltr_hook_wait4(int pid, int *status, int options, void *rusage)
{
	int st, *p = status ? status : &st, r;

	ltr_hook_note(LTR_H_WAIT4, (uint64_t)pid, (uint64_t)status,
		      (uint64_t)options);
	r = REAL(LTR_H_WAIT4, int (*)(int, int *, int, void *))(pid, p,
								options, rusage);
	if (r > 0)
		process_reaped(r, *p);
	return r;
}

int ltr_hook_waitid(int idtype, unsigned id, void *info, int options)
{
	siginfo_t *si = info;
	int r;

	ltr_hook_note(LTR_H_WAITID, (uint64_t)idtype, (uint64_t)id,
		      (uint64_t)info);
	r = REAL(LTR_H_WAITID, int (*)(int, unsigned, void *, int))(idtype, id,
								    info, options);
	if (r == 0 && si && si->si_pid > 0 && !(options & WNOWAIT)) {
		if (si->si_code == CLD_EXITED)
			process_reaped(si->si_pid, (si->si_status & 0xff) << 8);
		else if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED)
			process_reaped(si->si_pid, si->si_status |
				       (si->si_code == CLD_DUMPED ? 0x80 : 0));
	}
	return r;
}

/* Called by the program's libc at the end of exit(). */
static void on_exit_handler(int status, void *arg)
{
	ltr_process_exiting(status);
}

void ltr_process_watch_exit(void)
{
	int (*on_exit_fn)(void (*)(int, void *), void *) =
		ltr_libc_function("on_exit");

	if (on_exit_fn)
		on_exit_fn(on_exit_handler, NULL);
}
