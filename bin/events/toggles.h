/* SPDX-License-Identifier: GPL-2.0-or-later */
/* toggles.h: a console's enable/disable rules, kept in the session. */
#ifndef LTRUSS_TOGGLES_H
#define LTRUSS_TOGGLES_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog.h"
#include "lib/session.h"

/*
 * A console: add the rule "disable GLOB" (or enable) after the others; the
 * same glob again replaces its rule, and "*" starts the list afresh.  On
 * success *gen is the generation to wait for; otherwise *why says why.
 */
bool toggles_add(struct ltr_session *s, const char *glob, bool disable,
		 uint32_t *gen, const char **why);

/* A console: wait (a few seconds at most) until generation gen is applied. */
bool toggles_wait(const struct ltr_session *s, uint32_t gen);

/*
 * Apply the rules to the functions registered since the last call, and to
 * every function when they changed.  ltruss calls it as it drains the
 * rings; a console calls it for a session that sends no events (-c).
 */
void toggles_apply(struct ltr_session *s);

/*
 * Is function fn of s disabled?  A function not seen before is decided
 * first.  s NULL: a trace file's function, as it was recorded.
 */
bool toggles_disabled_live(struct ltr_session *s, uint32_t fn);

/* The functions decided so far (fn below it: its flag is ltruss's answer). */
extern uint32_t toggles_decided;

/*
 * toggles_disabled_live(), asked inline for every entry: a trace file's
 * function (--read), and a function decided already.
 */
static inline bool toggles_disabled(struct ltr_session *s, uint32_t fn)
{
	if (!s)
		return fn < LTR_MAX_FUNCS &&
		       (catalog_func_flags(fn) & LTR_FN_DISABLED);
	if (fn < toggles_decided && fn < LTR_MAX_FUNCS)
		return __atomic_load_n(&s->funcs[fn].flags, __ATOMIC_RELAXED) &
		       LTR_FN_DISABLED;
	return toggles_disabled_live(s, fn);
}

/* Does glob match function raw of lib (as lib:func or func, raw or shown)? */
bool toggles_match(const char *glob, const char *lib, const char *raw);

#endif
