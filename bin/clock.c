/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.c: calibrate the TSC against the system clocks.
 *
 * The interposer timestamps with rdtsc (9 ns a read here, against 21 ns for
 * clock_gettime), and this machine's TSC is constant and nonstop, so one
 * rate converts every reading.  The rate is measured over the traced run
 * itself, from the start to the latest refinement, which costs the program
 * nothing and gets more precise as the run goes on.  Too short a window is
 * padded with a wait in ltruss (at least MIN_WINDOW_NS before the first
 * conversion; at the end, for the summary).
 */
#include "config.h"

#include <time.h>
#include <x86intrin.h>

#include "clock.h"

#define MIN_WINDOW_NS 1000000ull   /* before the first conversion */
#define FINAL_WINDOW_NS 2000000ull /* for the summary's times: < 0.01% off */

static uint64_t tsc0, mono0, real0;
static double rate; /* ticks per ns; 0 until measured */

/* Nanoseconds of clock id. */
static uint64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wait until at least min_ns have passed since the start. */
static void wait_window(uint64_t min_ns)
{
	uint64_t ns = now_ns(CLOCK_MONOTONIC) - mono0;

	if (ns < min_ns) {
		struct timespec ts = { 0, (long)(min_ns - ns) };

		nanosleep(&ts, NULL);
	}
}

void clock_start(void)
{
	mono0 = now_ns(CLOCK_MONOTONIC);
	real0 = now_ns(CLOCK_REALTIME);
	tsc0 = __rdtsc();
	rate = 0;
}

void clock_refine(void)
{
	uint64_t ns = now_ns(CLOCK_MONOTONIC) - mono0;

	if (ns >= MIN_WINDOW_NS)
		rate = (double)(__rdtsc() - tsc0) / (double)ns;
}

/* The rate, measuring it first if it was never measured. */
static double current_rate(void)
{
	if (rate == 0) {
		wait_window(MIN_WINDOW_NS);
		clock_refine();
	}
	return rate;
}

double clock_ticks_per_ns(void)
{
	wait_window(FINAL_WINDOW_NS);
	clock_refine();
	return rate;
}

uint64_t clock_realtime_ns(uint64_t tsc)
{
	double d = (double)(int64_t)(tsc - tsc0) / current_rate();

	return real0 + (uint64_t)(int64_t)d;
}

uint64_t clock_ticks_to_ns(uint64_t ticks)
{
	return (uint64_t)((double)ticks / current_rate());
}

uint64_t clock_tsc(void)
{
	return __rdtsc();
}
