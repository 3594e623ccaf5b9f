/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal-hooks.h: the hooks of the program's signal calls (signal-hooks.c). */
#ifndef LTRUSS_SIGNAL_HOOKS_H
#define LTRUSS_SIGNAL_HOOKS_H

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>

int ltr_hook_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old);
sighandler_t ltr_hook_signal(int sig, sighandler_t f);
sighandler_t ltr_hook_sysv_signal(int sig, sighandler_t f);
sighandler_t ltr_hook___sysv_signal(int sig, sighandler_t f);
sighandler_t ltr_hook_bsd_signal(int sig, sighandler_t f);
sighandler_t ltr_hook_sigset(int sig, sighandler_t f);
int ltr_hook_sighold(int sig);
int ltr_hook_sigignore(int sig);
int ltr_hook_sigprocmask(int how, const sigset_t *set, sigset_t *old);
int ltr_hook_pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
int ltr_hook_sigsuspend(const sigset_t *set);
int ltr_hook_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t,
		   const sigset_t *set);
int ltr_hook___ppoll_chk(struct pollfd *fds, nfds_t n,
			 const struct timespec *t, const sigset_t *set,
			 size_t len);
int ltr_hook_pselect(int n, fd_set *r, fd_set *w, fd_set *e,
		     const struct timespec *t, const sigset_t *set);
int ltr_hook_epoll_pwait(int fd, struct epoll_event *ev, int max, int t,
			 const sigset_t *set);
int ltr_hook_epoll_pwait2(int fd, struct epoll_event *ev, int max,
			  const struct timespec *t, const sigset_t *set);

#endif
