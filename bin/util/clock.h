/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h: convert the interposer's TSC ticks to nanoseconds and wall-clock time. */
#ifndef LTRUSS_CLOCK_H
#define LTRUSS_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Note the TSC and the clocks when the command starts. */
void clock_start(void);

/* Refine the TSC rate with the time elapsed so far (call it now and then). */
void clock_refine(void);

/* Ticks per nanosecond; after the command ended, measured over the run. */
double clock_ticks_per_ns(void);

/* The rate measured so far, without waiting for a precise one. */
double clock_rate_now(void);

/* The TSC reading and the CLOCK_REALTIME ns at the start (a trace file keeps them). */
void clock_anchor(uint64_t *tsc, uint64_t *real);

/* Convert with these, as recorded in a trace file, never measuring. */
void clock_set(uint64_t tsc, uint64_t real, double ticks_per_ns);

/*
 * Ticks to ns is a division by the rate (ticks per ns), some 15 cycles of
 * latency twice on every line of --json (its "ts" and "dur_ns") and of
 * -ttt/-T, behind a call: perf put 14 ns a call of --json -o on the loop
 * there.  Inline, the same quotient comes from a product with the
 * reciprocal: that product lies within a few units in its last place of
 * the quotient, so both truncate to the same whole ns unless the product
 * is that close to a whole ns (at a second's worth of ns, a chance of
 * ~10^-5); then, and before the rate is known, the division decides.
 * The bytes printed are the division's, as they always were.
 */
struct clock_conv {
	uint64_t tsc0, real0; /* clock_anchor()'s: the TSC and CLOCK_REALTIME at the start */
	double ns_per_tick;   /* 1 / ticks per ns; 0 until known */
};
extern struct clock_conv clock_conv;

/* clock_realtime_ns() and clock_ticks_to_ns() by the division itself. */
uint64_t clock_realtime_ns_divided(uint64_t tsc);
uint64_t clock_ticks_to_ns_divided(uint64_t ticks);

/* d truncated into *whole, if d (a product for a quotient) is surely not within a few ulps of a whole number. */
static inline bool clock_truncates_sure(double d, int64_t *whole)
{
	double part, off;

	if (!(d > -0x1p52 && d < 0x1p52))
		return false;
	*whole = (int64_t)d;
	part = __builtin_fabs(d - (double)*whole);
	off = __builtin_fabs(d) * 0x1p-48;
	return part >= off && part <= 1 - off;
}

/* Wall-clock time (CLOCK_REALTIME) of a TSC reading, in ns since the epoch. */
static inline uint64_t clock_realtime_ns(uint64_t tsc)
{
	int64_t ns;

	if (clock_conv.ns_per_tick != 0 &&
	    clock_truncates_sure((double)(int64_t)(tsc - clock_conv.tsc0) * clock_conv.ns_per_tick, &ns))
		return clock_conv.real0 + (uint64_t)ns;
	return clock_realtime_ns_divided(tsc);
}

/* Nanoseconds between two TSC readings. */
static inline uint64_t clock_ticks_to_ns(uint64_t ticks)
{
	int64_t ns;

	if (clock_conv.ns_per_tick != 0 &&
	    clock_truncates_sure((double)ticks * clock_conv.ns_per_tick, &ns))
		return (uint64_t)ns;
	return clock_ticks_to_ns_divided(ticks);
}

/* The TSC now. */
uint64_t clock_tsc(void);

/* CLOCK_MONOTONIC in nanoseconds (for intervals of ltruss's own work). */
uint64_t clock_mono_ns(void);

/* The calling thread's CPU time in nanoseconds. */
uint64_t clock_thread_ns(void);

#endif
