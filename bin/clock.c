/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.c: calibrate the TSC against CLOCK_MONOTONIC.
 *
 * The interposer timestamps with rdtsc (9 ns a read here, against 21 ns for
 * clock_gettime), and this machine's TSC is constant and nonstop, so one
 * ratio converts every count.  The ratio is measured over the traced run
 * itself, which costs the program nothing; a run shorter than the minimum
 * window is padded with a sleep in ltruss, after the program has ended.
 */
#include "config.h"

#include <time.h>
#include <x86intrin.h>

#include "clock.h"

#define MIN_WINDOW_NS 5000000ull

static uint64_t tsc0, ns0;

/* The monotonic clock in nanoseconds. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void clock_start(void)
{
	ns0 = mono_ns();
	tsc0 = __rdtsc();
}

double clock_ticks_per_ns(void)
{
	uint64_t ns = mono_ns() - ns0;

	if (ns < MIN_WINDOW_NS) {
		struct timespec ts = { 0, (long)(MIN_WINDOW_NS - ns) };

		nanosleep(&ts, NULL);
	}
	ns = mono_ns() - ns0;
	return (double)(__rdtsc() - tsc0) / (double)ns;
}
