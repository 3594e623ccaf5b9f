/* SPDX-License-Identifier: GPL-2.0-or-later */
/* narrow.h: show part of a trace file (--read with -u, -D, --pid). */
#ifndef LTRUSS_NARROW_H
#define LTRUSS_NARROW_H

#include <stdbool.h>
#include <stddef.h>

#include "selection.h"
#include "trace.h"

/*
 * Show the calls sel's rules select (none: all), at most depth deep (0:
 * any), of the processes in pids[0..n) (n = 0: all).
 */
void narrow_init(const struct selection *sel, unsigned depth,
		 const int *pids, size_t n);

/* Are calls narrowed (-u, -D), so that the recorded counters do not apply? */
bool narrow_calls(void);

/* Is process pid shown? */
bool narrow_pid(int pid);

/* Pass r on to trace_event() if it is shown, its depth among the shown calls. */
void narrow_event(const struct event_rec *r);

/* Free the per-thread state. */
void narrow_done(void);

#endif
