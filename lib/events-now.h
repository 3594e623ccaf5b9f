/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events-now.h: the events written with no call (events.c, and capture.c's
 * short paths for the plain calls of a trace).
 *
 * An ENTER that copies only registers, or an EXIT that prints %rax alone,
 * into a ring with room at once (no wait, no PAD) needs nothing of the
 * general writers of events.c: these inline pieces reserve, fill and
 * publish it in a few stores.  Whoever finds event_now() NULL, or the call
 * not plain (entry_plain, exit_plain), takes the general way, which
 * writes the same record.
 */
#ifndef LTR_EVENTS_NOW_H
#define LTR_EVENTS_NOW_H

#include "frames.h"
#include "interposer.h"
#include "process.h"

#define LTR_RING_AHEAD 512 /* bytes of ring asked for ahead of the head */

/*
 * Ask for the ring's line LTR_RING_AHEAD bytes past event ev, for writing.
 *
 * Every line of the ring the thread writes was read last by ltruss, on
 * another core: a store to it waits for the line to come back, for
 * writing.  So each event of the short paths asks for the line
 * LTR_RING_AHEAD bytes further with prefetchw (exclusive: no second
 * request to write it), a few events before the thread writes there.
 * Without it the program's own CPU time a call on the loop (10M calls)
 * was 41-123 ns under -o and 41-72 ns under -w, runs split into fast and
 * slow; with it 41-50 and 40-48 ns (-c: 32-36), on a loaded 2-core
 * machine.  A line ahead that ltruss has not read yet (a ring about to be
 * full) is taken from it and read again: a few lines a stop.  In the last
 * bytes of a lap the line asked for lies past the ring's end, in whatever
 * is mapped there if anything (a prefetch never faults nor changes
 * memory): once a lap; wrapping the address in the ring cost the short
 * paths 17 instructions a call (callgrind), not 4.
 */
static inline __attribute__((always_inline)) void ring_ahead(const void *ev)
{
	__asm__ volatile("prefetchw %0"
			 :
			 : "m"(*((const unsigned char *)ev + LTR_RING_AHEAD)));
}

/*
 * size bytes at the head of ts's ring if they are free as far as the
 * tail seen last says, and before its end; else NULL (events.c's
 * reserve_slow waits).
 */
static inline __attribute__((always_inline)) struct ltr_rec *
reserve_now(struct ltr_tstate *ts, uint32_t size)
{
	struct ltr_ring *r = &ts->slot->ring;
	uint32_t ring_size = ltr_ring_size;
	uint64_t head = r->head;
	uint32_t off = (uint32_t)(head & (ring_size - 1));

	if (likely(off + size <= ring_size &&
		   head + size - ts->tail_seen <= ring_size))
		return (struct ltr_rec *)&ts->ring[off];
	return NULL;
}

/* Publish the event reserved last. */
static inline void commit(struct ltr_ring *r, const struct ltr_rec *ev)
{
	__atomic_store_n(&r->head, r->head + ev->size, __ATOMIC_RELEASE);
}

/* Fill ev's header: its first 8 bytes in one store (struct ltr_rec). */
static inline __attribute__((always_inline)) void
header(struct ltr_rec *ev, uint32_t size, uint8_t type, uint32_t words,
       uint32_t fn, uint32_t depth, uint8_t flags, uint64_t tsc)
{
	uint64_t head = (uint64_t)size | (uint64_t)(type | words << 4) << 16 |
			(uint64_t)flags << 24 |
			(uint64_t)(uint16_t)depth << 32 |
			(uint64_t)(uint16_t)fn << 48;

	__builtin_memcpy(ev, &head, sizeof(head));
	ev->ts = tsc;
}

/*
 * As event_new without blobs, when the ring has room at once (no wait,
 * no PAD); else NULL, and the caller takes its general path.  A short
 * path that calls nothing keeps no registers to save.
 */
static inline __attribute__((always_inline)) struct ltr_rec *
event_now(struct ltr_tstate *ts, uint8_t type, uint32_t words, uint32_t fn,
	  uint32_t depth, uint8_t flags, uint64_t tsc)
{
	uint32_t size = (uint32_t)(sizeof(struct ltr_rec) + 8 * words);
	struct ltr_rec *ev = reserve_now(ts, size);

	if (likely(ev)) {
		ring_ahead(ev);
		header(ev, size, type, words, fn, depth, flags, tsc);
	}
	return ev;
}
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
		       offsetof(struct ltr_rec, kind) == 2 &&
		       offsetof(struct ltr_rec, flags) == 3 &&
		       offsetof(struct ltr_rec, depth) == 4 &&
		       offsetof(struct ltr_rec, fn) == 6 &&
		       offsetof(struct ltr_rec, ts) == 8 &&
		       LTR_MAX_FUNCS <= 65536 && LTR_ENTER_WORDS < 16,
	       "header's one store");

/*
 * Copy the first n (at most 6) argument registers into w[], no more:
 * straight from regs, not through a copy of all six on the stack.
 */
static inline __attribute__((always_inline)) void
put_args(uint64_t *w, const struct ltr_regs *regs, unsigned n)
{
	switch (n) {
	case 6:
		w[5] = regs->r9;
		/* fall through */
	case 5:
		w[4] = regs->r8;
		/* fall through */
	case 4:
		w[3] = regs->rcx;
		/* fall through */
	case 3:
		w[2] = regs->rdx;
		/* fall through */
	case 2:
		w[1] = regs->rsi;
		/* fall through */
	case 1:
		w[0] = regs->rdi;
		/* fall through */
	default:
		break;
	}
}

/* The argument registers an ENTER of a call with captures cap carries. */
static inline unsigned enter_regs(const struct ltr_capture *cap)
{
	unsigned n = cap ? cap->regs : LTR_RAW_ARGS;

	return n > 6 ? 6 : n;
}

/*
 * A plain ENTER or CALL (entry_plain: registers alone) of fn at depth,
 * its registers and the return address at *ret written, not yet
 * published; NULL if the ring has no room at once.  (*ret is read last:
 * a value carried across the reservation cost capture.c's short path a
 * callee-saved register.)
 */
static inline __attribute__((always_inline)) struct ltr_rec *
enter_now(struct ltr_tstate *ts, uint8_t type, uint32_t fn, uint32_t depth,
	  const struct ltr_capture *cap, const struct ltr_regs *regs,
	  const uint64_t *ret, uint64_t tsc)
{
	unsigned nregs = enter_regs(cap);
	struct ltr_rec *ev = event_now(ts, type, nregs + 1, fn, depth, 0, tsc);

	if (likely(ev)) {
		put_args(ev->w, regs, nregs);
		ev->w[nregs] = *ret;
	}
	return ev;
}

/*
 * A plain EXIT (exit_plain: %rax alone) of fn at depth, written, not yet
 * published; NULL if the ring has no room at once.
 */
static inline __attribute__((always_inline)) struct ltr_rec *
exit_now(struct ltr_tstate *ts, uint32_t fn, uint32_t depth, uint8_t flags,
	 uint64_t rax, uint64_t tsc)
{
	struct ltr_rec *ev = event_now(ts, LTR_EV_EXIT, 1, fn, depth, flags, tsc);

	if (likely(ev))
		ev->w[0] = rax;
	return ev;
}

/*
 * Does an entry with captures cap copy nothing but its registers: no
 * string, buffer, struct, vector register, varargs, stack word or
 * function pointer to look up (nor -k's stack)?
 */
static inline bool entry_plain(const struct ltr_capture *cap)
{
	return likely(!ltr_stack_size) &&
	       (!cap || (!cap->strings && !cap->nstack && !cap->funcptrs &&
			 !(cap->flags & (LTR_CAP_XMM | LTR_CAP_PRINTF |
					 LTR_CAP_IN | LTR_CAP_STRUCT))));
}

/*
 * Does a return of a call with captures cap print %rax alone, with no
 * blob: no output argument, no float, no long double?
 */
static inline bool exit_plain(const struct ltr_capture *cap)
{
	_Static_assert(LTR_MAX_OUT == 2, "exit_plain looks at two outputs");
	return !cap || (!(cap->flags & (LTR_CAP_X87 | LTR_CAP_RET_XMM)) &&
			!cap->out[0].mode && !cap->out[1].mode);
}

#endif
