/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h: convert the interposer's TSC ticks to nanoseconds. */
#ifndef LTRUSS_CLOCK_H
#define LTRUSS_CLOCK_H

#include <stdint.h>

/* Note the TSC and the monotonic clock when the command starts. */
void clock_start(void);

/* After the command ended: ticks per nanosecond, measured over the run. */
double clock_ticks_per_ns(void);

#endif
