/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * onesig.c: how many times a SIGTERM sent once reaches a handler set the
 * way argv[1] says.  onesig HOW READY: install the handler, check that the
 * program's own queries give it back, make 3 traced calls, create the file
 * READY, wait for the signal and 300 ms more, print
 * "HOW: sigterms N[ from PID code C][ own|NOT OWN][ default|handler]".
 * HOW is one of
 *   signal     signal(SIGTERM, h) (signal's second call returns h)
 *   sigaction  sigaction, a plain handler
 *   siginfo    sigaction with SA_SIGINFO: the sender and si_code too
 *   resethand  SA_SIGINFO | SA_RESETHAND: then whether the action is
 *              SIG_DFL again ("default")
 *   sysv       sysv_signal (SA_RESETHAND | SA_NODEFER), as resethand
 *   sigset     sigset(SIGTERM, h) (System V; its second call returns h)
 *   ignore     SIG_IGN: waits for the file READY.sent (the sender's
 *              mark once it sent the signal; 60 s at most) and 300 ms
 *              more instead
 *   blocked    SA_SIGINFO, SIGTERM blocked until it is pending, 300 ms
 *              more, then unblocked
 *   fork       siginfo, then fork: the child waits for its own SIGTERM
 *              too and prints its line first ("fork child: ...")
 *   exec       execs itself as "siginfo" (nothing installed before)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

static volatile sig_atomic_t terms, code;
static volatile pid_t sender;

/* A plain handler: count. */
static void on_term(int sig)
{
	(void)sig;
	terms++;
}

/* An SA_SIGINFO handler: count, note who sent it and how. */
static void on_term_info(int sig, siginfo_t *si, void *context)
{
	(void)sig;
	(void)context;
	terms++;
	sender = si->si_pid;
	code = si->si_code;
}

/* Sleep ms milliseconds, whatever signals come. */
static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&t, &t) < 0)
		;
}

/* sigset(SIGTERM, h): deprecated, still what some programs call. */
static sighandler_t old_sigset(sighandler_t h)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	return sigset(SIGTERM, h);
#pragma GCC diagnostic pop
}

/* Install the handler of how with flags; does a query give it back? */
static bool install(bool info, int flags)
{
	struct sigaction sa = { 0 }, q;

	sa.sa_flags = flags | (info ? SA_SIGINFO : 0);
	if (info)
		sa.sa_sigaction = on_term_info;
	else
		sa.sa_handler = on_term;
	if (sigaction(SIGTERM, &sa, NULL) < 0 ||
	    sigaction(SIGTERM, NULL, &q) < 0)
		return false;
	return (info ? q.sa_sigaction == on_term_info
		     : q.sa_handler == on_term) &&
	       (q.sa_flags & (SA_SIGINFO | SA_RESETHAND | SA_RESTART)) ==
		       (unsigned)sa.sa_flags;
}

/* Is SIGTERM's action SIG_DFL now? */
static bool is_default(void)
{
	struct sigaction q;

	return sigaction(SIGTERM, NULL, &q) == 0 && q.sa_handler == SIG_DFL;
}

/* Wait for the signal (while blocked: until pending) and 300 ms more. */
static void wait_term(bool blocked)
{
	sigset_t pending;

	for (;;) {
		if (blocked) {
			sigpending(&pending);
			if (sigismember(&pending, SIGTERM))
				break;
		} else if (terms) {
			break;
		}
		sleep_ms(10);
	}
	sleep_ms(300);
}

/*
 * Wait for the file READY.sent, which the sender makes once the signal
 * is sent (an ignored signal leaves no other trace), and 300 ms more:
 * a fixed wait ended before the signal came on a loaded machine.
 */
static void wait_sent(const char *ready)
{
	char sent[4096];
	int i;

	snprintf(sent, sizeof(sent), "%s.sent", ready);
	for (i = 0; i < 6000 && access(sent, F_OK) != 0; i++)
		sleep_ms(10);
	sleep_ms(300);
}

/* The line of the result. */
static void report(const char *how, bool info, bool own, bool reset)
{
	printf("%s: sigterms %d", how, (int)terms);
	if (info && terms)
		printf(" from %d code %d", (int)sender, (int)code);
	printf(own ? " own" : " NOT OWN");
	if (reset)
		printf(is_default() ? " default" : " handler");
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "siginfo";
	bool info = strcmp(how, "siginfo") == 0 || strcmp(how, "fork") == 0 ||
		    strcmp(how, "blocked") == 0 ||
		    strcmp(how, "resethand") == 0;
	bool reset = strcmp(how, "resethand") == 0 ||
		     strcmp(how, "sysv") == 0;
	bool own = true, blocked = strcmp(how, "blocked") == 0;
	sigset_t term;
	pid_t child = 0;
	int i, sink = 0;

	if (argc < 3)
		return 2;
	if (strcmp(how, "exec") == 0) {
		char *args[] = { argv[0], "siginfo", argv[2], NULL };

		execv("/proc/self/exe", args);
		return 2;
	}
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (blocked)
		sigprocmask(SIG_BLOCK, &term, NULL);
	if (strcmp(how, "signal") == 0)
		own = signal(SIGTERM, on_term) == SIG_DFL &&
		      signal(SIGTERM, on_term) == on_term;
	else if (strcmp(how, "sysv") == 0)
		own = sysv_signal(SIGTERM, on_term) == SIG_DFL &&
		      sysv_signal(SIGTERM, on_term) == on_term;
	else if (strcmp(how, "sigset") == 0)
		own = old_sigset(on_term) == SIG_DFL &&
		      old_sigset(on_term) == on_term;
	else if (strcmp(how, "ignore") == 0)
		own = signal(SIGTERM, SIG_IGN) == SIG_DFL;
	else
		own = install(info, reset ? SA_RESETHAND : 0);
	for (i = 0; i < 3; i++)
		sink += fix_add(i, 1);
	if (strcmp(how, "fork") == 0) {
		child = fork();
		if (child == 0)
			how = "fork child";
	}
	if (child >= 0 && strcmp(how, "fork child") != 0 &&
	    close(open(argv[2], O_WRONLY | O_CREAT, 0600)) < 0)
		return 1;
	if (strcmp(how, "ignore") == 0)
		wait_sent(argv[2]);
	else
		wait_term(blocked);
	if (blocked)
		sigprocmask(SIG_UNBLOCK, &term, NULL);
	if (child > 0)
		waitpid(child, NULL, 0);
	report(how, info, own, reset);
	return sink == 6 ? 0 : 1;
}
