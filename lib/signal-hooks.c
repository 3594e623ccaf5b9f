/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signal-hooks.c: the program's signal calls that end the fast copy.
 *
 * The fast copy (fault-copy.c) relies on its SIGSEGV/SIGBUS handler seeing
 * its own faults: that holds while the program has no action of its own
 * for those two signals and never blocks them.  These hooks, bound by
 * la_symbind64 in every object whatever the selection (hooks.c), see the
 * calls that could change that and turn the fast copy off before they
 * happen; the call then runs unchanged, so the program sees and gets what
 * it would without us.  A selected one is still traced in full: its hook
 * calls the function's stub (hooks.c stores it in ltr_hook_real).
 * Those that set an action also let forward-once.c wrap the program's
 * handler of a signal ltruss passes on, once the call is made, and give
 * the program its own handler back where the call reports the one before.
 */
#include "capture.h"
#include "forward-once.h"
#include "hooks.h"
#include "interposer.h"
#include "signal-hooks.h"

#define REAL(h, type) ((type)ltr_hook_real[h])
#define FAULT_SIGS (1ul << (SIGSEGV - 1) | 1ul << (SIGBUS - 1))

/* Does set, which the program passes, hold SIGSEGV or SIGBUS? */
static bool blocks_faults(const sigset_t *set)
{
	return set && (((const unsigned long *)set)[0] & FAULT_SIGS);
}

/* Turn the fast copy off if a signal mask set is about to apply. */
static void check_mask(const sigset_t *set)
{
	if (blocks_faults(set))
		ltr_fault_copy_off(0);
}

/* Turn the fast copy off if sig's action is about to change. */
static void check_sig(int sig)
{
	if (sig == SIGSEGV || sig == SIGBUS)
		ltr_fault_copy_off(sig);
}

int ltr_hook_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old)
{
	int ret;

	/*
	 * A query (CPython asks of every signal at start-up) changes
	 * nothing: it keeps the fast copy, and is told the program's own
	 * action, not ours.
	 */
	if (act)
		check_sig(sig);
	/* A handler of another signal runs with its sa_mask blocked. */
	if (act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN)
		check_mask(&act->sa_mask);
	ret = REAL(LTR_H_SIGACTION, int (*)(int, const struct sigaction *,
					    struct sigaction *))(sig, act, old);
	if (ret == 0 && !act && old)
		ltr_fault_copy_query(sig, old);
	if (ret == 0 && ltr_forwarded_sig(sig)) {
		if (old) {
			unsigned long flags = (unsigned long)old->sa_flags;

			old->sa_sigaction = ltr_once_own(
				sig, (void *)old->sa_sigaction, &flags);
			old->sa_flags = (int)flags;
		}
		if (act)
			ltr_once_wrap(sig);
	}
	return ret;
}

/* The hooks of the calls that name one signal first: signal, sigset... */
#define SIG_HOOK(name, h, ret, params, args)				\
	ret ltr_hook_##name params					\
	{								\
		check_sig(sig);						\
		return REAL(h, ret (*) params) args;			\
	}

/* The hooks of the calls that set a handler: signal, sigset... */
#define HANDLER_HOOK(name, h)						\
	sighandler_t ltr_hook_##name(int sig, sighandler_t f)		\
	{								\
		sighandler_t was;					\
									\
		check_sig(sig);						\
		was = REAL(h, sighandler_t (*)(int, sighandler_t))(sig, f); \
		if (!ltr_forwarded_sig(sig) || was == SIG_ERR)		\
			return was;					\
		was = (sighandler_t)ltr_once_own(sig, (void *)was, NULL); \
		ltr_once_wrap(sig);					\
		return was;						\
	}

HANDLER_HOOK(signal, LTR_H_SIGNAL)
HANDLER_HOOK(sysv_signal, LTR_H_SYSV_SIGNAL)
HANDLER_HOOK(__sysv_signal, LTR_H___SYSV_SIGNAL)
HANDLER_HOOK(bsd_signal, LTR_H_BSD_SIGNAL)
HANDLER_HOOK(sigset, LTR_H_SIGSET)
SIG_HOOK(sighold, LTR_H_SIGHOLD, int, (int sig), (sig))
SIG_HOOK(sigignore, LTR_H_SIGIGNORE, int, (int sig), (sig))

/* The hooks of the calls that take a mask to apply: sigprocmask, ppoll... */
#define MASK_HOOK(name, h, ret, params, args, set)			\
	ret ltr_hook_##name params					\
	{								\
		check_mask(set);					\
		return REAL(h, ret (*) params) args;			\
	}

MASK_HOOK(sigprocmask, LTR_H_SIGPROCMASK, int,
	  (int how, const sigset_t *set, sigset_t *old), (how, set, old),
	  how == SIG_UNBLOCK ? NULL : set)
MASK_HOOK(pthread_sigmask, LTR_H_PTHREAD_SIGMASK, int,
	  (int how, const sigset_t *set, sigset_t *old), (how, set, old),
	  how == SIG_UNBLOCK ? NULL : set)
MASK_HOOK(sigsuspend, LTR_H_SIGSUSPEND, int, (const sigset_t *set), (set),
	  set)
MASK_HOOK(ppoll, LTR_H_PPOLL, int,
	  (struct pollfd *fds, nfds_t n, const struct timespec *t,
	   const sigset_t *set),
	  (fds, n, t, set), set)
MASK_HOOK(__ppoll_chk, LTR_H_PPOLL_CHK, int,
	  (struct pollfd *fds, nfds_t n, const struct timespec *t,
	   const sigset_t *set, size_t len),
	  (fds, n, t, set, len), set)
MASK_HOOK(pselect, LTR_H_PSELECT, int,
	  (int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
	   const sigset_t *set),
	  (n, r, w, e, t, set), set)
MASK_HOOK(epoll_pwait, LTR_H_EPOLL_PWAIT, int,
	  (int fd, struct epoll_event *ev, int max, int t,
	   const sigset_t *set),
	  (fd, ev, max, t, set), set)
MASK_HOOK(epoll_pwait2, LTR_H_EPOLL_PWAIT2, int,
	  (int fd, struct epoll_event *ev, int max, const struct timespec *t,
	   const sigset_t *set),
	  (fd, ev, max, t, set), set)
