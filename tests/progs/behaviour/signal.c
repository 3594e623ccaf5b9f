/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal.c: signal handlers that make traced calls, raised inside and between traced calls. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "libbhv.h"

#define LOOPS 1000
#define TICKS 20

static volatile sig_atomic_t handled;
static volatile long handler_sum;
static volatile sig_atomic_t ticks;

/* SIGUSR1: one traced call with recognisable arguments. */
static void on_usr1(int sig)
{
	handler_sum += bhv_add3(0x100, 0x200, sig);
	handled++;
}

/* SIGPROF: a traced call wherever the timer happens to interrupt. */
static void on_prof(int sig)
{
	(void)sig;
	if (bhv_add3(ticks, 0, 0x5160) == ticks + 0x5160)
		ticks++;
}

/* Called from inside bhv_apply: the handler runs within a traced call. */
static long raise_inside(long x)
{
	raise(SIGUSR1);
	return x;
}

/* Install handler for sig, restarting interrupted system calls. */
static void catch(int sig, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

int main(void)
{
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	long i, sum = 0, expect = 0;
	unsigned long spins = 0;

	catch(SIGUSR1, on_usr1);
	catch(SIGPROF, on_prof);

	for (i = 0; i < LOOPS; i++) {
		sum += bhv_add3(i, 1, 2);
		expect += i + 3;
		if (i == LOOPS / 2)
			raise(SIGUSR1);
	}
	printf("loop: %s, handled %d\n", sum == expect ? "ok" : "WRONG",
	       (int)handled);

	sum = bhv_apply(raise_inside, 41);
	printf("inside: %ld, handled %d\n", sum, (int)handled);
	printf("handler sum: %ld\n", handler_sum);

	/* Traced calls in a loop until the profiling timer fired TICKS times. */
	sum = expect = 0;
	setitimer(ITIMER_PROF, &it, NULL);
	for (i = 0; ticks < TICKS && spins < 4000000000ul; i++, spins++) {
		sum += bhv_add3(i & 0xff, 0, 0);
		expect += i & 0xff;
	}
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_PROF, &it, NULL);
	printf("timer loop: %s, ticks %d\n", sum == expect ? "ok" : "WRONG",
	       ticks >= TICKS ? TICKS : -1);
	return 0;
}
