/* SPDX-License-Identifier: GPL-2.0-or-later */
/* segments.h: encode -w's EVENTS blocks on worker threads, in file order. */
#ifndef LTRUSS_SEGMENTS_H
#define LTRUSS_SEGMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A run of drained events, copied whole by the reader's thread (in), that
 * a worker encodes into whole blocks (out).  The reader's thread owns it
 * while it fills it and after it is done; a worker while it encodes it
 * (the hand-overs are under the pool's lock: see segments.c).
 */
struct segment {
	unsigned char *in;  /* struct seg_event records, one after the other */
	size_t in_len, in_size;
	size_t need;        /* bytes out may take, at most */
	unsigned char *out; /* the blocks, written by the worker */
	size_t out_len, out_size;
};

/* Workers at most: a 16-core machine's, one core left to the reader. */
#define SEGMENTS_MAX_WORKERS 15

/* Bytes of a segment's events, at most (about 2000 events). */
#define SEGMENT_BYTES (128u << 10)

/*
 * Start the workers (up to the cores there are, less the reader's own;
 * encode() turns a segment's in into its out, on worker number worker; deliver()
 * copies its blocks into the file, on the reader's thread); false if no
 * thread started: the caller encodes events itself.
 */
bool segments_start(void (*encode)(struct segment *seg, unsigned worker),
		    void (*deliver)(struct segment *seg));

/* The segment being filled (delivering older ones to free one, if needed). */
struct segment *segments_filling(void);

/* Queue the segment being filled for a worker, if it holds events. */
void segments_submit(void);

/*
 * Deliver the queued segments that are encoded, oldest first, up to the
 * first that is not; all: queue the one being filled and deliver every
 * one, waiting for them.
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
