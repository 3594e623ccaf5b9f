/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smallstack.c: traced calls made on small stacks.  argv[1] says which:
 * "thread-execvp" runs argv[2..] by execvp from a thread with a 16 KiB
 * stack; "handler-execve" runs it by execve from a SIGUSR1 handler on an
 * 8 KiB sigaltstack (what crash reporters do); "handler-lazy" makes a
 * first, lazily bound call of a library function in such a handler.  When
 * the handler returns (an execve that failed exits 127), it says on stderr
 * how many bytes of the alternate stack were used.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../behaviour/libbhv.h"

extern char **environ;
static char **cmd;
static const char *mode;
static volatile int failed;

/* Run cmd, the way mode says. */
static void run(void)
{
	if (strcmp(mode, "handler-lazy") == 0) {
		char line[32];
		int n = snprintf(line, sizeof(line), "%ld\n",
				 bhv_add3(1, 2, 3));

		write(1, line, (size_t)n);
		return;
	}
	if (strcmp(mode, "thread-execvp") == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	execve(cmd[0], cmd, environ);
	failed = 1; /* main says how much of the stack that took */
}

/* The thread with a small stack. */
static void *thread_main(void *arg)
{
	(void)arg;
	run();
	return NULL;
}

/* The handler on the small alternate stack. */
static void handler(int sig)
{
	(void)sig;
	run();
}

static unsigned char altstack[8192];

/* Bytes of altstack written, from its top down: its paint is gone there. */
static size_t altstack_used(void)
{
	size_t i = 0;

	while (i < sizeof(altstack) && altstack[i] == 0xa5)
		i++;
	return sizeof(altstack) - i;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t th;

	if (argc < 2)
		return 2;
	mode = argv[1];
	cmd = argv + 2;
	if (strcmp(mode, "thread-execvp") == 0) {
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 16384);
		if (pthread_create(&th, &attr, thread_main, NULL) != 0)
			return 1;
		pthread_join(th, NULL);
		return 1;
	}
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };

	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		return 1;
	memset(altstack, 0xa5, sizeof(altstack));
	raise(SIGUSR1);
	fprintf(stderr, "altstack used: %zu\n", altstack_used());
	return failed ? 127 : 0;
}
