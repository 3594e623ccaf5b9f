/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbhv.c: a fixture library with calls that stress control flow and the calling convention. */
#include <pthread.h>
#include <stdlib.h>

#include "libbhv.h"

long bhv_add3(long a, long b, long c)
{
	return a + b + c;
}

/* Call back into the program: cb(x) + 1. */
long bhv_apply(bhv_cb cb, long x)
{
	return cb(x) + 1;
}

/* Weighted sum: arguments 7 to 10 are passed on the stack. */
long bhv_sum10(long a1, long a2, long a3, long a4, long a5, long a6,
	       long a7, long a8, long a9, long a10)
{
	return 1 * a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 +
	       7 * a7 + 8 * a8 + 9 * a9 + 10 * a10;
}

/* Weighted sum of doubles: arguments 9 and 10 are passed on the stack. */
double bhv_dsum10(double d1, double d2, double d3, double d4, double d5,
		  double d6, double d7, double d8, double d9, double d10)
{
	return 1 * d1 + 2 * d2 + 3 * d3 + 4 * d4 + 5 * d5 + 6 * d6 +
	       7 * d7 + 8 * d8 + 9 * d9 + 10 * d10;
}

double bhv_scale(double x, float y, int n)
{
	return x * y * n;
}

float bhv_fmix(float a, float b)
{
	return a * 0.25f + b * 0.75f;
}

/* A 24-byte struct: returned in memory through the hidden %rdi pointer. */
struct bhv_s24 bhv_make24(long a, long b, long c)
{
	struct bhv_s24 s = { a * 2, b * 3, c * 5 };

	return s;
}

/* A struct of two doubles: returned in %xmm0 and %xmm1. */
struct bhv_pair bhv_pair(double x, double y)
{
	struct bhv_pair p = { x + y, x - y };

	return p;
}

/* A long double: returned in x87 st0. */
long double bhv_ldmul(long double x, int n)
{
	return x * n / 3;
}

/* qsort comparator for longs, handed to libc by address. */
int bhv_cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void bhv_exit(int status)
{
	exit(status);
}

void bhv_thread_exit(long value)
{
	pthread_exit((void *)value);
}
