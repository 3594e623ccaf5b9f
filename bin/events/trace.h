/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.h: turn each thread's events into trace lines. */
#ifndef LTRUSS_TRACE_H
#define LTRUSS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "format.h"

/*
 * Start with output format f (NULL: no lines), for the calls of session s;
 * ends_only: only how processes ended (-w).
 */
void trace_init(const struct format *f, struct ltr_session *s,
		bool ends_only);

/*
 * An event as it enters ltruss, from the rings (reader.c) or from a trace
 * file (tracefile-read.c): checked there once (check_event()), trusted
 * from here on.  pid and tid are the slot's owner when it was read.
 */
struct event_rec {
	uint32_t slot;
	int32_t pid, tid;
	const struct ltr_event *ev;
	/*
	 * If not NULL, the sink may keep ev, a copy its source would reuse
	 * (reader.c's): take returns it, of *size bytes, and reuses spare
	 * (spare_size bytes, or NULL) in its place; the caller frees what
	 * it took.
	 */
	void *(*take)(void *spare, size_t spare_size, size_t *size);
	/*
	 * The types of ev's blobs (event_blob_types()) with
	 * EVENT_BLOB_TYPES_KNOWN, if its source looked already; else 0.
	 */
	uint32_t blob_types;
};
#define EVENT_BLOB_TYPES_KNOWN (1u << 31)

/* One event, in the order its source gives them. */
void trace_event(const struct event_rec *r);

/*
 * trace_event() of a plain record as its ring holds it (reader_plain():
 * an ENTER, CALL or EXIT without blobs), for a live trace without -k.
 */
struct event_plain;
void trace_plain(const struct event_rec *r, const struct event_plain *pl);

/*
 * trace_event() is these two: take the Python and Tcl code objects an
 * event describes (narrow.c: those of every event, shown or not), and
 * the event itself.
 */
void trace_ingest_blobs(const struct event_rec *r);
void trace_event_ingested(const struct event_rec *r);

/* Only an entry's blobs describe code, and most have none: asked inline. */
static inline void trace_ingest(const struct event_rec *r)
{
	if ((r->ev->type == LTR_EV_ENTER || r->ev->type == LTR_EV_CALL) &&
	    r->ev->size > sizeof(*r->ev) + 8 * LTR_ENTER_WORDS)
		trace_ingest_blobs(r);
}

/* Nothing new came: show calls that have been blocking for a while. */
void trace_idle(void);

/* The same, at TSC reading now (a trace file replays the pauses it recorded). */
void trace_idle_at(uint64_t now);

/* A trace file ends cut short: show the calls in progress not shown yet as unfinished. */
void trace_cut(void);

/* Process pid ended (learnt at TSC reading tsc): end its calls in progress and print how it ended. */
void trace_process_end(int pid, uint64_t tsc, int exit_status, int sig,
		       bool core);

/* Slot i was handed back (bin/events/slots.c): forget its thread. */
void trace_slot_freed(uint32_t i);

/* Count the calls that end, by process and function (a narrowed --read -c). */
void trace_count_calls(void);

/*
 * Does anything take the calls: a format that prints them, --tree and the
 * other profiles, or the counting of trace_count_calls()?  If not, a
 * --read has no need to decode its events.
 */
bool trace_wants_calls(void);

/* Copy at most max rows of those counts to rows (NULL: count them); returns how many. */
size_t trace_counts(struct ltr_retired *rows, size_t max);

/* Free everything. */
void trace_done(void);

#endif
