/* SPDX-License-Identifier: GPL-2.0-or-later */
/* captures.h: compile prototypes into what the interposer copies at a call. */
#ifndef LTRUSS_CAPTURES_H
#define LTRUSS_CAPTURES_H

#include <string.h>

#include "lib/session.h"
#include "conf.h"

/*
 * The capture named name in index (LTR_CAPTURE_HASH slots of capture + 1,
 * open addressing) over captures and the names in strings, or -1: the
 * session's, or the compiled table's (bin/config/shipped.c).
 */
static inline long captures_find(const uint32_t *index,
				 const struct ltr_capture *captures,
				 const char *strings, const char *name)
{
	uint32_t h, idx;

	for (h = ltr_name_hash(name) & (LTR_CAPTURE_HASH - 1);
	     (idx = index[h]) != 0; h = (h + 1) & (LTR_CAPTURE_HASH - 1))
		if (strcmp(strings + captures[idx - 1].name, name) == 0)
			return (long)idx - 1;
	return -1;
}

/* Put name in the session's string area; returns its offset. */
uint32_t session_intern(struct ltr_session *s, const char *name);

/*
 * Fill s's captures[] and capture_index[] from cfg's prototypes (the last
 * of a name wins), before the program starts.  Names also get their LFS
 * alias ("open" -> "open64") unless that has a prototype of its own.
 */
void captures_compile(struct ltr_session *s, const struct config *cfg);

/* The prototype capture index capture (funcs[].capture) was compiled from, or NULL. */
const struct proto *captures_proto(int32_t capture);

/* The C declaration capture was compiled from (a trace file carries it), or NULL. */
const char *captures_decl(int32_t capture);

/* Make p the prototype of capture (the reader of a trace file, which owns p). */
void captures_set_proto(int32_t capture, const struct proto *p);

#endif
