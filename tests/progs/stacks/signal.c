/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signal.c: a signal handler calls a library function; its stack runs
 * through the kernel's signal frame back into the interrupted code
 * (tests/stacks.bats): the frame libdw's own unwinder is kept for.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int total;

static __attribute__((noinline)) void on_usr1(int sig)
{
	total += (int)strlen("handled");
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void interrupted(void)
{
	raise(SIGUSR1);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	interrupted();
	printf("%d\n", total);
	return 0;
}
