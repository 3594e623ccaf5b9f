/* SPDX-License-Identifier: GPL-2.0-or-later */
/* segments.h: drain -w's rings and encode their blocks on worker threads. */
#ifndef LTRUSS_SEGMENTS_H
#define LTRUSS_SEGMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One ring's events of one round: the reader's thread names the ring, a
 * worker (or the reader's thread itself) drains it and encodes its events
 * into whole blocks (out).  The reader's thread owns it while it fills it
 * in and after it is done; a worker while it encodes it (the hand-overs
 * are under the pool's lock: see segments.c).
 */
struct segment {
	uint32_t ring;      /* the thread slot whose ring it drains */
	size_t count;       /* events drained, set by whoever encoded it */
	unsigned char *out; /* the blocks */
	size_t out_len, out_size;
};

/* Workers at most: a 16-core machine's, one core left to the reader. */
#define SEGMENTS_MAX_WORKERS 15
/* The worker number the reader's thread encodes as, when it helps. */
#define SEGMENTS_READER SEGMENTS_MAX_WORKERS

/*
 * Start the workers (up to the cores there are, less the reader's own;
 * encode() drains and encodes a segment on worker number worker (or
 * SEGMENTS_READER); deliver() copies its blocks into the file, on the
 * reader's thread); false if no thread started: the caller encodes the
 * segments itself.
 */
bool segments_start(void (*encode)(struct segment *seg, unsigned worker),
		    void (*deliver)(struct segment *seg));

/* The next segment to fill in (delivering older ones to free one, if needed). */
struct segment *segments_filling(void);

/* Queue the segment filled in for a worker. */
void segments_submit(void);

/*
 * Deliver the queued segments that are encoded, oldest first, up to the
 * first that is not; all: every one, the reader's thread encoding those
 * no worker took yet rather than waiting.
 */
void segments_collect(bool all);

/* Workers running. */
unsigned segments_workers(void);

/*
 * Deliver what is pending, stop the workers and free the segments;
 * returns the CPU time the workers took, in ns (0: there were none).
 */
uint64_t segments_stop(void);

#endif
