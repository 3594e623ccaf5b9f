/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rawclone.c: a thread made with clone(CLONE_VM) and no CLONE_SETTLS (it
 * shares its creator's thread-local storage) makes traced calls while its
 * creator makes its own.  "local" gives it a stack in main's frame.
 */
#define _GNU_SOURCE /* clone */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../behaviour/libbhv.h"

#define STACK (256 * 1024)
#define LOOPS 100000

static volatile long child_sum;

/* The child: traced calls, and one through a callback. */
static int child(void *arg)
{
	long i, sum = 0;

	for (i = 0; i < LOOPS; i++)
		sum += bhv_add3(i, 1, 2);
	child_sum = sum + bhv_apply(labs, -5);
	return 0;
}

int main(int argc, char **argv)
{
	static char heap_stack[STACK] __attribute__((aligned(16)));
	char local_stack[STACK] __attribute__((aligned(16)));
	char *stack = argc > 1 && strcmp(argv[1], "local") == 0 ? local_stack
								  : heap_stack;
	long i, sum = 0;
	int pid, status;

	pid = clone(child, stack + STACK, CLONE_VM | SIGCHLD, NULL);
	if (pid < 0)
		return 1;
	for (i = 0; i < LOOPS; i++)
		sum += bhv_add3(i, 2, 3);
	waitpid(pid, &status, 0);
	printf("parent %ld child %ld status %d\n", sum, child_sum, status);
	return 0;
}
