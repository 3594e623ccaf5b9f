/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.h: where the trace and the reports go (-o FILE, stderr, or stdout for --read). */
#ifndef LTRUSS_OUTPUT_H
#define LTRUSS_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Open -o FILE (or std, stderr or stdout, when file is NULL); a file that cannot be made dies. */
FILE *output_open(const char *file, FILE *std);
/* Does the trace (stderr, or stdout that is stderr's file: 2>&1) share ltruss's warnings' stream? */
bool output_shares_stderr(void);

/* Flush and close out; a write that failed at any time is reported once. */
void output_close(FILE *out, const char *file);

/*
 * Trace lines are formatted in place, at the end of the block the output
 * holds (output.c): output_room(n) is where the next n bytes go,
 * output_advance(n) keeps them, output_line_end() ends a line.  Longest
 * room asked for at once: OUTPUT_ROOM_MAX bytes.  The room is valid only
 * until the trace is written to again (output_room, the stdio stream of
 * output_open, output_flush): one of them may hand the block over.
 */
#define OUTPUT_ROOM_MAX (1u << 18)

struct output_block {
	char *buf;
	size_t len, size;
	bool to_stdio; /* stderr or stdout: each line goes to stdio at once */
	bool collect;  /* a worker's lines (trace-rounds.c): grown, never handed over */
};

/*
 * The block this thread formats into: the trace's on the reader's
 * thread; a worker of trace-rounds.c sets its own (collect) while it
 * formats a ring's lines, which the reader's thread then copies in order.
 */
extern __thread struct output_block output_block;

/* Make room for n bytes: hand the block over; where they go. */
char *output_room_slow(size_t n);
/* Hand what the block holds to stdio (stderr or stdout), in order with what it holds. */
void output_pass(void);
/* Let every line written so far out now (a partial line, an idle moment). */
void output_flush(void);

/* Where the next n bytes (at most OUTPUT_ROOM_MAX) of the trace go. */
static inline char *output_room(size_t n)
{
	if (__builtin_expect(output_block.len + n <= output_block.size, 1))
		return output_block.buf + output_block.len;
	return output_room_slow(n);
}

/* Keep n bytes written at output_room(). */
static inline void output_advance(size_t n)
{
	output_block.len += n;
}

/* Append n bytes of s (n at most OUTPUT_ROOM_MAX). */
static inline void output_mem(const void *s, size_t n)
{
	__builtin_memcpy(output_room(n), s, n);
	output_block.len += n;
}

/* A line (or a piece of one a stdio writer continues) is whole. */
static inline void output_line_end(void)
{
	if (__builtin_expect(output_block.to_stdio, 0))
		output_pass();
}

#endif
