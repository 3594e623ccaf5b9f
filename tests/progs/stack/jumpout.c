/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jumpout.c: a profiling timer whose handler leaves with siglongjmp,
 * wherever it interrupts a loop of at least N traced calls (inside the
 * interposer too), until it has jumped 20 times.  Prints the calls that
 * returned and the jumps.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "../behaviour/libbhv.h"

static sigjmp_buf env;

/* SIGPROF: leave whatever was running. */
static void jump_out(int sig)
{
	siglongjmp(env, sig);
}

int main(int argc, char **argv)
{
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	volatile long i, done = 0, jumps = 0;
	long n = argc > 1 ? atol(argv[1]) : 100000;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = jump_out;
	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
	for (i = 0; i < n || jumps < 20; i++) {
		if (sigsetjmp(env, 1)) {
			jumps++;
			continue;
		}
		bhv_add3(i, 1, 2);
		done++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_PROF, &it, NULL);
	printf("returned %ld jumps %ld\n", done, jumps);
	return 0;
}
