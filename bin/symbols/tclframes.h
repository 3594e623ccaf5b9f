/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tclframes.h: -k, the Tcl procs of a call and their lines, as the interposer sent them. */
#ifndef LTRUSS_BIN_TCLFRAMES_H
#define LTRUSS_BIN_TCLFRAMES_H

#include <stdbool.h>

#include "lib/session.h"
#include "format.h"

/* One Tcl frame of a call: a proc, or a file's code outside procs. */
struct tcl_frame {
	char name[LTR_TCL_NAME_MAX * 3 + 8]; /* UTF-8, "..." if cut */
	const char *kind;                    /* "proc", "lambda", "method", "script" */
	const char *file;                    /* its file, or NULL */
	int line;                            /* its line in file; 0: none */
};

/* Note the ByteCodes event ev of process pid describes (an ENTER or CALL). */
void tclframes_ingest(int pid, const struct ltr_event *ev);

/*
 * The Tcl frames of call c of process pid, innermost first, into at most
 * max of out; returns how many.
 */
unsigned tclframes_of(int pid, const struct call *c, struct tcl_frame *out,
		      unsigned max);

/* Is path Tcl's library, whose frames the Tcl ones replace? */
bool tclframes_is_libtcl(const char *path);

/* Free every ByteCode description kept. */
void tclframes_done(void);

#endif
