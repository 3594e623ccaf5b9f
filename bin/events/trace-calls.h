/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-calls.h: each thread's stack of calls in progress (trace.c), shared with trace-plain.c. */
#ifndef LTRUSS_TRACE_CALLS_H
#define LTRUSS_TRACE_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "format.h"

#define MAX_DEPTH 1024

enum call_state {
	PENDING,    /* nothing printed yet */
	OPENED,     /* printed as "... {" */
	PARTIAL,    /* printed without a newline: the open partial line */
	UNFINISHED, /* printed with "<unfinished ...>" */
	HIDDEN,     /* its function is disabled: never printed */
};

struct tcall {
	struct call c;
	enum call_state state;
	uint64_t child; /* ticks in traced calls made inside it */
	bool inherited; /* a forked child's copy of its parent's call: not counted */
	unsigned char *blobs; /* c.blobs lives here (grown, reused) */
	size_t blobs_size;
};

struct thread_trace {
	struct who who;
	uint32_t depth;
	struct ltr_retired *row; /* the last row counting its calls (counts.c) */
	struct thread_trace *guest; /* a vfork child writing this ring now */
	uint32_t deepest; /* stack[] below this may hold blobs; above, untouched */
	struct tcall stack[MAX_DEPTH];
};

/* The trace state of each thread slot (NULL: none yet), and the session. */
extern struct thread_trace *trace_threads[LTR_MAX_THREADS];
extern struct ltr_session *trace_session;

/*
 * May the lines of each thread's calls be made apart this round, on
 * several threads (trace-rounds.c)?  Not while a partial line is open
 * (any thread's line ends it), nor for profiles or counts (shared by
 * the threads), nor without lines.
 */
bool trace_lines_apart(void);

/* The format's warm (struct format) of function fn; only when trace_lines_apart(). */
enum format_warm trace_warm(uint32_t fn);

/* A call starts inside the top call of t: that one must be printed. */
void trace_open_parent(struct thread_trace *t);

/* Print the end of call tc of thread t with result r. */
void trace_end_call(struct thread_trace *t, struct tcall *tc,
		    const struct result *r);

#endif
