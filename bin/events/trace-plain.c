/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-plain.c: plain records (reader_plain(): an ENTER or EXIT as its
 * ring holds it, no blob, checked by the reader), nearly every event of
 * a live trace, go from the ring's words straight onto the thread's
 * stack of calls (trace-calls.h) and into the format, when nothing about
 * them asks for more: a known thread with no vfork child in its ring, an
 * entry one level deeper than the call on top (no call dropped), of a
 * function not disabled, not resumed; an exit of the call on top.  That
 * is what trace.c's call_starts() and call_ends() do with such an event,
 * without unpacking it into the whole layout first: together with that
 * copy, the general way cost as much as formatting the line (callgrind,
 * -o on the loop).  Any other record is laid out whole and takes the
 * general way (trace_event()).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "reader.h"
#include "toggles.h"
#include "trace-calls.h"
#include "trace.h"

/* The header's fields of plain record pl (struct ltr_rec's first word). */
#define PLAIN_FLAGS(pl) ((unsigned)((pl)->head >> 24) & 0xffu)
#define PLAIN_DEPTH(pl) ((uint32_t)((pl)->head >> 32) & 0xffffu)
#define PLAIN_FN(pl) ((uint32_t)((pl)->head >> 48))

/* call_starts() of plain ENTER pl of t, if it asks nothing more; else false. */
static inline bool plain_starts(struct thread_trace *t,
				const struct event_plain *pl)
{
	uint32_t fn = PLAIN_FN(pl), depth = PLAIN_DEPTH(pl);
	unsigned regs = pl->words - 1, i;
	struct tcall *tc;

	if ((PLAIN_FLAGS(pl) & LTR_EVF_RESUME) || t->depth >= MAX_DEPTH ||
	    (t->depth && t->stack[t->depth - 1].c.depth >= depth) ||
	    toggles_disabled(trace_session, fn))
		return false;
	/*
	 * The registers it left out are 0; its last word is the return
	 * address.  Word by word: a copy through a buffer on the stack, in
	 * stores of other sizes than its loads, stalled on every call
	 * (store forwarding; perf: a third of this function's time).
	 */
	tc = &t->stack[t->depth];
	for (i = 0; i < 6; i++)
		tc->c.args[i] = i < regs ? pl->w[i] : 0;
	tc->c.caller = pl->w[regs];
	tc->c.fn = fn;
	tc->c.depth = depth;
	tc->c.ts_enter = pl->ts;
	tc->c.blobs = NULL;
	tc->c.blobs_len = 0;
	tc->child = 0;
	tc->inherited = false;
	trace_open_parent(t);
	if (++t->depth > t->deepest)
		t->deepest = t->depth;
	tc->state = PENDING;
	return true;
}

/* call_ends() of plain EXIT pl of t, if it ends the call on top; else false. */
static inline bool plain_ends(struct thread_trace *t,
			      const struct event_plain *pl)
{
	unsigned n = pl->words;
	struct tcall *tc;
	struct result r;

	if ((PLAIN_FLAGS(pl) & LTR_EVF_KEEP_ABOVE) || !t->depth)
		return false;
	tc = &t->stack[t->depth - 1];
	if (tc->c.depth != PLAIN_DEPTH(pl) || tc->c.fn != PLAIN_FN(pl))
		return false;
	/* Word by word, as plain_starts() reads them. */
	r = (struct result){ .returned = true,
			     .rax = pl->w[0],
			     .rdx = n > 1 ? pl->w[1] : 0,
			     .xmm0 = n > 2 ? pl->w[2] : 0,
			     .failed = PLAIN_FLAGS(pl) & LTR_EVF_ERROR,
			     .errnum = n > 3 ? (int)pl->w[3] : 0,
			     .ts_exit = pl->ts };
	t->depth--;
	trace_end_call(t, tc, &r);
	return true;
}

/* A plain record of r the general way, laid out whole; apart, so the plain way saves no registers. */
static __attribute__((noinline)) void plain_whole(const struct event_rec *r,
						  const struct event_plain *pl)
{
	struct event_rec whole = *r;
	uint64_t u[3 + LTR_ENTER_WORDS];

	event_plain_whole(u, pl);
	whole.ev = (const struct ltr_event *)u;
	whole.take = NULL;
	trace_event(&whole);
}

void trace_plain(const struct event_rec *r, const struct event_plain *pl)
{
	struct thread_trace *t;

	error_hold();
	if (!(r->slot < LTR_MAX_THREADS && (t = trace_threads[r->slot]) &&
	      !t->guest &&
	      (pl->type == LTR_EV_ENTER	  ? plain_starts(t, pl)
	       : pl->type == LTR_EV_EXIT ? plain_ends(t, pl)
					 : false)))
		plain_whole(r, pl);
	error_release();
}

