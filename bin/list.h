/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.h: the functions a selection resolves to for a command (--list). */
#ifndef LTRUSS_LIST_H
#define LTRUSS_LIST_H

#include <stdbool.h>
#include <stdio.h>

#include "selection.h"

/* Is a prototype known for the function called name? */
typedef bool list_has_proto_fn(const char *name, void *ctx);

/*
 * Print to out, without running the command, the functions that sel
 * selects among the libraries command loads at start: aligned columns
 * (LIB SYMBOL VERSION ADDRESS PROTO) and a count, or with json one object
 * a line.  has_proto (may be NULL) fills the PROTO column.  Dies with
 * status 2, as a run would, when command cannot be traced; returns 0.
 */
int list_functions(FILE *out, const char *command, const struct selection *sel,
		   bool json, list_has_proto_fn *has_proto, void *ctx);

#endif
