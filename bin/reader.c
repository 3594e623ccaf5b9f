/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.c: drain the per-thread event rings (lib/session.h), in time order.
 *
 * Each round takes every ring's head once, then merges the threads by
 * timestamp: the thread with the oldest next event runs until another
 * thread has an older one.  Within a thread the order is exact; across
 * threads it is by timestamp among the events published so far.  Consumed
 * space is handed back (tail) every BATCH events, so a traced thread
 * waiting for room does not wait for a whole round.
 */
#include "config.h"

#include <stdint.h>

#include "error.h"
#include "reader.h"
#include "trace.h"

#define BATCH 256

struct cursor {
	uint64_t tail; /* next byte to read */
	uint64_t head; /* published end, read once a round */
	uint64_t published_tail;
};

static struct cursor cursors[LTR_MAX_THREADS];
static int corrupt_reported;

/* The next event of thread i, skipping padding; NULL if none. */
static const struct ltr_event *peek(struct ltr_session *s, uint32_t i)
{
	struct cursor *c = &cursors[i];
	const struct ltr_ring *r = &s->threads[i].ring;

	while (c->tail < c->head) {
		uint32_t off = (uint32_t)(c->tail & (LTR_RING_SIZE - 1));
		const struct ltr_event *ev = (const void *)&r->data[off];

		if (ev->type == LTR_EV_PAD) {
			c->tail += LTR_RING_SIZE - off;
			continue;
		}
		if (ev->size < sizeof(*ev) || ev->size % 8 ||
		    off + ev->size > LTR_RING_SIZE ||
		    c->tail + ev->size > c->head) {
			if (!corrupt_reported++)
				warning_msg("a corrupt event in the ring of thread %d; skipping the rest of it",
					    s->threads[i].tid);
			c->tail = c->head;
			return NULL;
		}
		return ev;
	}
	return NULL;
}

/* Hand consumed space of thread i back to its producer. */
static void publish_tail(struct ltr_session *s, uint32_t i)
{
	struct cursor *c = &cursors[i];

	if (c->tail != c->published_tail) {
		__atomic_store_n(&s->threads[i].ring.tail, c->tail,
				 __ATOMIC_RELEASE);
		c->published_tail = c->tail;
	}
}

size_t reader_drain(struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->nthreads, __ATOMIC_ACQUIRE), i;
	size_t count = 0;

	if (n > LTR_MAX_THREADS)
		n = LTR_MAX_THREADS;
	for (i = 0; i < n; i++)
		cursors[i].head = __atomic_load_n(&s->threads[i].ring.head,
						  __ATOMIC_ACQUIRE);
	for (;;) {
		const struct ltr_event *ev, *best = NULL;
		uint64_t next_other = UINT64_MAX;
		uint32_t b = 0;

		/* The oldest next event, and the oldest of the other threads. */
		for (i = 0; i < n; i++) {
			ev = peek(s, i);
			if (!ev)
				continue;
			if (!best || ev->ts < best->ts) {
				if (best)
					next_other = best->ts;
				best = ev;
				b = i;
			} else if (ev->ts < next_other) {
				next_other = ev->ts;
			}
		}
		if (!best)
			break;
		/* Run thread b while it is the oldest. */
		for (ev = best; ev && ev->ts <= next_other; ev = peek(s, b)) {
			trace_event(b, &s->threads[b], ev);
			cursors[b].tail += ev->size;
			if (++count % BATCH == 0)
				publish_tail(s, b);
		}
	}
	for (i = 0; i < n; i++)
		publish_tail(s, i);
	return count;
}

unsigned long long reader_dropped(const struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->nthreads, __ATOMIC_ACQUIRE), i;
	unsigned long long dropped = 0;

	if (n > LTR_MAX_THREADS)
		n = LTR_MAX_THREADS;
	for (i = 0; i < n; i++)
		dropped += __atomic_load_n(&s->threads[i].ring.dropped,
					   __ATOMIC_RELAXED);
	return dropped;
}
