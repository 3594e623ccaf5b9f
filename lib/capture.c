/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.c: what happens on every traced call (the hot path).
 *
 * Entry: push a frame on the thread's shadow stack (where the return address
 * lives, what it was, the entry time), replace the return address with
 * ltr_return_tramp, and jump to the function.  Exit: find the frame whose
 * slot the function returned through, take the time, update the thread's
 * counters, and give back the real return address.
 *
 * The shadow stack must survive control flow that skips returns:
 *  - longjmp, or an exception caught above: frames whose return slot is at
 *    or below the current stack pointer can never return; they are dropped
 *    on the next entry and on exit ("dead" frames).  Only slots on the same
 *    stack count: a signal handler running on an alternate stack (asked of
 *    the kernel, only when a frame looks dead) never drops the frames of
 *    the stack it interrupted, wherever that stack lies; slots further than
 *    LTR_SAME_STACK bytes away belong to another stack too.
 *  - tail calls: a traced function that ends with "jmp other@plt" enters
 *    the next traced call with the very return slot of its own frame,
 *    already hijacked.  The new frame is pushed above it with the
 *    trampoline as its return address, so the return passes the trampoline
 *    twice and closes both calls with the same value.
 *  - a signal handler that calls traced functions: the per-thread busy flag
 *    lets calls made while the interposer itself runs pass straight through.
 *  - fork: a child without -f runs untraced but still returns through the
 *    frames it inherited.
 * Nothing here may touch vector registers or call a libc function that
 * does: the program's float arguments are still in %xmm0-7.
 */
#include <signal.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

#define LTR_SAME_STACK (64u << 20)

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

/* Record one finished call in the thread's counters (err: it failed). */
static inline void count_call(struct ltr_tstate *ts, struct ltr_frame *fr,
			      uint64_t dur, bool err)
{
	struct ltr_count *c = &ts->slot->counts[fr->fn];
	uint64_t self = dur > fr->child ? dur - fr->child : 0;

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

/* Pop the top frame, reporting it as ended without a return (why). */
static void frame_drop(struct ltr_tstate *ts, enum ltr_end why)
{
	struct ltr_frame *fr = &ts->frames[--ts->depth];

	if (!ltr_forked() && (ltr_flags & ts->flag_mask & LTR_F_TRACE) &&
	    !(fr->flags & LTR_FR_HIDDEN))
		ltr_event_unwound(ts, fr, why);
}

/* Are sp and slot on different stacks (a handler on its alternate stack)? */
static bool other_stack(uintptr_t sp, uintptr_t slot)
{
	stack_t ss;

	if (ltr_syscall3(SYS_sigaltstack, 0, (long)&ss, 0) != 0 ||
	    !(ss.ss_flags & SS_ONSTACK))
		return false;
	return (sp - (uintptr_t)ss.ss_sp < ss.ss_size) !=
	       (slot - (uintptr_t)ss.ss_sp < ss.ss_size);
}

void ltr_frames_drop_dead(struct ltr_tstate *ts, uintptr_t sp, bool at_sp)
{
	bool checked = false;

	while (ts->depth) {
		uintptr_t slot = (uintptr_t)ts->frames[ts->depth - 1].slot;

		if (slot > sp || sp - slot >= LTR_SAME_STACK ||
		    (slot == sp && !at_sp))
			break;
		if (!checked) {
			if (other_stack(sp, slot))
				break;
			checked = true;
		}
		frame_drop(ts, LTR_END_UNWOUND);
	}
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
		ltr_event_call(ts, fn, f ? f->cap : NULL, regs, ltr_rdtsc());
		if (f && (f->flags & LTR_FN_SETJMP))
			ltr_setjmp_seen(ts, fn, regs->rdi);
		else if (f && (f->flags & LTR_FN_VFORK))
			ltr_vfork_seen(ts, fn);
	}
	if (!(flags & LTR_F_COUNT))
		return;
	if (unlikely(ts->shared_slot))
		__atomic_fetch_add(calls, 1, __ATOMIC_RELAXED);
	else
		(*calls)++;
}

void ltr_note_entry(uint32_t fn, uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct ltr_tstate *ts;
	struct ltr_regs regs = { .rdi = a0, .rsi = a1, .rdx = a2 };

	if (ltr_forked() || !(ts = ltr_thread_self()) || ts->busy)
		return;
	ts->busy = 1;
	call_seen(ts, fn, NULL, &regs, ltr_flags & ts->flag_mask);
	ts->busy = 0;
}

void ltr_frames_end_thread(enum ltr_end why)
{
	struct ltr_tstate *ts = ltr_thread_self();

	if (!ts)
		return;
	ts->busy++;
	while (ts->depth)
		frame_drop(ts, why);
	ts->busy--;
}

uint64_t ltr_on_entry(struct ltr_regs *regs, uint32_t stub)
{
	const struct ltr_target *f = &ltr_targets[stub];
	uint32_t fn = f->fn;
	struct ltr_tstate *ts;
	struct ltr_frame *fr;
	uint32_t flags;
	uint64_t t0;

	if (unlikely(ltr_forked()))
		return f->addr;
	ts = ltr_thread_self();
	if (unlikely(!ts || ts->busy))
		return f->addr;
	ts->busy = 1;
	flags = ltr_flags & ts->flag_mask;
	/* A slot holding the trampoline is a tail call, not a dead frame. */
	ltr_frames_drop_dead(ts, (uintptr_t)&regs->ret,
			     regs->ret != (uint64_t)ltr_return_tramp);
	if (unlikely(ts->again))
		ltr_returns_again(ts);
	if (unlikely((f->flags & LTR_FN_ENTRY_ONLY) ||
		     ts->depth >= LTR_SHADOW_MAX)) {
		call_seen(ts, fn, f, regs, flags);
		ts->busy = 0;
		return f->addr;
	}
	fr = &ts->frames[ts->depth++];
	fr->slot = &regs->ret;
	fr->ret = regs->ret;
	fr->fn = fn;
	fr->flags = 0;
	fr->child = 0;
	fr->cap = f->cap;
	regs->ret = (uint64_t)ltr_return_tramp;
	t0 = ltr_rdtsc();
	if (flags & LTR_F_TRACE) {
		if (hidden(fn, f->depth, ts->depth - 1)) {
			fr->flags = LTR_FR_HIDDEN;
		} else {
			if (fr->cap && fr->cap->out[0].mode)
				ltr_args_keep(fr, fr->cap, regs);
			ltr_event_enter(ts, fr, regs, t0);
		}
	}
	fr->t0 = t0;
	ts->busy = 0;
	return f->addr;
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

uint64_t ltr_on_exit(struct ltr_retregs *regs, uint64_t *slot)
{
	uint64_t now = ltr_rdtsc();
	struct ltr_tstate *ts = ltr_thread_self();
	struct ltr_frame *fr;
	uint64_t dur;
	uint32_t busy;
	bool err, forked;

	/* Frames above this one were skipped by longjmp or unwinding. */
	busy = ts->busy;
	ts->busy = 1;
	while (ts->depth && ts->frames[ts->depth - 1].slot != slot)
		frame_drop(ts, LTR_END_UNWOUND);
	if (unlikely(ts->again))
		ltr_returns_again(ts);
	if (unlikely(!ts->depth)) {
		ltr_warn("fatal", "a traced call returned through a frame ltruss does not know");
		ltr_syscall3(SYS_exit_group, 127, 0, 0);
	}
	/* Before the pop: a followed child reports every call it inherited. */
	forked = ltr_forked();
	fr = &ts->frames[--ts->depth];
	if (unlikely(forked)) {
		ts->busy = busy;
		return fr->ret;
	}
	dur = now - fr->t0;
	if (ts->depth)
		ts->frames[ts->depth - 1].child += dur;
	err = fr->cap && call_failed(fr->cap->err, regs->rax);
	if (ltr_flags & LTR_F_COUNT)
		count_call(ts, fr, dur, err);
	if ((ltr_flags & ts->flag_mask & LTR_F_TRACE) &&
	    !(fr->flags & LTR_FR_HIDDEN))
		ltr_event_exit(ts, fr, regs, now, err,
			       !err ? 0
			       : fr->cap->err == LTR_ERR_ERRNUM ? (int)regs->rax
								: ltr_program_errno());
	ts->busy = busy;
	return fr->ret;
}
