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
 * The handlers of the signals ltruss passes on are wrapped on the way
 * (forward-once.c); signal and its variants set those through sigaction.
 */
#include "interposer.h"
#include "forward-once.h"
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
	check_sig(sig);
	/* A handler of another signal runs with its sa_mask blocked. */
	if (act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN)
		check_mask(&act->sa_mask);
	if (ltr_forwarded_sig(sig))
		return ltr_once_sigaction(sig, act, old,
					  REAL(LTR_H_SIGACTION, ltr_sigaction_fn));
	return REAL(LTR_H_SIGACTION, ltr_sigaction_fn)(sig, act, old);
}

/*
 * signal (flags SA_RESTART, sig blocked in its handler) or sysv_signal
 * (SA_RESETHAND | SA_NODEFER) of a signal ltruss passes on, as glibc
 * makes them of sigaction.
 */
static sighandler_t as_sigaction(int sig, sighandler_t f, int flags)
{
	struct sigaction act = { .sa_handler = f, .sa_flags = flags }, old;

	sigemptyset(&act.sa_mask);
	if (!(flags & SA_NODEFER))
		sigaddset(&act.sa_mask, sig);
	if (ltr_once_sigaction(sig, &act, &old,
			       REAL(LTR_H_SIGACTION, ltr_sigaction_fn)) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* The hooks of the calls that name one signal first: signal, sigset... */
#define SIG_HOOK(name, h, ret, params, args)				\
	ret ltr_hook_##name params					\
	{								\
		check_sig(sig);						\
		return REAL(h, ret (*) params) args;			\
	}

/* The hooks of signal and its variants: flags as as_sigaction takes. */
#define SIGNAL_HOOK(name, h, flags)					\
	sighandler_t ltr_hook_##name(int sig, sighandler_t f)		\
	{								\
		check_sig(sig);						\
		if (ltr_forwarded_sig(sig) && f != SIG_ERR)		\
			return as_sigaction(sig, f, flags);		\
		return REAL(h, sighandler_t (*)(int, sighandler_t))(sig, f); \
	}

SIGNAL_HOOK(signal, LTR_H_SIGNAL, SA_RESTART)
SIGNAL_HOOK(sysv_signal, LTR_H_SYSV_SIGNAL, SA_RESETHAND | SA_NODEFER)
SIGNAL_HOOK(__sysv_signal, LTR_H___SYSV_SIGNAL, SA_RESETHAND | SA_NODEFER)
SIGNAL_HOOK(bsd_signal, LTR_H_BSD_SIGNAL, SA_RESTART)
SIG_HOOK(sigset, LTR_H_SIGSET, sighandler_t, (int sig, sighandler_t f),
	 (sig, f))
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
