/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.c: calibrate the TSC against the system clocks.
 *
 * The interposer timestamps with rdtsc (9 ns a read here, against 21 ns for
 * clock_gettime), and this machine's TSC is constant and nonstop, so one
 * rate converts every reading.  The rate is measured over the traced run
 * itself, from the start to the latest refinement, which costs the program
 * nothing and gets more precise as the run goes on.
 *
 * How long a window is needed depends on how well a TSC reading and a
 * clock reading can be paired: each pair is a TSC read between two clock
 * reads, the tightest of a few tries, so its error is about one clock
 * read (some 20 ns through the vDSO, more where clock_gettime is a system
 * call).  The rate is then within 2 * error / window.  Before the first
 * conversion the window must be long enough for that to be small (0.1%,
 * refined later): a short run that has not lasted that long is padded
 * with a wait in ltruss (0.15 ms here).
 *
 * The summary and the recording's last clock need no more than that.
 * Every time they convert lies within the window, from its start to the
 * refinement just made, and a span d within a window w is off by at most
 * d * 2 * error / w < 2 * error, some 60 ns, however short the window: a
 * longer one would not make the times of a short run more exact.  It used
 * to wait for 0.01% (1.4 ms here, a fixed 2 ms before that), which was
 * most of what ltruss added to the run of a short program.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include "clock.h"

#define MIN_PRECISION 1000u    /* 1/1000 before the first conversion */
#define MAX_WINDOW_NS 2000000ull /* never wait longer than this */

static uint64_t mono0;
static uint64_t pair_error0; /* ns: how well clock_conv.tsc0 and mono0 match */
static double rate; /* ticks per ns; 0 until measured */
static bool fixed;  /* set from a trace file: never measured */
struct clock_conv clock_conv;

/* Set the rate, and the reciprocal the inline conversions multiply by. */
static void rate_set(double ticks_per_ns)
{
	double inverse = ticks_per_ns > 0 ? 1 / ticks_per_ns : 0;

	rate = ticks_per_ns;
	clock_conv.ns_per_tick = inverse > 0x1p-1000 && inverse < 0x1p1000 ? inverse : 0;
}

/* Nanoseconds of clock id. */
static uint64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t clock_mono_ns(void)
{
	return now_ns(CLOCK_MONOTONIC);
}

uint64_t clock_thread_ns(void)
{
	return now_ns(CLOCK_THREAD_CPUTIME_ID);
}

/*
 * Read the TSC and CLOCK_MONOTONIC together: a TSC read between two clock
 * reads, paired with their middle, the tightest of a few tries; *error
 * gets the width of that pair in ns.
 */
static void pair_now(uint64_t *tsc, uint64_t *mono, uint64_t *error)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t n0 = now_ns(CLOCK_MONOTONIC), t = __rdtsc();
		uint64_t n1 = now_ns(CLOCK_MONOTONIC);

		if (n1 - n0 < best) {
			best = n1 - n0;
			*tsc = t;
			*mono = n0 + (n1 - n0) / 2;
		}
	}
	*error = best;
}

/* Wait until the window since the start gives a rate within 1/precision. */
static void wait_window(unsigned precision)
{
	uint64_t tsc, mono, error, need;

	pair_now(&tsc, &mono, &error);
	need = 2 * (pair_error0 + error) * precision;
	if (need > MAX_WINDOW_NS)
		need = MAX_WINDOW_NS;
	if (mono - mono0 < need) {
		struct timespec ts = { 0, (long)(need - (mono - mono0)) };

		nanosleep(&ts, NULL);
	}
}

void clock_start(void)
{
	pair_now(&clock_conv.tsc0, &mono0, &pair_error0);
	clock_conv.real0 = now_ns(CLOCK_REALTIME) - (now_ns(CLOCK_MONOTONIC) - mono0);
	rate_set(0);
}

void clock_refine(void)
{
	uint64_t tsc, mono, error;

	if (fixed)
		return;
	pair_now(&tsc, &mono, &error);
	if (mono > mono0)
		rate_set((double)(tsc - clock_conv.tsc0) / (double)(mono - mono0));
}

/* The rate, measuring it first if it was never measured. */
static double current_rate(void)
{
	if (rate == 0 && !fixed) {
		wait_window(MIN_PRECISION);
		clock_refine();
	}
	return rate;
}

double clock_ticks_per_ns(void)
{
	if (fixed)
		return rate;
	wait_window(MIN_PRECISION);
	clock_refine();
	return rate;
}

double clock_rate_now(void)
{
	return current_rate();
}

void clock_anchor(uint64_t *tsc, uint64_t *real)
{
	*tsc = clock_conv.tsc0;
	*real = clock_conv.real0;
}

void clock_set(uint64_t tsc, uint64_t real, double ticks_per_ns)
{
	clock_conv.tsc0 = tsc;
	clock_conv.real0 = real;
	rate_set(ticks_per_ns);
	fixed = true;
}

uint64_t clock_realtime_ns_divided(uint64_t tsc)
{
	double d = (double)(int64_t)(tsc - clock_conv.tsc0) / current_rate();

	return clock_conv.real0 + (uint64_t)(int64_t)d;
}

uint64_t clock_ticks_to_ns_divided(uint64_t ticks)
{
	return (uint64_t)((double)ticks / current_rate());
}

uint64_t clock_tsc(void)
{
	return __rdtsc();
}
