/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-rounds.h: a live trace's lines formatted on several threads when several rings are busy. */
#ifndef LTRUSS_TRACE_ROUNDS_H
#define LTRUSS_TRACE_ROUNDS_H

#include <stdbool.h>

#include "lib/session.h"

/*
 * Format the rounds in which several rings are busy on worker threads
 * (reader_parallel()), for the calls of session s; lines as the merge
 * gives them.  Only for a trace whose lines depend on nothing but their
 * own thread's calls (the caller's choice: no -k, --caller, -r, -i).
 */
void trace_rounds_start(struct ltr_session *s);

/* Stop the workers; LTRUSS_DEBUG_SEGMENTS: say what they did, on stderr. */
void trace_rounds_stop(void);

#endif
