// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unwind.cc: a C++ exception and a longjmp through the program's own
 * functions, and a fork whose child calls them too; prints how often each
 * was entered (the child first).  Usage: patch-unwind [N]
 */
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

static unsigned n_thrower, n_middle, n_jumper, n_jmiddle, n_twin;
static jmp_buf env;

extern "C" {
/* Throws for odd x. */
__attribute__((noinline)) int thrower(int x)
{
	n_thrower++;
	if (x % 2)
		throw std::runtime_error("odd");
	return x;
}

/* Calls thrower: the exception passes through it. */
__attribute__((noinline)) int middle(int x)
{
	int r;

	n_middle++;
	r = thrower(x);
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* Jumps back to main for odd x. */
__attribute__((noinline)) void jumper(int x)
{
	n_jumper++;
	if (x % 2)
		longjmp(env, x);
}

/* Calls jumper: the longjmp passes over it. */
__attribute__((noinline)) int jmiddle(int x)
{
	n_jmiddle++;
	jumper(x);
	__asm__ volatile("" ::: "memory");
	return x;
}

/* Called by both sides of a fork. */
__attribute__((noinline)) int twin(int x)
{
	n_twin++;
	return x + 1;
}
}

int main(int argc, char **argv)
{
	volatile long sum = 0;
	volatile int i;
	int n = argc > 1 ? atoi(argv[1]) : 6, status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		try {
			sum += middle(i);
		} catch (const std::exception &e) {
			sum += 100;
		}
		if (setjmp(env) == 0)
			sum += jmiddle(i);
		else
			sum += 1000;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		sum += twin(1) + twin(2) + twin(3);
		printf("child twin %u\n", n_twin);
		return 0;
	}
	waitpid(pid, &status, 0);
	sum += twin(4);
	printf("sum %ld\n", (long)sum);
	printf("thrower %u\nmiddle %u\njumper %u\njmiddle %u\ntwin %u\n",
	       n_thrower, n_middle, n_jumper, n_jmiddle, n_twin);
	return 0;
}
