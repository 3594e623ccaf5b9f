/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefile-write.h: record the drained events into a trace file (-w). */
#ifndef LTRUSS_TRACEFILE_WRITE_H
#define LTRUSS_TRACEFILE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session.h"
#include "conf.h"
#include "trace.h"

/*
 * Create file and write its header, for session s whose prototypes and
 * named types come from config; an error dies (exit 2) before the run.
 */
void tracefile_open(const char *file, const struct ltr_session *s,
		    const struct config *config, bool follow);

/* Is a trace file being recorded? */
bool tracefile_recording(void);

/* Record that process pid ended, learnt at TSC reading tsc (multi: several processes were traced). */
void tracefile_process_end(int pid, uint64_t tsc, int exit_status, int sig,
			   bool core, bool multi);

/* Write what is buffered once a second has passed since the last time. */
void tracefile_tick(void);

/*
 * While recording: write the object records claimed so far (waiting a
 * little for those claimed and not yet written), and say how many the
 * file has, or all claimed if recording stopped (the file needs no more).
 */
uint32_t tracefile_objects_copied(void);

/*
 * Write the counters, the clock and the end (what was lost; the command
 * killed by signal sig, 0 if not), and close the file.
 */
void tracefile_close(unsigned long long dropped, uint32_t lost_returns,
		     int sig, bool core);

#endif
