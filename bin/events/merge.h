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

#endif
