/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reader.h: drain the event rings of the session. */
#ifndef LTRUSS_READER_H
#define LTRUSS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "trace.h"

/*
 * Read the rings at ring_area, each size bytes (ltruss's own numbers),
 * and pass their events on to sink: trace_event(), or the trace file.
 */
void reader_init(uint32_t size,
		 void (*sink)(const struct event_rec *r));

/*
 * Copy the next events (those that fit in room bytes) to at, until the
 * sink says otherwise; NULL: to the reader's own buffer.  A sink that
 * keeps events in a buffer of its own (-w's segments) saves a copy: an
 * event handed on at at is there; one peeked and not handed on yet may
 * be overwritten at the next call of the sink.
 */
void reader_copy_to(void *at, size_t room);

/* Pass every event published so far to the sink, oldest first; returns how many. */
size_t reader_drain(struct ltr_session *s);

/* How long launch_wait() may leave the rings alone between passes. */
uint64_t reader_pace_ns(void);

/* Has every event of slot i published so far been passed on? */
bool reader_drained(const struct ltr_session *s, uint32_t i);

/* Events dropped with --drop, over all threads; counts no thread can have dropped (forged) left out, with a warning. */
unsigned long long reader_dropped(const struct ltr_session *s);

/*
 * LTRUSS_DEBUG_RINGS: each ring's bytes written, the times its thread
 * found it full and waited, its sleeps, and the fewest bytes free it
 * went on with after a stop, on stderr (the tests and the benchmark).
 */
void reader_debug_rings(const struct ltr_session *s);

#endif
