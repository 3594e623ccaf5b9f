/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * longjmp.c: longjmp out of callbacks called from traced calls, many times
 * over.  Usage: bhv-longjmp [LOOPS [end]] (1000 by default; end: no call
 * after the last jump).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "libbhv.h"

#define LOOPS 1000

static jmp_buf env;

/* Leave bhv_apply (and any traced calls around it) for main's setjmp. */
static long jump_out(long x)
{
	longjmp(env, (int)x + 1);
}

/* One traced call deeper, then jump out of both. */
static long nest_then_jump(long x)
{
	return bhv_apply(jump_out, x);
}

/* Return normally, through one more traced call. */
static long twice(long x)
{
	return bhv_add3(x, x, 0);
}

int main(int argc, char **argv)
{
	volatile long jumps = 0, sum = 0, i;
	long loops = argc > 1 ? atol(argv[1]) : LOOPS;
	int v;

	for (i = 0; i < loops; i++) {
		v = setjmp(env);
		if (v) {
			jumps++;
			sum += v;
			continue;
		}
		if (i % 2)
			bhv_apply(nest_then_jump, i);
		else
			bhv_apply(jump_out, i);
		printf("not reached: %ld\n", i);
	}
	printf("jumps: %ld, sum: %ld\n", jumps, sum);
	if (argc > 2)
		return 0;
	printf("after: %ld\n", bhv_add3(7, 8, 9));
	printf("apply: %ld\n", bhv_apply(twice, 20));
	return 0;
}
