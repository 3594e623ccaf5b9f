/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fork.c: a child forked outside and inside a traced call makes traced calls of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libbhv.h"

/* Wait for pid and return its exit status, or -1. */
static int reap(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * Called from inside bhv_apply: fork there, so that the child returns
 * through the traced frame it inherited.  The child's result is x + 100.
 */
static long fork_inside(long x)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0)
		return x + 100;
	return x + reap(pid);
}

int main(void)
{
	pid_t pid;
	long r;

	printf("parent before: %ld\n", bhv_add3(1, 2, 3));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		printf("child: %ld\n", bhv_add3(0x10, 0x20, 0x30));
		return 0;
	}
	printf("child status: %d\n", reap(pid));
	/* The first traced call after the child's exit(). */
	printf("parent between: %ld\n", bhv_add3(7, 8, 9));

	r = bhv_apply(fork_inside, 7);
	if (r == 108) {
		/* The child, back from bhv_apply through its inherited frame. */
		printf("child inside: %ld\n", bhv_add3(0x40, 0x50, 0x60));
		exit(8);
	}
	printf("parent inside: %ld\n", r);
	printf("parent after: %ld\n", bhv_add3(4, 5, 6));
	return 0;
}
