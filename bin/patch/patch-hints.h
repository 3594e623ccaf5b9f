/* SPDX-License-Identifier: GPL-2.0-or-later */
/* patch-hints.h: after the run, the calls a one-colon rule missed inside an object, and the '::' rule that sees them. */
#ifndef LTRUSS_PATCH_HINTS_H
#define LTRUSS_PATCH_HINTS_H

#include "selection.h"

/*
 * After the run (ltruss.c: with -c, in text): for each function that a one-colon rule naming its
 * library and itself exactly selects, in each object the run loaded (the
 * catalog's records), say on stderr how many direct calls of the object
 * to it were not traced, and the '::' rule that traces them.  Nothing
 * without such a rule.
 */
void patch_hints(const struct selection *sel);

#endif
