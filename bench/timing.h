// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timing.h: the clock and the median of the bench's floor programs
 * (floor.c, frames-floor.c): REPS rounds, each timed with the monotonic
 * clock, their median.  Define REPS before including it.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* Monotonic time in ns. */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Ascending doubles, for qsort. */
static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of REPS values (sorts them). */
static double median(double *v)
{
	qsort(v, REPS, sizeof(*v), by_value);
	return v[REPS / 2];
}

#endif
