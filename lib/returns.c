/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * returns.c: second returns, of setjmp (made by longjmp) and of vfork (in
 * the parent, once the child has gone).
 *
 * setjmp, _setjmp, sigsetjmp, __sigsetjmp and vfork look at their
 * caller's frame, so they are traced on entry only: their return is never
 * hijacked.  Yet their second return is an event users look for: setjmp
 * returning the value a longjmp gave it, vfork returning the child's pid
 * in the parent.  Both are reported without touching the shadow stack:
 *  - each thread remembers the buffers of the last setjmps it showed; the
 *    longjmp family is hooked (lib/hooks.c binds the names), and a jump
 *    to a remembered buffer is reported as that setjmp's return at once:
 *    the buffer says where the stack pointer goes, so the frames the jump
 *    skips are dropped first (a frame wrongly dropped still returns: its
 *    trampoline keeps its address, lib/rets.c).  A jump to another stack,
 *    far from this one (a signal's alternate stack, coroutines), marks the
 *    return as pending instead;
 *  - a shown vfork marks its return in the parent as pending; the child,
 *    which shares the parent's memory until it execs or exits, leaves its
 *    pid there from the exec and exit hooks.  A vfork that is not traced
 *    is found out there too (a pid that is not the state's): the child's
 *    exec or exit is its own, not its parent's.
 * The vfork child shares this thread's state and ring too.  The parent is
 * suspended until the child execs or exits, so the ring keeps one writer:
 * from the child's first traced call (or exec or exit hook) on, its events
 * go into the ring after a GUEST event naming it, which ltruss shows as the
 * child's (with -f; without, the child is not traced and writes nothing),
 * starting with its calls in progress, inherited, and vfork's return in
 * the child, = 0.  Its exec and exit hooks hand the ring back (GUEST 0);
 * a child that left without them (killed) is noticed by the parent's next
 * traced call.
 * A pending return is reported on the thread's next traced call or
 * return, once the frames a longjmp skipped are dropped there (where the
 * stack pointer tells which are dead), and only if the thread is back at
 * the level of the call that returns: a stale buffer can at worst cost
 * the line, never a frame.  vfork's return in the parent can only be
 * pending: the parent runs none of our code between the kernel resuming
 * it and its next traced call (vfork's return cannot be hijacked: the
 * child returns through the same slot first).
 */
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "hooks.h"
#include "interposer.h"
#include "process.h"

#define SAME_STACK (64u << 20) /* a jump further is to another stack */

typedef void (*longjmp_fn)(void *, int);

#define REAL(h) ((longjmp_fn)ltr_hook_real[h])

/* Fill j for a shown call of fn on ts, now. */
static void remember(struct ltr_tstate *ts, struct ltr_jmp *j, uint32_t fn,
		     uint64_t env)
{
	j->env = env;
	j->fn = fn;
	j->depth = ts->depth;
	j->t0 = ltr_now();
}

void ltr_setjmp_seen(struct ltr_tstate *ts, uint32_t fn, uint64_t env)
{
	struct ltr_jmp *j = NULL;
	uint32_t i;

	for (i = 0; i < LTR_JMPS && !j; i++)
		if (ts->jmps[i].env == env)
			j = &ts->jmps[i];
	if (!j)
		j = &ts->jmps[ts->jmp_next++ % LTR_JMPS];
	remember(ts, j, fn, env);
}

void ltr_vfork_seen(struct ltr_tstate *ts, uint32_t fn, bool shown)
{
	remember(ts, &ts->vfork, fn, 0);
	ts->vfork_child = 0;
	ts->vfork_shown = 0;
	ts->vfork_hidden = !shown;
	ts->again |= LTR_AGAIN_VFORK;
}

/* Report that j's call returns again rax at tsc, if ts is back at its level. */
static void report(struct ltr_tstate *ts, const struct ltr_jmp *j,
		   uint64_t rax, uint64_t tsc)
{
	if (ts->depth == j->depth && !ltr_forked() &&
	    (ltr_flags & ts->flag_mask & LTR_F_TRACE))
		ltr_event_returns_again(ts, j->fn, j->depth, j->t0, rax, tsc);
}

/* Do a vfork child's events go into ts's ring (-f, a trace, a ring of its own)? */
static bool guest_events(const struct ltr_tstate *ts)
{
	return (ltr_flags & LTR_F_FOLLOW) && (ltr_flags & LTR_F_TRACE) &&
	       !ts->shared_slot;
}

/*
 * The vfork child pid runs our code: its events are its own from here on.
 * A child the child vforks in turn is not told apart: its events are the
 * child's (when it leaves, the child's next traced call begins again).
 */
static void guest_begin(struct ltr_tstate *ts, int32_t pid)
{
	int32_t seen_pid, seen_tid;

	if (ts->vfork_guest)
		return;
	ts->guest_mask = ts->flag_mask;
	ts->guest_depth = ts->depth;
	ts->vfork_guest = pid;
	if (!(ltr_flags & LTR_F_FOLLOW)) {
		ts->flag_mask = 0;
		return;
	}
	if (!guest_events(ts))
		return;
	ltr_pidns_view(pid, pid, &seen_pid, &seen_tid);
	ltr_event_guest(ts, seen_pid, 0);
	ltr_event_inherited(ts);
	if (!ts->vfork_hidden && ts->vfork_shown != pid) {
		ts->vfork_shown = pid;
		report(ts, &ts->vfork, 0, ltr_now());
	}
}

/*
 * The vfork child leaves (why: LTR_END_*): the ring is its parent's again.
 * The calls the child made and left in progress are on the shadow stack,
 * dead for the parent: hidden, they go without an event (ltruss ends them
 * in the child).
 */
static void guest_end(struct ltr_tstate *ts, enum ltr_end why)
{
	uint32_t i;

	if (!ts->vfork_guest)
		return;
	for (i = ts->guest_depth; i < ts->depth; i++)
		ts->frames[i].flags |= LTR_FR_HIDDEN;
	if (guest_events(ts))
		ltr_event_guest(ts, 0, why);
	ts->flag_mask = ts->guest_mask;
	ts->vfork_guest = 0;
}

void ltr_vfork_child_leaving(enum ltr_end why)
{
	struct ltr_tstate *ts = ltr_tls_self;
	int32_t pid;

	if (!ts || !(ts->again & LTR_AGAIN_VFORK))
		return;
	pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	if (pid == ts->pid)
		return;
	guest_begin(ts, pid);
	guest_end(ts, why);
	ts->vfork_child = pid;
	ts->vfork_tsc = ltr_now();
}

void ltr_vfork_child_check(void)
{
	struct ltr_tstate *ts = ltr_tls_self;
	int32_t pid;

	if (!ts || (ts->again & LTR_AGAIN_VFORK) || !ltr_sys_ok(SYS_getpid))
		return;
	pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	if (pid == ts->pid)
		return;
	ltr_vfork_seen(ts, 0, false);
	guest_begin(ts, pid);
}

void ltr_returns_forget(struct ltr_tstate *ts)
{
	uint32_t i;

	for (i = 0; i < LTR_JMPS; i++)
		ts->jmps[i].env = 0;
	ts->jmp_next = 0;
	ts->again = 0;
	/* Its thread ended while a vfork child it made still wrote its ring. */
	guest_end(ts, LTR_END_KILLED);
}

void ltr_returns_again(struct ltr_tstate *ts)
{
	if (ts->again & LTR_AGAIN_VFORK) {
		int32_t pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);

		/* In the child (it shares ts), the parent has not resumed yet. */
		if (pid != ts->pid) {
			guest_begin(ts, pid);
			return;
		}
		/* A child still writing when the parent runs was killed. */
		guest_end(ts, LTR_END_KILLED);
		ts->again &= ~LTR_AGAIN_VFORK;
		if (ts->vfork_child && !ts->vfork_hidden)
			report(ts, &ts->vfork, (uint64_t)ts->vfork_child,
			       ts->vfork_tsc);
	}
	if (ts->again & LTR_AGAIN_JMP) {
		ts->again &= ~LTR_AGAIN_JMP;
		report(ts, &ts->jmps[ts->jmp_pending % LTR_JMPS],
		       ts->jmp_value, ts->jmp_tsc);
	}
}

/*
 * A longjmp to env with val (hook h): report it if selected, and the
 * return of the setjmp it goes to, at once if it stays on this stack.
 */
static void longjmp_seen(enum ltr_hook h, void *env, int val)
{
	struct ltr_tstate *ts = ltr_tls_self;
	uintptr_t sp = (uintptr_t)&ts, target;
	uint32_t i;

	ltr_hook_note(h, (uint64_t)env, (uint64_t)val, 0);
	if (!ts || ts->busy || ltr_forked())
		return;
	for (i = 0; i < LTR_JMPS; i++) {
		if (!env || ts->jmps[i].env != (uint64_t)env)
			continue;
		ts->jmp_value = (uint64_t)(val ? val : 1);
		ts->jmp_tsc = ltr_now();
		ts->jmp_pending = i;
		ts->again |= LTR_AGAIN_JMP;
		target = ltr_jmpbuf_sp(env);
		if (target > sp && target - sp < SAME_STACK) {
			ts->busy = sp;
			ltr_frames_jumped(ts, sp, target);
			if (ts->depth == ts->jmps[i].depth)
				ltr_returns_again(ts);
			ts->busy = 0;
		}
		return;
	}
}

void ltr_hook_longjmp(void *env, int val)
{
	longjmp_seen(LTR_H_LONGJMP, env, val);
	REAL(LTR_H_LONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook__longjmp(void *env, int val)
{
	longjmp_seen(LTR_H__LONGJMP, env, val);
	REAL(LTR_H__LONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook_siglongjmp(void *env, int val)
{
	longjmp_seen(LTR_H_SIGLONGJMP, env, val);
	REAL(LTR_H_SIGLONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook_longjmp_chk(void *env, int val)
{
	longjmp_seen(LTR_H_LONGJMP_CHK, env, val);
	REAL(LTR_H_LONGJMP_CHK)(env, val);
	__builtin_unreachable();
}
