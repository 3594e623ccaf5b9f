/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.c: what happens on every traced call (the hot path).
 *
 * Entry: push a frame on the thread's shadow stack (where the return address
 * lives, what it was, the entry time), replace the return address with
 * a return trampoline, and jump to the function.  Exit: find the frame whose
 * slot the function returned through, take the time, update the thread's
 * counters, and give back the real return address.  Each hijacked slot holds
 * a trampoline of its own (lib/rets.c), which says where to return to even
 * when the frame is no longer on the shadow stack.
 *
 * The shadow stack must survive control flow that skips returns, and
 * threads that run on more than one stack.  A frame is known by its return
 * slot, never by its place: a return completes whichever frame owns the
 * slot it came through, and only the frames of that same stack that lie
 * below the slot are dead (longjmp, or an exception caught above).
 *  - Which stack a slot is on cannot be told from its address: coroutine
 *    stacks (swapcontext), alternate signal stacks (with SS_AUTODISARM the
 *    kernel does not even say it is on one) and the stacks of threads lie
 *    anywhere, next to each other too.  What can be told is whether the
 *    slot still holds the trampoline: a frame suspended on another stack
 *    keeps it, a dead frame has had it overwritten by the calls made since
 *    (at the latest by the return address or the registers that the call
 *    that finds it saves below it, lib/arch/x86_64/trampoline.S).  The
 *    slot is read through the kernel, since its stack may be gone.  So a
 *    frame below the stack pointer is dropped only once its slot no longer
 *    leads to us, and a frame still hijacked is kept: at worst a dead one
 *    whose slot nothing has written yet is reported a little later.
 *    Dropping a frame whose slot still holds the trampoline would kill the
 *    program at its return; keeping one never does.  Slots further than
 *    LTR_SAME_STACK below are on another stack for sure: kept unread.
 *  - Frames are dropped and completed wherever they are, and the frames
 *    above move down one level; the events say so (LTR_EVF_KEEP_ABOVE) so
 *    that ltruss moves its own copy of the stack alike.
 *  - tail calls: a traced function that ends with "jmp other@plt" enters
 *    the next traced call with the very return slot of its own frame,
 *    already hijacked.  The new frame is pushed above it with the
 *    trampoline as its return address, so the return passes the trampoline
 *    twice and closes both calls with the same value.
 *  - a signal handler that calls traced functions: the per-thread busy mark
 *    lets calls made while the interposer itself runs pass straight through
 *    (busy_here below).
 *  - fork: a child without -f runs untraced but still returns through the
 *    frames it inherited.
 *  - stacks copied away and back (coroutine libraries that share one stack
 *    area): while a coroutine's bytes are away, the others overwrite its
 *    slots, so its frames are dropped; then its bytes come back and its
 *    calls return through their trampolines after all.  A dropped frame's
 *    entry of rets[] stays taken (lib/rets.c says until when), so such a
 *    return goes back where it should, its call having been shown as
 *    <unwound> when it was dropped; the returns are counted in the
 *    session, and ltruss says how many at the end.
 * Nothing here may touch vector registers or call a libc function that
 * does: the program's float arguments are still in %xmm0-7.
 */
#include <signal.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "events-now.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"

/* Count a call in a slot several threads share (past LTR_MAX_THREADS). */
static void count_call_shared(struct ltr_count *c, uint64_t dur, uint64_t self)
{
	uint64_t v;

	__atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->total, dur, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->self, self, __ATOMIC_RELAXED);
	for (v = __atomic_load_n(&c->min, __ATOMIC_RELAXED);
	     (v == 0 || dur < v) &&
	     !__atomic_compare_exchange_n(&c->min, &v, dur, true,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED);)
		;
	for (v = __atomic_load_n(&c->max, __ATOMIC_RELAXED);
	     dur > v &&
	     !__atomic_compare_exchange_n(&c->max, &v, dur, true,
					  __ATOMIC_RELAXED, __ATOMIC_RELAXED);)
		;
}

/*
 * Record one finished call of fn in the thread's counters: dur ticks, of
 * which child in traced callees (err: it failed).
 */
static inline __attribute__((always_inline)) void
count_call(struct ltr_tstate *ts, uint32_t fn,
			      uint64_t child, uint64_t dur, bool err)
{
	struct ltr_count *c = &ts->slot->counts[fn];
	uint64_t self = dur > child ? dur - child : 0;

	if (unlikely(ts->shared_slot)) {
		count_call_shared(c, dur, self);
		if (err)
			__atomic_fetch_add(&c->errors, 1, __ATOMIC_RELAXED);
		return;
	}
	c->errors += err;

	if (c->calls == 0 || dur < c->min)
		c->min = dur;
	if (dur > c->max)
		c->max = dur;
	c->calls++;
	c->total += dur;
	c->self += self;
}

/* Take frame i off ts's shadow stack; the frames above move down a level. */
static void frame_remove(struct ltr_tstate *ts, uint32_t i)
{
	uint64_t *dst = (uint64_t *)&ts->frames[i];
	uint64_t *end = (uint64_t *)&ts->frames[ts->depth - 1];
	uint32_t w;

	/* Word by word: a struct copy could become a call of memcpy. */
	for (; dst < end; dst += sizeof(struct ltr_frame) / 8)
		for (w = 0; w < sizeof(struct ltr_frame) / 8; w++)
			dst[w] = dst[w + sizeof(struct ltr_frame) / 8];
	ts->depth--;
}

/* Flags for the end event of frame i: are frames kept above it? */
static uint8_t keep_above(const struct ltr_tstate *ts, uint32_t i)
{
	return i + 1 < ts->depth ? LTR_EVF_KEEP_ABOVE : 0;
}

/*
 * Report the end of a hidden frame i only when frames are kept above it:
 * ltruss must move them down a level.  True if the frame is shown.
 */
static bool frame_shown(struct ltr_tstate *ts, uint32_t i)
{
	struct ltr_frame *fr = &ts->frames[i];

	if (!(fr->flags & LTR_FR_HIDDEN))
		return true;
	if (keep_above(ts, i))
		ltr_event_unwound(ts, fr, LTR_END_HIDDEN | LTR_EVF_KEEP_ABOVE);
	return false;
}

/* Take frame i off, reporting it as ended without a return (why). */
static void frame_drop(struct ltr_tstate *ts, uint32_t i, enum ltr_end why)
{
	struct ltr_frame *fr = &ts->frames[i];

	/* Its slot may come back holding its trampoline: keep its entry. */
	if (fr->flags & LTR_FR_RESTORED) {
		ltr_ret_give(ts, fr->rec);
	} else {
		struct ltr_ret *r = &ts->rets[fr->rec];

		r->away = 1;
		r->fn = fr->fn;
		r->t0 = fr->t0;
		r->cap = fr->cap;
		ts->dropped++;
	}
	if (!ltr_forked() && (ltr_flags & ts->flag_mask & LTR_F_TRACE) &&
	    frame_shown(ts, i))
		ltr_event_unwound(ts, &ts->frames[i], why | keep_above(ts, i));
	frame_remove(ts, i);
}

/*
 * Can fr still return through the trampoline: does its slot hold it?
 * When the kernel cannot tell (no process_vm_readv), say yes.
 */
static bool frame_hijacked(const struct ltr_tstate *ts,
			   const struct ltr_frame *fr)
{
	uint64_t v;
	long r = ltr_read_word(ts->pid, (uintptr_t)fr->slot, &v);

	if (r == -14 /* EFAULT: its stack is gone */)
		return false;
	return r != 0 || v == ltr_tramp_of(fr->rec);
}

/*
 * Is frame fr, whose slot lies at or below sp, dead?  Restored frames
 * (an exception on its way) hold their real return address: dropping
 * them is safe.  The others only once nothing can return through them.
 */
static bool frame_dead(const struct ltr_tstate *ts, const struct ltr_frame *fr,
		       uintptr_t sp)
{
	if (sp - (uintptr_t)fr->slot >= LTR_SAME_STACK)
		return false;
	return (fr->flags & LTR_FR_RESTORED) || !frame_hijacked(ts, fr);
}

void ltr_frames_drop_dead(struct ltr_tstate *ts, uintptr_t sp, bool at_sp)
{
	uint32_t i = ts->depth;

	/* Down to the first caller: a slot above sp. */
	while (i--) {
		uintptr_t slot = (uintptr_t)ts->frames[i].slot;

		if (slot > sp || (slot == sp && !at_sp))
			break;
		if (frame_dead(ts, &ts->frames[i], sp))
			frame_drop(ts, i, LTR_END_UNWOUND);
	}
}

void ltr_frames_jumped(struct ltr_tstate *ts, uintptr_t sp, uintptr_t target)
{
	uintptr_t slot;

	/* Dropping a frame still hijacked is safe: its rets[] entry stays. */
	while (ts->depth &&
	       (slot = (uintptr_t)ts->frames[ts->depth - 1].slot) >= sp &&
	       slot < target)
		frame_drop(ts, ts->depth - 1, LTR_END_UNWOUND);
}

/*
 * Is the interposer already running on this thread, below sp: must a call
 * made at sp pass straight through?  The busy mark is the top of the
 * running activation's frame (the return slot it handles), not a flag: a signal handler that
 * interrupted it and leaves with siglongjmp never lets it clear the mark,
 * and a flag would then stop the thread's tracing for good.  A handler
 * runs below the frame it interrupted, on the same stack, so a call at or
 * above the mark comes after the activation was jumped over, unless it
 * runs on an alternate signal stack (asked of the kernel only then).  A
 * handler on an SS_AUTODISARM stack lying above the interrupted one, which
 * the kernel does not report, is taken for a jump: the gap we accept.
 */
static bool busy_here(struct ltr_tstate *ts, uintptr_t sp)
{
	stack_t ss;

	if (likely(!ts->busy))
		return false;
	if (sp < ts->busy)
		return true;
	if (ltr_syscall3(SYS_sigaltstack, 0, (long)&ss, 0) == 0 &&
	    (ss.ss_flags & SS_ONSTACK))
		return true;
	ts->busy = 0; /* its activation is gone */
	return false;
}

/*
 * Is a call of fn (limited to depth by its rule; 0 = no limit) at nesting
 * level (0 = outermost) hidden: deeper than -D or its rule shows, paused
 * or disabled from the console?
 */
static inline bool hidden(uint32_t fn, uint32_t depth, uint32_t level)
{
	uint32_t limit = __atomic_load_n(&ltr_session->depth_limit,
					 __ATOMIC_RELAXED);

	return (limit && level >= limit) || (depth && level >= depth) ||
	       (__atomic_load_n(&ltr_session->control, __ATOMIC_RELAXED) &
		LTR_CTL_PAUSED) ||
	       (__atomic_load_n(&ltr_session->funcs[fn].flags,
				__ATOMIC_RELAXED) & LTR_FN_DISABLED);
}

/* A call seen on entry only: its event, and one more call counted. */
static void call_seen(struct ltr_tstate *ts, uint32_t fn,
		      const struct ltr_target *f, const struct ltr_regs *regs,
		      uint32_t flags)
{
	uint64_t *calls = &ts->slot->counts[fn].calls;

	if ((flags & LTR_F_TRACE) && !hidden(fn, f ? f->depth : 0, ts->depth)) {
		ltr_event_call(ts, fn, f ? f->cap : NULL, regs, ltr_now());
		if (f && (f->flags & LTR_FN_SETJMP))
			ltr_setjmp_seen(ts, fn, regs->rdi);
		else if (f && (f->flags & LTR_FN_VFORK) && !ts->vfork_guest)
			ltr_vfork_seen(ts, fn, true);
	} else if (f && (f->flags & LTR_FN_VFORK) && !ts->vfork_guest) {
		/* Not shown, its child still runs in this thread's state. */
		ltr_vfork_seen(ts, fn, false);
	}
	if (!(flags & LTR_F_COUNT))
		return;
	if (unlikely(ts->shared_slot))
		__atomic_fetch_add(calls, 1, __ATOMIC_RELAXED);
	else
		(*calls)++;
}

/* The shadow stack is full: say once that deeper calls are seen on entry only. */
static void shadow_full(void)
{
	static int warned;

	if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		ltr_warn("warning", "more than 1024 traced calls in progress in a thread: the deeper ones are shown on entry only, as <no return ...>");
}

void ltr_note_entry(const struct ltr_target *f, const struct ltr_regs *regs)
{
	struct ltr_target t = *f;
	struct ltr_tstate *ts;
	uintptr_t here = (uintptr_t)&ts;

	/*
	 * A prototype (the user's) with stack arguments: regs has none.  Its
	 * integer arguments still print: the event carries all six.
	 */
	static const struct ltr_capture all_regs = { .regs = 6 };

	if (t.cap && t.cap->nstack)
		t.cap = &all_regs;
	if (ltr_forked() || !(ts = ltr_thread_self()) || busy_here(ts, here))
		return;
	ts->busy = here;
	if (unlikely(ts->again))
		ltr_returns_again(ts);
	call_seen(ts, t.fn, &t, regs, ltr_flags & ts->flag_mask);
	ts->busy = 0;
}

void ltr_frames_end_thread(enum ltr_end why)
{
	struct ltr_tstate *ts = ltr_thread_self();
	uintptr_t busy;

	if (!ts)
		return;
	busy = ts->busy;
	ts->busy = (uintptr_t)&busy;
	while (ts->depth)
		frame_drop(ts, ts->depth - 1, why);
	ts->busy = busy;
}

/*
 * Push the frame of a call of f hijacked through rets[] entry k, its
 * return address at regs->ret, and hijack it; d: ts->depth.  The new frame.
 */
static inline __attribute__((always_inline)) struct ltr_frame *
frame_push(struct ltr_tstate *ts, uint32_t d, const struct ltr_target *f,
	   struct ltr_regs *regs, uint32_t k)
{
	struct ltr_frame *fr = &ts->frames[d];

	ts->depth = d + 1;

	fr->slot = &regs->ret;
	fr->ret = regs->ret;
	fr->fn = f->fn;
	fr->flags = 0;
	fr->child = 0;
	fr->cap = f->cap;
	fr->rec = k;
	regs->ret = ltr_tramp_of(k);
	return fr;
}

static struct ltr_entry_to on_entry_full(struct ltr_regs *regs,
					 const struct ltr_target *f);

/*
 * The plain calls, on entry and on return.  Most calls need nothing of
 * what the general paths look after: no fork, no activation of the
 * interposer to pass through (a signal handler's call), no dead frame
 * below, nothing pending (a second return), no unwinder of the program's
 * own to keep safe, room on the shadow stack and in rets[], the
 * time-stamp counter readable; and, when they are traced, events that
 * copy registers alone (events-now.h: no string, buffer, -k stack, float
 * or errno, the call shown, not hidden) into a ring with room at once.
 * ltr_on_entry and ltr_on_exit check just that, from values loaded once,
 * and do the rest without any call (a traced one in entry_traced and
 * exit_traced, reached by a jump), so that they need no callee-saved
 * register (nothing to save and restore); any other call goes the
 * general way (on_entry_full, exit_full), which checks everything again
 * and does the same for a plain call.  The frame, the counters and the
 * events are the same either way.  An event is reserved (busy set: a
 * signal handler's calls pass through) before anything changes, so that
 * a ring without room leaves the call to the general way untouched.
 */
static __attribute__((noinline)) struct ltr_entry_to
entry_traced(struct ltr_regs *regs, const struct ltr_target *f,
	     struct ltr_tstate *ts, uint32_t d);

struct ltr_entry_to ltr_on_entry(struct ltr_regs *regs, uint32_t stub)
{
	const struct ltr_target *f = &ltr_targets[stub];
	struct ltr_tstate *ts = ltr_tls_self;
	uint64_t *slot = &regs->ret;
	struct ltr_frame *fr;
	uint32_t d, k;

	if (unlikely(!ts || ltr_fork_pending() ||
		     (f->flags & (LTR_FN_PATCHED | LTR_FN_ENTRY_ONLY)) ||
		     __atomic_load_n(&ltr_own_unwinders, __ATOMIC_RELAXED) ||
		     __atomic_load_n(&ltr_no_tsc, __ATOMIC_RELAXED)))
		return on_entry_full(regs, f);
	d = ts->depth;
	if (unlikely(ts->busy || ts->again || !ts->nfree ||
		     d >= ts->max_depth ||
		     __atomic_load_n(&ts->shares_tls, __ATOMIC_ACQUIRE) ||
		     (d && (uintptr_t)ts->frames[d - 1].slot <= (uintptr_t)slot)))
		return on_entry_full(regs, f);
	/* A jump, not a call: this one keeps no register either way. */
	if (ltr_flags & ts->flag_mask & LTR_F_TRACE)
		return entry_traced(regs, f, ts, d);
	ts->busy = (uintptr_t)slot;
	k = ltr_ret_take_free(ts, slot, *slot);
	fr = frame_push(ts, d, f, regs, k);
	fr->t0 = ltr_rdtsc();
	ts->busy = 0;
	return (struct ltr_entry_to){ f->addr, ltr_tramp_call_of(k) };
}

/*
 * ltr_on_entry's plain call (f at depth d of ts) when it is traced: its
 * ENTER written inline if it copies registers alone, is shown, and the
 * ring has room; else the general way.
 */
static __attribute__((noinline)) struct ltr_entry_to
entry_traced(struct ltr_regs *regs, const struct ltr_target *f,
	     struct ltr_tstate *ts, uint32_t d)
{
	const struct ltr_capture *cap = f->cap;
	struct ltr_rec *ev;
	uint64_t t0;
	uint32_t k;

	if (unlikely(!entry_plain(cap) || (cap && cap->out[0].mode) ||
		     hidden(f->fn, f->depth, d)))
		return on_entry_full(regs, f);
	ts->busy = (uintptr_t)&regs->ret;
	t0 = ltr_rdtsc();
	/* The real return address, before the push. */
	ev = enter_now(ts, LTR_EV_ENTER, f->fn, d, cap, regs, &regs->ret, t0);
	if (unlikely(!ev)) {
		ts->busy = 0;
		return on_entry_full(regs, f);
	}
	k = ltr_ret_take_free(ts, &regs->ret, regs->ret);
	frame_push(ts, d, f, regs, k)->t0 = t0;
	commit(&ts->slot->ring, ev);
	ts->busy = 0;
	return (struct ltr_entry_to){ f->addr, ltr_tramp_call_of(k) };
}

/* ltr_on_entry's general case. */
static __attribute__((noinline)) struct ltr_entry_to
on_entry_full(struct ltr_regs *regs, const struct ltr_target *f)
{
	struct ltr_entry_to to = { f->addr, f->addr };
	uint32_t fn = f->fn;
	struct ltr_tstate *ts;
	struct ltr_frame *fr;
	uint32_t flags;
	int32_t k;
	uint64_t t0;

	if (unlikely(ltr_forked()))
		return to;
	/* The loader's own calls (its calloc once libc is in) are not the program's. */
	if (unlikely(f->flags & LTR_FN_PATCHED) && ltr_entry_from_loader(regs->ret))
		return to;
	ts = ltr_thread_self();
	if (unlikely(!ts || busy_here(ts, (uintptr_t)&regs->ret)))
		return to;
	ts->busy = (uintptr_t)&regs->ret;
	/*
	 * A slot holding the trampoline is a tail call, not a dead frame.
	 * Most calls find the innermost frame's slot above theirs: no call.
	 */
	if (unlikely(ts->depth &&
		     (uintptr_t)ts->frames[ts->depth - 1].slot <=
			     (uintptr_t)&regs->ret))
		ltr_frames_drop_dead(ts, (uintptr_t)&regs->ret,
				     !ltr_is_tramp(regs->ret));
	if (unlikely(ts->again))
		ltr_returns_again(ts);
	flags = ltr_flags & ts->flag_mask;
	if (unlikely((f->flags & LTR_FN_ENTRY_ONLY) ||
		     ts->depth >= ts->max_depth ||
		     ltr_unwind_risky(f->addr, regs->ret) ||
		     (k = ltr_ret_take(ts, &regs->ret, regs->ret)) < 0)) {
		if (ts->depth >= LTR_SHADOW_MAX)
			shadow_full();
		call_seen(ts, fn, f, regs, flags);
		ts->busy = 0;
		return to;
	}
	fr = frame_push(ts, ts->depth, f, regs, (uint32_t)k);
	t0 = ltr_now();
	if (flags & LTR_F_TRACE) {
		if (hidden(fn, f->depth, ts->depth - 1)) {
			fr->flags = LTR_FR_HIDDEN;
		} else {
			if (fr->cap && fr->cap->out[0].mode)
				ltr_args_keep(fr, fr->cap, regs);
			t0 = ltr_event_enter(ts, fr, regs, t0);
		}
	}
	fr->t0 = t0;
	ts->busy = 0;
	to.jump = ltr_tramp_call_of((uint32_t)k);
	return to;
}

/* Did a call of a function with error convention err fail, returning rax? */
static bool call_failed(enum ltr_err err, uint64_t rax)
{
	switch (err) {
	case LTR_ERR_MINUS1_32:
		return (int32_t)rax == -1;
	case LTR_ERR_MINUS1_64:
		return (int64_t)rax == -1;
	case LTR_ERR_NULL:
		return rax == 0;
	case LTR_ERR_ERRNUM:
		return (int32_t)rax != 0;
	case LTR_ERR_NEG32:
		return (int32_t)rax < 0;
	default:
		return false;
	}
}

/* The innermost frame of ts returning through entry k, or -1. */
static int32_t frame_find(const struct ltr_tstate *ts, uint32_t k)
{
	int32_t i = (int32_t)ts->depth;

	while (i-- > 0)
		if (ts->frames[i].rec == k)
			return i;
	return -1;
}

/*
 * A return through entry k at slot, at time now, whose frame is no longer
 * on the shadow stack: dropped while its stack was away (its call counted
 * now), or made on another thread.  Its real return address.
 */
static uint64_t ret_dropped(struct ltr_tstate *ts, uint32_t k, uint64_t *slot,
			    uint64_t now, uint64_t rax)
{
	struct ltr_ret *r = &ts->rets[k < LTR_RETS ? k : 0];
	uint64_t ret = r->ret;

	if (k >= LTR_RETS || r->slot != slot || !r->away) {
		ret = k < LTR_RETS ? ltr_ret_elsewhere(ts, k, slot) : 0;
		if (!ret) {
			ltr_warn("fatal", "a traced call returned through a return address ltruss never gave this thread (a stack copied to another address, or returned through twice?): the program cannot go on; trace none of the functions called on such stacks");
			ltr_syscall3(SYS_exit_group, 127, 0, 0);
		}
		return ret;
	}
	ltr_ret_give(ts, k);
	if (ltr_forked())
		return ret;
	if (ltr_flags & LTR_F_COUNT)
		count_call(ts, r->fn, 0, now - r->t0,
			   r->cap && call_failed(r->cap->err, rax));
	__atomic_fetch_add(&ltr_session->lost_returns, 1, __ATOMIC_RELAXED);
	return ret;
}

/*
 * A callee returned through slot, frame i: the frames after it whose
 * slots lie below on the same stack were skipped (longjmp).
 */
static void frames_skipped(struct ltr_tstate *ts, uint32_t i, uintptr_t slot)
{
	uint32_t j = ts->depth;

	while (--j > i)
		if ((uintptr_t)ts->frames[j].slot < slot &&
		    frame_dead(ts, &ts->frames[j], slot))
			frame_drop(ts, j, LTR_END_UNWOUND);
}

/*
 * Frame i of ts returned at time now, with rax: its time goes to its
 * caller's callees, and it is counted if flags say so.  Did it fail?
 */
static inline __attribute__((always_inline)) bool
frame_count(struct ltr_tstate *ts, uint32_t i, uint64_t rax, uint64_t now,
	    uint32_t flags)
{
	struct ltr_frame *fr = &ts->frames[i];
	uint64_t dur = now - fr->t0, child = fr->child;
	bool err = fr->cap && call_failed(fr->cap->err, rax);

	if (i > 0)
		fr[-1].child += dur;
	/* A call both processes return from is one call: the parent's. */
	if ((flags & LTR_F_COUNT) && !(fr->flags & LTR_FR_INHERITED))
		count_call(ts, fr->fn, child, dur, err);
	return err;
}

/*
 * Frame i of ts, returned through entry k at time now with regs (the
 * frames a longjmp skipped above it gone): count it, report it, take it
 * off.  Its real return address.
 */
static inline __attribute__((always_inline)) uint64_t
frame_returned(struct ltr_tstate *ts, uint32_t i, uint32_t k,
	       const struct ltr_retregs *regs, uint64_t now)
{
	struct ltr_frame *fr = &ts->frames[i];
	uint64_t ret = fr->ret;
	uint32_t flags;
	bool err;

	/* Before the frame goes: a followed child reports every call it inherited. */
	if (unlikely(ltr_forked())) {
		ltr_ret_give(ts, k);
		frame_remove(ts, i);
		return ret;
	}
	flags = ltr_flags & ts->flag_mask;
	err = frame_count(ts, i, regs->rax, now, flags);
	if ((flags & LTR_F_TRACE) && frame_shown(ts, i))
		ltr_event_exit(ts, fr, regs, now, err,
			       !err ? 0
			       : fr->cap->err == LTR_ERR_ERRNUM ? (int)regs->rax
								: ltr_program_errno(),
			       keep_above(ts, i));
	ltr_ret_give(ts, k);
	frame_remove(ts, i);
	return ret;
}

/*
 * A return through entry k at slot that is not the innermost frame's, or
 * with a second return pending: the general case of ltr_on_exit.
 */
static __attribute__((noinline)) uint64_t
exit_slow(struct ltr_tstate *ts, const struct ltr_retregs *regs,
	  uint64_t *slot, uint32_t k, uint64_t now)
{
	int32_t i = frame_find(ts, k);

	if (i < 0 || ts->frames[i].slot != slot)
		return ret_dropped(ts, k, slot, now, regs->rax);
	if ((uint32_t)i + 1 < ts->depth)
		frames_skipped(ts, (uint32_t)i, (uintptr_t)slot);
	if (ts->again)
		ltr_returns_again(ts);
	return frame_returned(ts, (uint32_t)i, k, regs, now);
}

static uint64_t exit_full(struct ltr_retregs *regs, uint64_t *slot,
			  uint64_t now);

/* ltr_on_exit where the time-stamp counter faults. */
static __attribute__((noinline)) uint64_t
exit_no_tsc(struct ltr_retregs *regs, uint64_t *slot)
{
	return exit_full(regs, slot, ltr_now());
}

/*
 * The plain return (see ltr_on_entry) of frame fr, the innermost (d) of
 * ts, through entry k at time now with rax: counted and taken off.  Its
 * real return address.
 */
static inline __attribute__((always_inline)) uint64_t
exit_pop(struct ltr_tstate *ts, struct ltr_frame *fr, uint32_t d, uint32_t k,
	 uint64_t rax, uint64_t now, uint32_t flags)
{
	uint64_t ret = fr->ret;

	frame_count(ts, d - 1, rax, now, flags);
	ltr_ret_give(ts, k);
	ts->depth = d - 1;
	return ret;
}

static __attribute__((noinline)) uint64_t
exit_traced(struct ltr_retregs *regs, uint64_t *slot, struct ltr_tstate *ts,
	    uint32_t d, uint64_t now);

/* The return of a traced call; the plain ones (see ltr_on_entry). */
uint64_t ltr_on_exit(struct ltr_retregs *regs, uint64_t *slot)
{
	uint64_t now, ret;
	/* The thread that hijacked the return: never one sharing its TLS. */
	struct ltr_tstate *ts = ltr_tls_self;
	/* Trampoline k pushed k into the slot. */
	uint32_t k = (uint32_t)*slot, d, flags;
	struct ltr_frame *fr;
	uintptr_t busy;

	if (unlikely(__atomic_load_n(&ltr_no_tsc, __ATOMIC_RELAXED)))
		return exit_no_tsc(regs, slot);
	now = ltr_rdtsc();
	d = ts->depth;
	flags = ltr_flags & ts->flag_mask;
	if (unlikely(!d || ltr_fork_pending() || ts->again || ts->shared_slot))
		return exit_full(regs, slot, now);
	fr = &ts->frames[d - 1];
	if (unlikely(fr->rec != k || fr->slot != slot))
		return exit_full(regs, slot, now);
	/* A jump, not a call: this one keeps no register either way. */
	if ((flags & LTR_F_TRACE) && !(fr->flags & LTR_FR_HIDDEN))
		return exit_traced(regs, slot, ts, d, now);
	busy = ts->busy;
	ts->busy = (uintptr_t)slot;
	ret = exit_pop(ts, fr, d, k, regs->rax, now, flags);
	ts->busy = busy;
	return ret;
}

/*
 * ltr_on_exit's plain return (the innermost frame, d, of ts, at time now)
 * of a call shown: its EXIT written inline if it prints %rax alone, with
 * no error (whose errno would print), and the ring has room; else the
 * general way.
 */
static __attribute__((noinline)) uint64_t
exit_traced(struct ltr_retregs *regs, uint64_t *slot, struct ltr_tstate *ts,
	    uint32_t d, uint64_t now)
{
	struct ltr_frame *fr = &ts->frames[d - 1];
	const struct ltr_capture *cap = fr->cap;
	uintptr_t busy = ts->busy;
	struct ltr_rec *ev;
	uint64_t ret;

	if (unlikely(!exit_plain(cap) ||
		     (cap && call_failed(cap->err, regs->rax))))
		return exit_full(regs, slot, now);
	ts->busy = (uintptr_t)slot;
	ev = exit_now(ts, fr->fn, d - 1, 0, regs->rax, now);
	if (unlikely(!ev)) {
		ts->busy = busy;
		return exit_full(regs, slot, now);
	}
	ret = exit_pop(ts, fr, d, (uint32_t)*slot, regs->rax, now,
		       ltr_flags & ts->flag_mask);
	commit(&ts->slot->ring, ev);
	ts->busy = busy;
	return ret;
}

/* ltr_on_exit's general case, the return come at time now. */
static __attribute__((noinline)) uint64_t
exit_full(struct ltr_retregs *regs, uint64_t *slot, uint64_t now)
{
	/* The thread that hijacked the return: never one sharing its TLS. */
	struct ltr_tstate *ts = ltr_tls_self;
	/* Trampoline k pushed k into the slot. */
	uint32_t k = (uint32_t)*slot;
	uint32_t d = ts->depth;
	uintptr_t busy = ts->busy;
	uint64_t ret;

	ts->busy = (uintptr_t)slot;
	/* Most returns are the innermost frame's, with nothing pending. */
	if (likely(d && ts->frames[d - 1].rec == k &&
		   ts->frames[d - 1].slot == slot && !ts->again))
		ret = frame_returned(ts, d - 1, k, regs, now);
	else
		ret = exit_slow(ts, regs, slot, k, now);
	ts->busy = busy;
	return ret;
}
