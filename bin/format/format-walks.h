/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format-walks.h: the names and text lines of the walks stack-cache.c keeps. */
#ifndef LTRUSS_FORMAT_WALKS_H
#define LTRUSS_FORMAT_WALKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stack.h"

struct named; /* a frame's name and line (format-stack.c) */

/* The names of a kept walk's frames, made once. */
struct named_walk {
	uint64_t walk;              /* its serial (stack_unwind); 0: empty */
	enum stack_end end;
	unsigned n, out_size;
	const struct named **out;   /* as format-stack.c names them (out_size) */
	bool joined;                /* text holds its lines */
	char *text;                 /* (text_size bytes: reused by the next walk) */
	size_t text_len, text_size;
};

/* Each line of names out[0..n), which end for end, to put(arg, line, len). */
typedef void named_lines_fn(const struct named **out, unsigned n,
			    enum stack_end end,
			    void (*put)(void *arg, const char *text, size_t len),
			    void *arg);

/* The names kept of walk, or NULL. */
struct named_walk *named_walk_find(uint64_t walk);

/*
 * Keep the names out[0..n) of walk, whose frames[0..nf) end for end
 * (not if one is in code of no object); what it kept, or NULL.
 */
struct named_walk *named_walk_keep(uint64_t walk,
				   const struct stack_frame *frames, unsigned nf,
				   const struct named **out, unsigned n,
				   enum stack_end end);

/* Join the lines of kept walk nw, as lines gives them, into its text. */
void named_walk_join(struct named_walk *nw, named_lines_fn *lines);

/* Forget the names of every walk. */
void named_walks_done(void);

#endif
