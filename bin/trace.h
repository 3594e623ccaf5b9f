/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.h: turn each thread's events into trace lines. */
#ifndef LTRUSS_TRACE_H
#define LTRUSS_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/session.h"
#include "format.h"

/* Start with output format f, for the calls of session s. */
void trace_init(const struct format *f, struct ltr_session *s);

/* One event of the thread in session slot (index slot_index). */
void trace_event(uint32_t slot_index, const struct ltr_thread *slot,
		 const struct ltr_event *ev);

/* Nothing new came: show calls that have been blocking for a while. */
void trace_idle(void);

/* Process pid ended: end its calls in progress and print how it ended. */
void trace_process_end(int pid, int exit_status, int sig, bool core);

/* Slot i was handed back (bin/slots.c): forget its thread. */
void trace_slot_freed(uint32_t i);

/* Free everything. */
void trace_done(void);

#endif
