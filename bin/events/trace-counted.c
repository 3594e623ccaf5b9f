/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-counted.c: -c of a narrowed trace file (trace.c's counts_only):
 * the format's callbacks are all silent, so what becomes of a call shows
 * in the counts alone, and the state machine's lines change nothing.  An
 * entry that starts a call on a known thread's stack (no vfork child in
 * its ring, no call to drop under it, not hidden, not resumed, no blobs)
 * and an exit of the call on top go there straight: the entry as
 * trace.c's call_starts() takes it, the exit to the counts (call_time())
 * without the result laid out whole nor a line's callback; neither can
 * warn, so no warning is held for them.  With a partial line open
 * (trace_idle_at(); trace.c asks), or any other event, the general way,
 * which is also a live trace's.  On the loop's recording (callgrind,
 * --read -c -u) the trace's instructions went from 326 a call to 255.
 * Apart from trace.c: inline, its registers cost every other event.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "toggles.h"
#include "trace-calls.h"

bool trace_counted_call(const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;
	struct thread_trace *t;
	struct tcall *top;

	if (r->slot >= LTR_MAX_THREADS || !(t = trace_threads[r->slot]) || t->guest)
		return false;
	top = t->depth ? &t->stack[t->depth - 1] : NULL;
	if (ev->type == LTR_EV_ENTER) {
		if (ev->size != sizeof(*ev) + 8 * LTR_ENTER_WORDS ||
		    (ev->flags & LTR_EVF_RESUME) || t->depth >= MAX_DEPTH ||
		    (top && top->c.depth >= ev->depth) ||
		    toggles_disabled(trace_session, ev->fn))
			return false;
		call_shown(t, call_push(t, ev), r);
		return true;
	}
	if (ev->type == LTR_EV_EXIT && !(ev->flags & LTR_EVF_KEEP_ABOVE) &&
	    top && top->c.depth == ev->depth && top->c.fn == ev->fn) {
		t->depth--;
		if (call_timed(top, ev->ts))
			call_time(t, top, ev->ts, true, ev->flags & LTR_EVF_ERROR);
		return true;
	}
	return false;
}
