// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor.c: time a call through each stub of floor.S, and one rdtsc.
 * Prints "timed hijack rdtsc": ns added a call by the stub that times and
 * counts, by the one that only hijacks the return, both against a stub
 * that only jumps, and ns for one rdtsc; medians of REPS rounds, the
 * variants interleaved in each round.
 * Usage: floor [CALLS] (default 20 000 000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 9
#include "timing.h"

typedef long (*fn3)(long, long, long);

extern char floor_shadow[];
extern void *floor_top;
long floor_stub_jump(long, long, long);
long floor_stub_hijack(long, long, long);
long floor_stub_timed(long, long, long);

/* The traced function: the loop benchmark's one-liner. */
__attribute__((noinline)) long floor_target(long a, long b, long c)
{
	__asm__ volatile("");
	return a + 1 + (b & c);
}

/* Time n calls of f. */
static __attribute__((noinline)) double time_calls(fn3 f, long n)
{
	double t0 = now_ns();
	long x = 0;

	for (long i = 0; i < n; i++)
		x = f(x, i, 0);
	__asm__ volatile("" : : "r"(x));
	return now_ns() - t0;
}

/* Time n back-to-back rdtsc. */
static double time_rdtsc(long n)
{
	double t0 = now_ns();
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		uint32_t lo, hi;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		sum += lo;
	}
	__asm__ volatile("" : : "r"(sum));
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	double jump[REPS], hijack[REPS], timed[REPS], tsc[REPS];

	if (n <= 0) {
		fprintf(stderr, "usage: floor [CALLS]\n");
		return 2;
	}
	floor_top = floor_shadow;
	for (int r = 0; r < REPS; r++) {
		jump[r] = time_calls(floor_stub_jump, n);
		hijack[r] = time_calls(floor_stub_hijack, n);
		timed[r] = time_calls(floor_stub_timed, n);
		tsc[r] = time_rdtsc(n);
	}
	double base = median(jump);

	printf("%.1f %.1f %.1f\n", (median(timed) - base) / n,
	       (median(hijack) - base) / n, median(tsc) / n);
	return 0;
}
