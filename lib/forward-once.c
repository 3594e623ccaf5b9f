/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forward-once.c: a signal sent to the process group reaches the program
 * once, although ltruss passes on what it gets.
 *
 * ltruss is in the program's process group.  A process outside that
 * signals the group (kill -TERM -PGID, GNU timeout) reaches the program
 * directly, and ltruss, which cannot tell that from a signal sent to it
 * alone, passes its copy on (bin/launch.c): a program that takes a second
 * SIGTERM for "force quit" would change its behaviour.  So ltruss marks
 * what it passes on (forward-mark.h), and the program's handlers of those
 * signals are wrapped: after each of the program's calls that may set one
 * (signal-hooks.c), the kernel's action is read back and, when it is a
 * handler, ltr_once_entry (arch/x86_64/once-entry.S) takes its place,
 * with SA_SIGINFO, so that the kernel passes the sender on.  The call
 * itself runs as the program made it, and what it reports of the action
 * before (the old action, signal's return) is the program's own.  On each
 * delivery, ltr_once_dispatch decides:
 *  - a delivery from process S is remembered as "the program got one from
 *    S" (one per signal, lock-free) and handled; a marked one is handled
 *    as the original was (si_code SI_USER, si_pid and si_uid of S, which
 *    ltruss sent), its siginfo rewritten in place;
 *  - a marked one with sender S, when the program got one directly from S
 *    that no mark matched yet, is dropped: both copies of a group kill are
 *    queued before kill() returns, so the program's own copy comes first
 *    (while it is pending, the kernel merges the mark into it);
 *  - a direct one from S, when a mark from S came first, is dropped too:
 *    GNU timeout signals its child (ltruss), then the group, and ltruss
 *    may pass the first on before the second is sent.
 * Copies further apart than LTR_ONCE_SLACK_MS (from when ltruss got its
 * own) are two events (a kill of the program alone, later one of ltruss).
 * ltr_once_entry jumps to the program's handler, it does not call it: the
 * handler runs on the stack the kernel made, returns to the signal frame,
 * and no frame of ours shows in a backtrace or in -k.
 * Only handlers are wrapped: under SIG_DFL (the forwarded signals all end
 * the program) the first copy ends it, under SIG_IGN neither comes.
 * SA_RESETHAND is kept here, not by the kernel (which would let the mark
 * end the program the reset handler had handled): once the handler ran,
 * a copy is dropped and another signal takes the default action.
 */
#include <sys/syscall.h>
#include <time.h>

#include "forward-once.h"
#include "interposer.h"

/* How long ltruss may take to get and pass on a signal, at most. */
#define LTR_ONCE_SLACK_MS 1000

#define NSIG_WRAPPED 64

/* The kernel calls it in place of a program's handler (once-entry.S). */
void ltr_once_entry(int sig, siginfo_t *si, void *context);
void *ltr_once_dispatch(int sig, siginfo_t *si, void *context);

/* The program's own action of each signal whose handler is wrapped. */
static struct ksigaction program_action[NSIG_WRAPPED];
/*
 * (S << 32 | ms), MARK_FIRST when ltruss's copy came first: the last copy
 * the program got from S that no other copy matched yet; or 0.
 */
#define MARK_FIRST (1ULL << 63)
static uint64_t unmatched[NSIG_WRAPPED];

/* The CLOCK_MONOTONIC millisecond (wrapping) in *ms; false if unknown. */
static bool now_ms(uint32_t *ms)
{
	struct timespec ts;

	if (!ltr_sys_ok(SYS_clock_gettime) ||
	    ltr_syscall3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0) < 0)
		return false;
	*ms = (uint32_t)((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	return true;
}

/*
 * Is this delivery the second copy of one event, the program's own and
 * ltruss's mark of it (got at mark_ms) from the same sender, in either
 * order?  Else it is remembered as the first, when it came from a process.
 */
static bool second_copy(int sig, const siginfo_t *si, bool mark,
			uint32_t mark_ms)
{
	uint64_t seen = __atomic_load_n(&unmatched[sig], __ATOMIC_ACQUIRE);
	uint64_t first = mark ? 0 : MARK_FIRST;
	uint32_t now = mark_ms;
	int32_t apart;

	if (si->si_code > 0 || si->si_pid <= 0 || (!mark && !now_ms(&now)))
		return false;
	apart = (int32_t)((uint32_t)seen - now);
	if (seen && (seen & MARK_FIRST) == first &&
	    (seen >> 32 & 0x7fffffff) == (uint32_t)si->si_pid &&
	    apart >= -LTR_ONCE_SLACK_MS && apart <= LTR_ONCE_SLACK_MS &&
	    __atomic_compare_exchange_n(&unmatched[sig], &seen, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return true;
	__atomic_store_n(&unmatched[sig],
			 (mark ? MARK_FIRST : 0) |
				 (uint64_t)(uint32_t)si->si_pid << 32 | now,
			 __ATOMIC_RELEASE);
	return false;
}

/* Put SIG_DFL back in the kernel: the program's reset handler has run. */
static void kernel_default(int sig)
{
	struct ksigaction dfl = { 0 };

	ltr_syscall6(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0, 0);
}

/*
 * The default action of sig, from its handler: SIG_DFL, and the signal
 * sent again as it came, to take effect once the handler returns.
 */
static void default_action(int sig, siginfo_t *si)
{
	long pid = ltr_syscall3(SYS_getpid, 0, 0, 0);
	long tid = ltr_syscall3(SYS_gettid, 0, 0, 0);

	kernel_default(sig);
	if (ltr_syscall6(SYS_rt_tgsigqueueinfo, pid, tid, sig, (long)si, 0,
			 0) < 0)
		ltr_syscall3(SYS_tgkill, pid, tid, sig);
}

/* A delivery to ltr_once_entry: the handler to jump to, or NULL. */
void *ltr_once_dispatch(int sig, siginfo_t *si, void *context)
{
	struct ksigaction *own = &program_action[sig & (NSIG_WRAPPED - 1)];
	void *handler = __atomic_load_n((void **)&own->handler,
					__ATOMIC_ACQUIRE);
	uint32_t ms = 0;
	bool mark = ltr_forward_marked(si, &ms);

	(void)context;
	if (second_copy(sig, si, mark, ms)) {
		if (handler == (void *)SIG_DFL)
			kernel_default(sig);
		return NULL;
	}
	if (mark) {
		si->si_code = SI_USER;
		si->si_ptr = NULL;
	}
	if (handler == (void *)SIG_DFL) {
		default_action(sig, si);
		return NULL;
	}
	if (handler == (void *)SIG_IGN)
		return NULL;
	if (own->flags & SA_RESETHAND)
		__atomic_store_n((void **)&own->handler, (void *)SIG_DFL,
				 __ATOMIC_RELEASE);
	return handler;
}

void ltr_once_wrap(int sig)
{
	struct ksigaction k;

	if (!ltr_forwarded_sig(sig) || !ltr_sys_ok(SYS_rt_sigaction) ||
	    ltr_syscall6(SYS_rt_sigaction, sig, 0, (long)&k, 8, 0, 0) < 0)
		return;
	/* SIG_DFL, SIG_IGN, ours already, or set by hand without libc */
	if ((uintptr_t)k.handler <= (uintptr_t)SIG_IGN ||
	    k.handler == ltr_once_entry || !(k.flags & SA_RESTORER))
		return;
	program_action[sig] = k;
	k.handler = ltr_once_entry;
	k.flags = (k.flags | SA_SIGINFO) & ~(unsigned long)SA_RESETHAND;
	ltr_syscall6(SYS_rt_sigaction, sig, (long)&k, 0, 8, 0, 0);
}

void *ltr_once_own(int sig, void *handler, unsigned long *flags)
{
	if (handler != (void *)ltr_once_entry || sig <= 0 ||
	    sig >= NSIG_WRAPPED)
		return handler;
	if (flags)
		*flags = program_action[sig].flags;
	return (void *)program_action[sig].handler;
}
