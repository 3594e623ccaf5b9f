/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rounds.c: N programs take turns at a traced call, CALLS turns each
 * (tests/tracefile.bats, --read -k of many processes).
 *
 * Usage: rounds N CALLS [signal]
 *
 * The parent starts N children, each running this program again (an
 * exec: each has the objects of its own process), joined in a ring of
 * pipes: child i waits for the token, calls getppid() through take_turn,
 * and hands the token to child i + 1.  So the calls of a recording cycle
 * over the N processes, one call each in turn.  Prints "N CALLS".
 * With "signal", a child calls take_turn from a SIGUSR1 handler it
 * raises: its stacks go through a signal frame.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#define TOKEN_IN 100
#define TOKEN_OUT 101

/* One traced call, from a frame of its own. */
static __attribute__((noinline)) int take_turn(void)
{
	int r = getppid();

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* SIGUSR1: the turn, from a signal frame. */
static void on_usr1(int sig)
{
	(void)sig;
	take_turn();
	__asm__ volatile("" ::: "memory");
}

/* A child's part: calls turns, each when the token comes. */
static int child(int calls, bool from_signal)
{
	char token;
	int i;

	if (from_signal)
		signal(SIGUSR1, on_usr1);
	for (i = 0; i < calls; i++) {
		if (read(TOKEN_IN, &token, 1) != 1)
			return 1;
		if (from_signal)
			raise(SIGUSR1);
		else
			take_turn();
		if (write(TOKEN_OUT, &token, 1) != 1)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n, calls, i, status, bad = 0;
	int (*ring)[2];

	if (argc >= 4 && strcmp(argv[1], "child") == 0)
		return child(atoi(argv[3]), argc == 5);
	if (argc < 3 || argc > 4 || (n = atoi(argv[1])) < 1 ||
	    (calls = atoi(argv[2])) < 1)
		return 2;
	ring = calloc((size_t)n, sizeof(*ring));
	for (i = 0; i < n; i++)
		if (!ring || pipe2(ring[i], O_CLOEXEC) != 0)
			return 2;
	for (i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			return 2;
		if (p == 0) {
			if (dup2(ring[i][0], TOKEN_IN) < 0 ||
			    dup2(ring[(i + 1) % n][1], TOKEN_OUT) < 0)
				_exit(2);
			execl("/proc/self/exe", argv[0], "child", argv[1],
			      argv[2], argv[3], (char *)NULL);
			_exit(127);
		}
	}
	if (write(ring[0][1], "t", 1) != 1)
		return 2;
	for (i = 0; i < n; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			bad++;
	printf("%d %d\n", n, calls);
	return bad != 0;
}
