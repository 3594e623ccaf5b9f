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
 * signals are wrapped (the sigaction and signal hooks, signal-hooks.c):
 *  - a delivery from process S is remembered as "the program got one from
 *    S" (one per signal, lock-free) and handled; a marked one is handled
 *    as the original was: si_code SI_USER, si_pid and si_uid of S (ltruss
 *    sent them);
 *  - a marked one with sender S, when the program got one directly from S
 *    that no mark matched yet, is dropped: both copies of a group kill are
 *    queued before kill() returns, so the program's own copy comes first
 *    (while it is pending, the kernel merges the mark into it);
 *  - a direct one from S, when a mark from S came first, is dropped too:
 *    GNU timeout signals its child (ltruss), then the group, and ltruss
 *    may pass the first on before the second is sent.
 * Copies further apart than LTR_ONCE_SLACK_MS (measured from when ltruss
 * got its own) are two events (a kill of the program alone, later one of
 * ltruss).
 * Only handlers are wrapped: under SIG_DFL (the forwarded signals all end
 * the program) the first copy ends it, under SIG_IGN neither comes.
 * SA_RESETHAND is kept here, not by the kernel (which would let the mark
 * end the program the reset handler had handled); the program's own
 * queries get its own action back.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "interposer.h"
#include "forward-mark.h"
#include "forward-once.h"

/* How long ltruss may take to get and pass on a signal, at most. */
#define LTR_ONCE_SLACK_MS 1000

#define NSIG_WRAPPED 64

/* The program's own action of each signal whose handler is wrapped. */
static struct sigaction program_action[NSIG_WRAPPED];
/*
 * (S << 32 | ms), MARK_FIRST when ltruss's copy came first: the last copy
 * the program got from S that no other copy matched yet; or 0.
 */
#define MARK_FIRST (1ULL << 63)
static uint64_t unmatched[NSIG_WRAPPED];

/* The kernel's struct sigaction, to restore SIG_DFL from a handler. */
struct kdefault {
	unsigned long handler, flags, restorer, mask;
};

/* Is a delivery marked by ltruss (forward-mark.h)? */
static bool marked(const siginfo_t *si)
{
	return si->si_code == SI_QUEUE &&
	       (uint64_t)(uintptr_t)si->si_ptr >> 32 == LTR_FORWARD_MAGIC;
}

/*
 * Is this delivery the second copy of one event, the program's own and
 * ltruss's mark of it from the same sender, in either order?  Else it is
 * remembered as the first, when it came from a process.
 */
static bool second_copy(int sig, const siginfo_t *si, bool mark)
{
	uint64_t seen = __atomic_load_n(&unmatched[sig], __ATOMIC_ACQUIRE);
	uint32_t now = mark ? (uint32_t)(uintptr_t)si->si_ptr
			    : ltr_forward_ms();
	uint64_t first = mark ? 0 : MARK_FIRST;

	if (seen && (seen & MARK_FIRST) == first &&
	    (seen >> 32 & 0x7fffffff) == (uint32_t)si->si_pid &&
	    (int32_t)((uint32_t)seen - now) >= -LTR_ONCE_SLACK_MS &&
	    __atomic_compare_exchange_n(&unmatched[sig], &seen, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return true;
	if (si->si_code <= 0 && si->si_pid > 0)
		__atomic_store_n(&unmatched[sig],
				 (mark ? MARK_FIRST : 0) |
					 (uint64_t)(uint32_t)si->si_pid << 32 |
					 now,
				 __ATOMIC_RELEASE);
	return false;
}

/* The default action, from the handler: reset it, then signal again. */
static void default_action(int sig)
{
	struct kdefault dfl = { 0 };

	ltr_syscall6(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0, 0);
	ltr_syscall3(SYS_tgkill, ltr_syscall3(SYS_getpid, 0, 0, 0),
		     ltr_syscall3(SYS_gettid, 0, 0, 0), sig);
}

/* The handler installed for the program's: see the block comment above. */
static void once(int sig, siginfo_t *si, void *context)
{
	struct sigaction *own = &program_action[sig];
	void (*handler)(int, siginfo_t *, void *) = own->sa_sigaction;
	void (*plain)(int) = own->sa_handler;
	int flags = own->sa_flags;
	siginfo_t as_sent;

	bool mark = marked(si);

	if (second_copy(sig, si, mark))
		return;
	if (mark) {
		as_sent = *si;
		as_sent.si_code = SI_USER;
		as_sent.si_ptr = NULL;
		si = &as_sent;
	}
	if (plain == SIG_DFL) {
		default_action(sig);
		return;
	}
	if (flags & SA_RESETHAND)
		own->sa_handler = SIG_DFL;
	if (flags & SA_SIGINFO)
		handler(sig, si, context);
	else
		plain(sig);
}

int ltr_once_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old, ltr_sigaction_fn real)
{
	struct sigaction ours, was, before;
	int ret;

	if (sig <= 0 || sig >= NSIG_WRAPPED)
		return real(sig, act, old);
	before = program_action[sig];
	if (act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) {
		ours = *act;
		ours.sa_sigaction = once;
		ours.sa_flags = (act->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
		program_action[sig] = *act;
		ret = real(sig, &ours, &was);
		if (ret != 0)
			program_action[sig] = before;
	} else
		ret = real(sig, act, &was);
	if (ret == 0 && old)
		*old = was.sa_sigaction == once ? before : was;
	return ret;
}
