/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selection.h: what to trace, as ordered rules (from -u, --from, filters). */
#ifndef LTRUSS_SELECTION_H
#define LTRUSS_SELECTION_H

#include <stddef.h>

#include "lib/session.h"

struct selection {
	struct ltr_rule rules[LTR_MAX_RULES];
	size_t nrules;
	char from[LTR_MAX_FROM][LTR_GLOB_MAX];
	size_t nfrom;
};

/*
 * Add the rules of one truss-style -u argument, [!]LIB[:[:]][!]FUNC[,FUNC...].
 * Returns NULL on success, or a static message saying what is wrong.
 */
const char *selection_add_u(struct selection *sel, const char *arg);

/* Add one --from glob.  Returns NULL or an error message. */
const char *selection_add_from(struct selection *sel, const char *glob);

/*
 * Add one rule: calls into objects matching lib, to functions matching func
 * (LTR_RULE_* flags, shown at most depth deep, 0 = no limit).  Returns NULL
 * or an error message.
 */
const char *selection_add_rule(struct selection *sel, const char *lib,
			       const char *func, unsigned flags, unsigned depth);

/*
 * Check that a glob of len bytes is usable: not empty, short enough,
 * brackets closed.  Returns NULL or an error message.
 */
const char *selection_glob_check(const char *glob, size_t len);

#endif
