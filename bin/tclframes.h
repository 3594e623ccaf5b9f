/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tclframes.h: -k, the Tcl procs of a call, as the interposer sent them. */
#ifndef LTRUSS_BIN_TCLFRAMES_H
#define LTRUSS_BIN_TCLFRAMES_H

#include <stdbool.h>

#include "../lib/session.h"
#include "format.h"

/* One Tcl frame of a call. */
struct tcl_frame {
	char name[LTR_TCL_NAME_MAX * 3 + 8]; /* UTF-8, "..." if cut */
	const char *kind;                    /* "proc", "lambda", "method" */
};

/*
 * The Tcl frames of call c, innermost first, into at most max of out;
 * returns how many.
 */
unsigned tclframes_of(const struct call *c, struct tcl_frame *out,
		      unsigned max);

/* Is path Tcl's library, whose frames the Tcl ones replace? */
bool tclframes_is_libtcl(const char *path);

#endif
