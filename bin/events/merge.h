/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge.h: the rule that merges threads' events by time, the live
 * reader's over the rings (reader.c) and --read's over a round of a file
 * (tracefile-read.c): one rule, so that a file reads as the live trace
 * printed.  Of each stream's next event the oldest goes first (the
 * stream offered first on a tie), and its stream runs on while its
 * events are no later than the oldest next event of the others.
 */
#ifndef LTRUSS_MERGE_H
#define LTRUSS_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#define MERGE_NONE UINT32_MAX

/* A pick among the streams' next events. */
struct merge {
	uint64_t best_ts;    /* the oldest next event's time */
	uint64_t next_other; /* the oldest of the other streams' */
	uint32_t b;          /* its stream, or MERGE_NONE: no stream has one */
};

/* A pick before any stream is offered. */
static inline struct merge merge_start(void)
{
	return (struct merge){ .best_ts = UINT64_MAX, .next_other = UINT64_MAX,
			       .b = MERGE_NONE };
}

/* Stream i's next event is at ts (streams offered in their order). */
static inline void merge_offer(struct merge *m, uint32_t i, uint64_t ts)
{
	if (ts < m->best_ts) {
		m->next_other = m->best_ts;
		m->best_ts = ts;
		m->b = i;
	} else if (ts < m->next_other) {
		m->next_other = ts;
	}
}

/*
 * The same rule over many streams at once: their next events in a binary
 * heap ordered by time and, on a tie, by the order they are offered in
 * (i), so that a pick costs log n comparisons, not n.  The root is the
 * stream that goes first; the oldest next event of the others is one of
 * its two children.  Merging the lines of 16 rings (trace-rounds.c), the
 * offers were the most of what the reader's thread did an event.
 */
struct merge_head {
	uint64_t ts;
	uint32_t i;
};

/* Does a's event go before b's (older; on a tie, offered first)? */
static inline bool merge_before(struct merge_head a, struct merge_head b)
{
	return a.ts < b.ts || (a.ts == b.ts && a.i < b.i);
}

/* Move h[at] down the heap of n to its place. */
static inline void merge_sift(struct merge_head *h, uint32_t n, uint32_t at)
{
	struct merge_head x = h[at];

	for (;;) {
		uint32_t c = 2 * at + 1;

		if (c >= n)
			break;
		if (c + 1 < n && merge_before(h[c + 1], h[c]))
			c++;
		if (!merge_before(h[c], x))
			break;
		h[at] = h[c];
		at = c;
	}
	h[at] = x;
}

/* Make h[0..n) a heap. */
static inline void merge_heapify(struct merge_head *h, uint32_t n)
{
	uint32_t at;

	for (at = n / 2; at-- > 0;)
		merge_sift(h, n, at);
}

/* The oldest next event of the streams but the root's (UINT64_MAX: none): struct merge's next_other. */
static inline uint64_t merge_next_other(const struct merge_head *h, uint32_t n)
{
	uint64_t ts = n > 1 ? h[1].ts : UINT64_MAX;

	return n > 2 && h[2].ts < ts ? h[2].ts : ts;
}

/* The root's stream ran: on to its next event at ts if more, else out of the heap of *n; the heap in order again. */
static inline void merge_ran(struct merge_head *h, uint32_t *n, bool more, uint64_t ts)
{
	if (more)
		h[0].ts = ts;
	else
		h[0] = h[--*n];
	merge_sift(h, *n, 0);
}

#endif
