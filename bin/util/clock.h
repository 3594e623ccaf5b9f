/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h: convert the interposer's TSC ticks to nanoseconds and wall-clock time. */
#ifndef LTRUSS_CLOCK_H
#define LTRUSS_CLOCK_H

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

/* Wall-clock time (CLOCK_REALTIME) of a TSC reading, in ns since the epoch. */
uint64_t clock_realtime_ns(uint64_t tsc);

/* Nanoseconds between two TSC readings. */
uint64_t clock_ticks_to_ns(uint64_t ticks);

/* The TSC now. */
uint64_t clock_tsc(void);

/* CLOCK_MONOTONIC in nanoseconds (for intervals of ltruss's own work). */
uint64_t clock_mono_ns(void);

/* The calling thread's CPU time in nanoseconds. */
uint64_t clock_thread_ns(void);

#endif
