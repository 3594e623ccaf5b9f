/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format-view.h: what printing a function's values takes from its prototype (format-args.c, format-quick.c). */
#ifndef LTRUSS_FORMAT_VIEW_H
#define LTRUSS_FORMAT_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "abi.h"
#include "call-blobs.h"
#include "format.h"
#include "prototype.h"

#define RAW_ARGS LTR_RAW_ARGS /* registers shown for a call without prototype */

/*
 * What printing a function's values takes from its prototype, worked out
 * once per function: a line asks for it once per value, and a full trace
 * prints millions of lines.
 */
/*
 * How a value prints when its text is a number alone (args_value_quick):
 * integers, pointers and registers of a line are most of a trace's
 * values, and written at once they skip args_value's dispatch, its
 * bounded buffer and its NUL.  Q_NONE: args_value prints it.
 */
enum quick_kind { Q_NONE, Q_RAW, Q_POINTER, Q_SIGNED, Q_UNSIGNED, Q_VOID };

struct quick {
	uint8_t kind; /* enum quick_kind */
	uint8_t size; /* Q_SIGNED, Q_UNSIGNED: bytes of the value */
	uint8_t reg;  /* the integer register a parameter is in */
};

struct fn_view {
	const struct proto *p;             /* NULL: no prototype */
	struct arg_loc locs[PROTO_MAX_ARGS]; /* where each parameter is */
	struct quick quick[PROTO_MAX_ARGS];  /* how each parameter prints, when quick */
	struct quick quick_ret;            /* and the returned value */
	bool all_quick;                    /* every value quick, none hidden, no varargs */
	unsigned at_entry;                 /* parameters before the first output one */
	bool conditions;                   /* some parameter has an [if:] */
	bool known;                        /* filled in (its entry was ready) */
};

/* Each function's view, kept once the interposer has filled its entry in. */
extern struct fn_view args_views[LTR_MAX_FUNCS];

/* The view of function fn, not kept yet: kept now if its entry is there. */
const struct fn_view *args_view_new(uint32_t fn);

/* The view of the function of call c (asked for once per value: inline). */
static inline const struct fn_view *view_of(const struct call *c)
{
	if (__builtin_expect(c->fn < LTR_MAX_FUNCS && args_views[c->fn].known, 1))
		return &args_views[c->fn];
	return args_view_new(c->fn);
}

/* The VARARGS blob of c, whatever its count. */
static inline const struct ltr_blob *varargs_blob(const struct call *c)
{
	return blob_lookup(c->blobs, c->blobs_len, LTR_BLOB_VARARGS, 0, true);
}

#endif
