/* SPDX-License-Identifier: GPL-2.0-or-later */
/* captures.h: compile prototypes into what the interposer copies at a call. */
#ifndef LTRUSS_CAPTURES_H
#define LTRUSS_CAPTURES_H

#include "../lib/session.h"
#include "conf.h"

/*
 * Fill s's captures[] and capture_index[] from cfg's prototypes (the last
 * of a name wins), before the program starts.  Names also get their LFS
 * alias ("open" -> "open64") unless that has a prototype of its own.
 */
void captures_compile(struct ltr_session *s, const struct config *cfg);

/* The prototype capture index capture (funcs[].capture) was compiled from, or NULL. */
const struct proto *captures_proto(int32_t capture);

#endif
