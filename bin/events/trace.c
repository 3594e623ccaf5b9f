/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.c: the call state machine between events and lines.
 *
 * Each thread has a stack of calls in progress.  A call is printed whole
 * ("LIB:FUNC(args) = ret") when it returns, unless something has to be
 * printed while it runs:
 *  - a traced call starts inside it: it opens a block ("... {"), closed by
 *    "} LIB:FUNC = ret";
 *  - it has been running (blocking) for BLOCK_NS with nothing else to
 *    print: its entry is shown at once, without a newline, as strace does,
 *    and its return completes the line;
 *  - while such a partial line is open, another line must be printed: the
 *    partial line is ended with "<unfinished ...>" and the return shows up
 *    later as "<... LIB:FUNC resumed> = ret".
 * A call of a function the console disabled is kept on the stack but not
 * printed, nor are its return and the block around its calls: the
 * interposer hides such calls itself, except those it began before the
 * function's flag was set (a function bound later makes its first call
 * before ltruss has applied the console's rules to it; toggles.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "catalog.h"
#include "clock.h"
#include "counts.h"
#include "error.h"
#include "format.h"
#include "heap.h"
#include "output.h"
#include "profile.h"
#include "pyframes.h"
#include "tclframes.h"
#include "session-check.h"
#include "toggles.h"
#include "trace-calls.h"
#include "trace.h"
#include "xmalloc.h"

#define BLOCK_NS 50000000ull /* a call running this long is shown at once */

static const struct format *F;
struct ltr_session *trace_session;
static bool profiled; /* profile_enabled(), asked once */

static void close_partial(void);
static void line_break(void);
static void note_thread(int pid, int tid);
struct thread_trace *trace_threads[LTR_MAX_THREADS];
static struct tcall *partial;          /* the open partial line, if any */
static struct thread_trace *partial_thread;
static int first_tid, first_pid;        /* to notice a second thread, process */
static int bad_slot_reported;

bool trace_counting;
/* Counts are all the events make: counting, no lines, no profile (counted_call()). */
static bool counts_only;

/* The format of -c: no lines (events still feed --tree and the exports). */
static void silent_call(const struct who *w, const struct call *c) { }
static void silent_result(const struct who *w, const struct call *c,
			  const struct result *r) { }
static void silent_process(int pid, uint64_t tsc, int status) { }
static void silent_killed(int pid, uint64_t tsc, int sig, bool core) { }
static void silent_untraced(const struct who *w, uint64_t tsc,
			    const char *func) { }

static const struct format format_silent = {
	.whole = silent_result, .open = silent_call, .close = silent_result,
	.partial = silent_call, .partial_end = silent_result,
	.unfinished = silent_call, .resumed = silent_result,
	.entry_only = silent_call, .exited = silent_process,
	.killed = silent_killed, .untraced = silent_untraced,
};

/* counts_only, from what trace_init() and trace_count_calls() set. */
static void counts_only_set(void)
{
	counts_only = trace_counting && F == &format_silent && !profiled;
}

void trace_init(const struct format *f, struct ltr_session *s,
		bool ends_only)
{
	static struct format ends;

	F = f ? f : &format_silent;
	if (f && ends_only) {
		ends = format_silent;
		ends.exited = f->exited;
		ends.killed = f->killed;
		ends.untraced = f->untraced;
		F = &ends;
	}
	trace_session = s;
	profiled = profile_enabled();
	counts_only_set();
	error_on_line_break(line_break);
}

void trace_count_calls(void)
{
	counts_start();
	trace_counting = true;
	counts_only_set();
}

bool trace_wants_calls(void)
{
	return F != &format_silent || profiled || trace_counting;
}

bool trace_lines_apart(void)
{
	return !partial && !profiled && !trace_counting && F->warm;
}

enum format_warm trace_warm(uint32_t fn)
{
	return F->warm(fn);
}

/*
 * Is fn of the setjmp family?  Traced on entry only (its caller's frame
 * must not change), its first return is known all the same: 0, shown at
 * once as uftrace does.  Its later ones come from longjmp (lib/returns.c).
 */
static bool first_return_zero(uint32_t fn)
{
	return catalog_func_flags(fn) & LTR_FN_SETJMP;
}

size_t trace_counts(struct ltr_retired *rows, size_t max)
{
	return counts_rows(rows, max);
}

/* Give a finished call of t (just popped), self ticks its own, to the profiles. */
static __attribute__((noinline)) void profile_stack(struct thread_trace *t,
						    struct tcall *tc,
						    const struct result *r,
						    uint64_t self)
{
	const struct call *stack[MAX_DEPTH];
	uint32_t i;

	for (i = 0; i < t->depth; i++)
		stack[i] = &t->stack[i].c;
	profile_call(&t->who, stack, t->depth, &tc->c, r, self);
}

/* Give a finished call of t (just popped) to the counts and the profiles (trace_end_call() asks only when there are some). */
static void profile_end(struct thread_trace *t, struct tcall *tc,
			const struct result *r)
{
	uint64_t self = call_time(t, tc, r->ts_exit, r->returned, r->failed);

	if (profiled)
		profile_stack(t, tc, r, self);
}

/* Calls of thread t end with why (a process exec'd, exited or was killed). */
static void end_all_at(struct thread_trace *t, enum ltr_end why,
		       uint64_t tsc)
{
	struct result r = { .returned = false, .why = why, .ts_exit = tsc };

	while (t->depth)
		trace_end_call(t, &t->stack[--t->depth], &r);
}

static void end_all(struct thread_trace *t, enum ltr_end why)
{
	end_all_at(t, why, clock_tsc());
}

/* Free trace state t, and its vfork child's. */
static void trace_free(struct thread_trace *t)
{
	uint32_t d;

	if (!t)
		return;
	trace_free(t->guest);
	if (partial_thread == t)
		close_partial();
	/* Not all MAX_DEPTH: reading them faulted in 130 KiB at every exit. */
	for (d = 0; d < t->deepest; d++)
		free(t->stack[d].blobs);
	free(t);
}

/* Free the trace state of slot index i. */
static void thread_free(uint32_t i)
{
	trace_free(trace_threads[i]);
	trace_threads[i] = NULL;
}

/* The vfork child writing t's ring has left (why, at tsc): its calls end. */
static void guest_gone(struct thread_trace *t, enum ltr_end why, uint64_t tsc)
{
	if (!t->guest)
		return;
	end_all_at(t->guest, why, tsc);
	trace_free(t->guest);
	t->guest = NULL;
}

/*
 * A vfork child writes into its parent's ring, the parent suspended
 * (LTR_EV_GUEST, lib/returns.c): its events get a trace state of their
 * own, which starts with the calls it inherited; when it leaves (w[0] 0),
 * its calls still in progress end the way it left.
 */
static void guest_switch(struct thread_trace *t, const struct ltr_event *ev)
{
	struct thread_trace *g;

	guest_gone(t, ev->w[0] ? LTR_END_EXITED : (enum ltr_end)ev->w[1],
		   ev->ts);
	if (!ev->w[0])
		return;
	g = xcalloc(1, sizeof(*g));
	g->who.pid = g->who.tid = (int)ev->w[0];
	note_thread(t->who.pid, t->who.tid); /* the parent came first */
	note_thread(g->who.pid, g->who.tid);
	t->guest = g;
}

/*
 * The trace state of slot index i, created on its first event; NULL for
 * a slot whose owner is no process of the session (the program wrote it).
 */
static struct thread_trace *thread_of(uint32_t i, int pid, int tid)
{
	struct thread_trace *t = trace_threads[i];
	uint32_t j;

	if (t)
		return t;
	if (!check_pid(pid) || !check_tid(tid)) {
		if (!bad_slot_reported++)
			warning_msg("thread slot %u of the session names no traced process; its events are not shown (did the program write over its trace session?)",
				    i);
		return NULL;
	}
	/* A new slot for a thread we know: its process exec'd. */
	for (j = 0; j < LTR_MAX_THREADS; j++) {
		if (trace_threads[j] && trace_threads[j]->who.tid == tid &&
		    trace_threads[j]->who.pid == pid) {
			end_all(trace_threads[j], LTR_END_EXEC);
			thread_free(j);
			heap_exec(pid);
		}
	}
	t = xcalloc(1, sizeof(*t));
	t->who.pid = pid;
	t->who.tid = tid; /* until the ring says (LTR_EV_THREAD) */
	trace_threads[i] = t;
	return t;
}

/* Lines get "[pid N]" once a second thread or process shows up. */
static void note_thread(int pid, int tid)
{
	if (!first_tid) {
		first_tid = tid;
		first_pid = pid;
	}
	if (tid != first_tid && !fmt_seen.pid_prefix)
		format_seen_thread();
	if (pid != first_pid && !fmt_seen.processes)
		format_seen_process();
}

/* A new line must start: end the open partial line as unfinished. */
static void close_partial(void)
{
	if (!partial)
		return;
	F->unfinished(&partial_thread->who, &partial->c);
	partial->state = UNFINISHED;
	partial = NULL;
	partial_thread = NULL;
}

/*
 * Forget the top call of t, whose end will not come (its events were
 * dropped, or made in a parent process, or forged).  If it is the open
 * partial line, that line ends first: partial must never point at a call
 * no longer on a stack, nor into a freed thread.
 */
static void drop_top(struct thread_trace *t)
{
	if (partial == &t->stack[t->depth - 1])
		close_partial();
	t->depth--;
}

/* A call starts inside the top call of t: that one must be printed. */
void trace_open_parent(struct thread_trace *t)
{
	struct tcall *parent;

	if (!t->depth)
		return;
	parent = &t->stack[t->depth - 1];
	if (parent->state == HIDDEN)
		return;
	if (parent->state == PENDING) {
		close_partial();
		F->open(&t->who, &parent->c);
		parent->state = OPENED;
	} else if (parent->state == PARTIAL) {
		close_partial();
	}
}

/* Print the end of call tc of thread t with result r. */
void trace_end_call(struct thread_trace *t, struct tcall *tc,
		    const struct result *r)
{
	/* Not even a call for a plain trace: a line a call comes through here. */
	if ((trace_counting || profiled) && call_timed(tc, r->ts_exit))
		profile_end(t, tc, r);
	switch (tc->state) {
	case HIDDEN:
		break;
	case PENDING:
		close_partial();
		F->whole(&t->who, &tc->c, r);
		break;
	case PARTIAL:
		if (partial == tc) {
			F->partial_end(&t->who, &tc->c, r);
			partial = NULL;
			partial_thread = NULL;
			break;
		}
		/* fall through */
	case UNFINISHED:
		close_partial();
		F->resumed(&t->who, &tc->c, r);
		break;
	case OPENED:
		close_partial();
		F->close(&t->who, &tc->c, r);
		break;
	}
}

/* End a call whose entry ltruss did not see (made before a fork). */
static void end_unseen(struct thread_trace *t, const struct ltr_event *ev,
		       const struct result *r)
{
	struct tcall none;

	if (toggles_disabled(trace_session, ev->fn))
		return; /* its entry was hidden, or made in the parent */
	memset(&none, 0, sizeof(none));
	none.c.fn = ev->fn;
	none.c.depth = ev->depth;
	none.state = UNFINISHED;
	trace_end_call(t, &none, r);
}

/* Take call i off t's stack; the calls above it move down a level. */
static void call_remove(struct thread_trace *t, uint32_t i)
{
	struct tcall gone = t->stack[i];
	uint32_t k;

	for (k = i; k + 1 < t->depth; k++) {
		t->stack[k] = t->stack[k + 1];
		t->stack[k].c.depth--;
	}
	t->stack[--t->depth] = gone; /* its blobs buffer, for reuse */
}

/* Show call tc of t, if not shown yet, as "<unfinished ...>": its end will not follow it. */
static void show_unfinished(struct thread_trace *t, struct tcall *tc)
{
	if (tc->state != PENDING)
		return;
	F->partial(&t->who, &tc->c);
	F->unfinished(&t->who, &tc->c);
	tc->state = UNFINISHED;
}

/*
 * An EXIT or UNWOUND event of a call that was not the innermost one: the
 * calls entered after it are suspended on other stacks (coroutines) and
 * stay in progress, one level lower, as in the interposer.  Those not
 * shown yet are shown as unfinished first, so that the end of this call
 * does not seem to close them.
 */
static void call_ends_below(struct thread_trace *t, const struct ltr_event *ev,
			    const struct result *r)
{
	uint32_t i = t->depth, k, depth;

	if (partial_thread == t)
		close_partial(); /* calls move: no pointer into the stack stays */
	while (i-- > 0)
		if (t->stack[i].c.depth == ev->depth &&
		    t->stack[i].c.fn == ev->fn)
			break;
	if (i == UINT32_MAX) {
		/* Not shown (hidden), or entered before a fork. */
		if (r->why != LTR_END_HIDDEN)
			end_unseen(t, ev, r);
		for (k = 0; k < t->depth; k++)
			if (t->stack[k].c.depth > ev->depth)
				t->stack[k].c.depth--;
		return;
	}
	for (k = i + 1; k < t->depth; k++)
		show_unfinished(t, &t->stack[k]);
	/* It ends as if it were on top: its callers are below it. */
	depth = t->depth;
	t->depth = i;
	trace_end_call(t, &t->stack[i], r);
	t->depth = depth;
	call_remove(t, i);
}

/* An EXIT or UNWOUND event: the call at the top ends. */
static void call_ends(struct thread_trace *t, const struct ltr_event *ev)
{
	struct result r;

	result_from_event(&r, ev);
	if (ev->flags & LTR_EVF_KEEP_ABOVE) {
		call_ends_below(t, ev, &r);
		return;
	}
	/* Events of calls made before a fork come without their entry. */
	while (t->depth && t->stack[t->depth - 1].c.depth > ev->depth)
		drop_top(t);
	if (t->depth && t->stack[t->depth - 1].c.depth == ev->depth &&
	    t->stack[t->depth - 1].c.fn == ev->fn)
		trace_end_call(t, &t->stack[--t->depth], &r);
	else
		end_unseen(t, ev, &r);
}

/*
 * t's process leaves the session before a credential change (lib/creds.c):
 * its calls still open never end for ltruss.  The name comes from the
 * ring: only a NUL-terminated, printable one is shown.
 */
static void untraced(struct thread_trace *t, const struct ltr_event *ev)
{
	char name[8 * LTR_UNTRACED_WORDS + 1];
	size_t i;

	memcpy(name, ev->w, 8 * LTR_UNTRACED_WORDS);
	name[sizeof(name) - 1] = '\0';
	for (i = 0; name[i]; i++)
		if (name[i] < 'a' || name[i] > 'z')
			break;
	if (name[i] || !i)
		strcpy(name, "?");
	close_partial();
	F->untraced(&t->who, ev->ts, name);
}

/*
 * A warning on the trace's stream (stderr, or --read's stdout when it is
 * stderr's file) is a line of its own: the call line left open ends
 * first, "<unfinished ...>", and what stdout holds goes out before it
 * (error_on_line_break()).  A trace apart from the warnings stays as is.
 */
static void line_break(void)
{
	if (!output_shares_stderr())
		return;
	close_partial();
	output_flush();
}

/* An ENTER event of t: a call starts. */
static void call_starts(struct thread_trace *t, const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;
	struct tcall *tc;

	/*
	 * Dropped events (--drop) may leave the stack deeper than this.
	 * Levels are those of the program, hidden calls included (console
	 * pause, disable): a call's depth may be more than its place in
	 * the stack.
	 */
	while (t->depth && t->stack[t->depth - 1].c.depth >= ev->depth)
		drop_top(t);
	if (t->depth >= MAX_DEPTH)
		return;
	tc = call_push(t, ev);
	if (toggles_disabled(trace_session, ev->fn)) {
		tc->state = HIDDEN;
		t->depth++;
		return;
	}
	if (ev->flags & LTR_EVF_RESUME) {
		/* Its entry was shown (by the parent): only its end is new. */
		t->depth++;
		tc->state = UNFINISHED;
		return;
	}
	call_shown(t, tc, r);
}

/* An entry or an end of t's calls, taken (by tests: a jump table was mispredicted); else false. */
static inline bool call_event(struct thread_trace *t, const struct event_rec *r)
{
	if (r->ev->type == LTR_EV_ENTER) {
		call_starts(t, r);
		return true;
	}
	if (r->ev->type == LTR_EV_EXIT || r->ev->type == LTR_EV_UNWOUND) {
		call_ends(t, r->ev);
		return true;
	}
	return false;
}

/* event_trace() of the other events, apart: so the entries' way saves no registers. */
static __attribute__((noinline)) void event_other(const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;
	struct thread_trace *t;

	if (r->slot >= LTR_MAX_THREADS)
		return;
	t = thread_of(r->slot, r->pid, r->tid);
	if (!t)
		return;
	/* A new owner of the slot: a vfork child of the last one is gone. */
	if (ev->type == LTR_EV_THREAD)
		guest_gone(t, LTR_END_KILLED, ev->ts);
	if (t->guest && ev->type != LTR_EV_GUEST)
		t = t->guest;
	if (call_event(t, r))
		return;
	switch (ev->type) {
	case LTR_EV_CALL: {
		struct call c;

		if (trace_counting)
			counts_entry_only(t->who.pid, ev->fn, &t->row);
		if (toggles_disabled(trace_session, ev->fn))
			break;
		trace_open_parent(t);
		close_partial();
		call_from_event(&c, ev);
		if (first_return_zero(ev->fn)) {
			struct result zero = { .returned = true,
					       .ts_exit = ev->ts };

			F->whole(&t->who, &c, &zero);
			break;
		}
		F->entry_only(&t->who, &c);
		break;
	}
	case LTR_EV_THREAD:
		/* A slot's owner; a previous one has gone, and so have its calls. */
		end_all(t, LTR_END_EXITED);
		t->who.tid = (int)ev->w[0];
		note_thread(t->who.pid, t->who.tid);
		break;
	case LTR_EV_UNTRACED:
		untraced(t, ev);
		break;
	case LTR_EV_GUEST:
		guest_switch(t, ev);
		break;
	}
}

/*
 * One event (trace_event()), its warnings held until its lines are whole;
 * an entry or an end of a known slot's thread (no vfork child) straight.
 */
static void event_trace(const struct event_rec *r)
{
	struct thread_trace *t;

	if (r->slot < LTR_MAX_THREADS && (t = trace_threads[r->slot]) && !t->guest &&
	    call_event(t, r))
		return;
	event_other(r);
}

/*
 * -c of a narrowed trace file (counts_only): the format's callbacks are
 * all silent, so what becomes of a call shows in the counts alone, and
 * the state machine's lines change nothing.  An entry that starts a call
 * on a known thread's stack (no vfork child in its ring, no call to drop
 * under it, not hidden, not resumed, no blobs) and an exit of the call on
 * top go there straight: the entry as call_starts() takes it, the exit
 * to the counts (call_time()) without the result laid out whole nor a
 * line's callback; neither can warn, so no warning is held for them.
 * With a partial line open (trace_idle_at(): the caller asks), or any
 * other event, the general way, which is also a live trace's.  On the
 * loop's recording (callgrind, --read -c -u) the trace's instructions
 * went from 326 a call to 255.  Apart: inline, its registers cost every
 * other event.
 */
static __attribute__((noinline)) bool counted_call(const struct event_rec *r)
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

void trace_event_ingested(const struct event_rec *r)
{
	if (counts_only && !partial && counted_call(r))
		return;
	error_hold();
	event_trace(r);
	error_release();
}

void trace_ingest_blobs(const struct event_rec *r)
{
	/* -k's calls all have blobs, few of them code: looked through once. */
	uint32_t types = r->blob_types & EVENT_BLOB_TYPES_KNOWN
				 ? r->blob_types
				 : event_blob_types(r->ev);

	if (types & 1u << LTR_BLOB_PYCODE)
		pyframes_ingest(r->pid, r->ev);
	if (types & 1u << LTR_BLOB_TCLCODE)
		tclframes_ingest(r->pid, r->ev);
}

void trace_event(const struct event_rec *r)
{
	trace_ingest(r);
	trace_event_ingested(r);
}

void trace_idle(void)
{
	trace_idle_at(clock_tsc());
}

void trace_idle_at(uint64_t now)
{
	struct thread_trace *oldest_t = NULL;
	struct tcall *oldest = NULL;
	uint32_t i;

	if (partial)
		return;
	for (i = 0; i < LTR_MAX_THREADS; i++) {
		struct thread_trace *t = trace_threads[i];
		struct tcall *tc;

		/* A vfork child runs while its parent waits. */
		if (t && t->guest)
			t = t->guest;
		if (!t || !t->depth)
			continue;
		tc = &t->stack[t->depth - 1];
		if (tc->state == PENDING &&
		    (!oldest || tc->c.ts_enter < oldest->c.ts_enter)) {
			oldest = tc;
			oldest_t = t;
		}
	}
	if (!oldest || clock_ticks_to_ns(now - oldest->c.ts_enter) < BLOCK_NS)
		return;
	F->partial(&oldest_t->who, &oldest->c);
	oldest->state = PARTIAL;
	partial = oldest;
	partial_thread = oldest_t;
}

void trace_process_end(int pid, uint64_t tsc, int exit_status, int sig,
		       bool core)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_THREADS; i++) {
		if (!trace_threads[i])
			continue;
		if (trace_threads[i]->guest && (trace_threads[i]->who.pid == pid ||
					  trace_threads[i]->guest->who.pid == pid))
			guest_gone(trace_threads[i], LTR_END_KILLED, tsc);
		if (trace_threads[i]->who.pid == pid)
			end_all_at(trace_threads[i],
				   sig ? LTR_END_KILLED : LTR_END_EXITED, tsc);
	}
	close_partial();
	if (sig)
		F->killed(pid, tsc, sig, core);
	else
		F->exited(pid, tsc, exit_status);
}

/*
 * A trace file cut short ends with calls in progress whose end it does
 * not hold: those not shown yet (only a thread's innermost call can be,
 * the others opened a block) are shown as unfinished, so that no call
 * the file holds is left out of the lines or the JSON; --chrome begins
 * each of them.
 */
void trace_cut(void)
{
	uint32_t i, d;

	close_partial();
	for (i = 0; i < LTR_MAX_THREADS; i++) {
		struct thread_trace *t = trace_threads[i];

		for (; t; t = t->guest) {
			if (t->depth)
				show_unfinished(t, &t->stack[t->depth - 1]);
			for (d = 0; profiled && d < t->depth; d++)
				if (t->stack[d].state != HIDDEN &&
				    !t->stack[d].inherited)
					profile_unfinished(&t->who,
							   &t->stack[d].c);
		}
	}
}

void trace_slot_freed(uint32_t i)
{
	thread_free(i);
}

void trace_done(void)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_THREADS; i++)
		thread_free(i);
	counts_free();
	trace_counting = false;
	counts_only_set();
}
