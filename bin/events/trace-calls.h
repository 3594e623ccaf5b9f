/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-calls.h: each thread's stack of calls in progress (trace.c), shared with trace-plain.c, and the calls and results events lay out on it. */
#ifndef LTRUSS_TRACE_CALLS_H
#define LTRUSS_TRACE_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/session.h"
#include "call-blobs.h"
#include "counts.h"
#include "format.h"
#include "trace.h"

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
/* Calls are counted (trace_count_calls(): counts.c). */
extern bool trace_counting;

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

/* The blobs after the fixed words of ev, and their length. */
static inline const unsigned char *event_blobs(const struct ltr_event *ev,
						 size_t words, uint32_t *len)
{
	size_t fixed = sizeof(*ev) + 8 * words;

	*len = ev->size > fixed ? (uint32_t)(ev->size - fixed) : 0;
	return *len ? (const unsigned char *)ev + fixed : NULL;
}

/* Fill c from an ENTER or CALL event (its blobs still in the event). */
static inline void call_from_event(struct call *c, const struct ltr_event *ev)
{
	c->fn = ev->fn;
	c->depth = ev->depth;
	memcpy(c->args, ev->w, sizeof(c->args));
	c->caller = ev->w[6];
	c->ts_enter = ev->ts;
	c->blobs = event_blobs(ev, LTR_ENTER_WORDS, &c->blobs_len);
}

/* The result an EXIT or UNWOUND event gives. */
static inline void result_from_event(struct result *r,
				     const struct ltr_event *ev)
{
	memset(r, 0, sizeof(*r));
	r->ts_exit = ev->ts;
	if (ev->type == LTR_EV_EXIT) {
		r->returned = true;
		r->rax = ev->w[0];
		r->rdx = ev->w[1];
		r->xmm0 = ev->w[2];
		r->failed = ev->flags & LTR_EVF_ERROR;
		r->errnum = (int)ev->w[3];
		r->blobs = event_blobs(ev, LTR_EXIT_WORDS, &r->blobs_len);
	} else {
		r->why = (enum ltr_end)(ev->flags & ~LTR_EVF_KEEP_ABOVE);
	}
}

/* The call of ENTER ev laid out on top of t's stack (not counted in its depth yet). */
static inline struct tcall *call_push(struct thread_trace *t,
				      const struct ltr_event *ev)
{
	struct tcall *tc = &t->stack[t->depth];

	call_from_event(&tc->c, ev);
	tc->child = 0;
	tc->inherited = ev->flags & LTR_EVF_RESUME;
	return tc;
}

/* Is call tc, ended at ts_exit, one the counts and profiles take? */
static inline bool call_timed(const struct tcall *tc, uint64_t ts_exit)
{
	return tc->state != HIDDEN && !tc->inherited && tc->c.ts_enter &&
	       ts_exit >= tc->c.ts_enter;
}

/*
 * The time of a finished call tc of t (just popped) that ended at
 * ts_exit to its caller's, and to the counts if it returned (failed or
 * not); returns the ticks of its own.  A plain trace has no counts nor
 * profiles: the time in callees (child) is kept only for them.
 */
static inline uint64_t call_time(struct thread_trace *t, struct tcall *tc,
				 uint64_t ts_exit, bool returned, bool failed)
{
	uint64_t dur = ts_exit - tc->c.ts_enter;
	uint64_t self = dur > tc->child ? dur - tc->child : 0;

	if (t->depth)
		t->stack[t->depth - 1].child += dur;
	if (trace_counting && returned)
		counts_call(t->who.pid, tc->c.fn, &t->row, dur, self, failed);
	return self;
}

/* Call tc of r's entry (call_push()) starts on t's stack, to be shown. */
static inline void call_shown(struct thread_trace *t, struct tcall *tc,
			      const struct event_rec *r)
{
	trace_open_parent(t);
	if (++t->depth > t->deepest)
		t->deepest = t->depth;
	if (tc->c.blobs_len)
		call_blobs_keep(&tc->c, &tc->blobs, &tc->blobs_size, r->ev,
				r->take);
	tc->state = PENDING;
}

#endif
