/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pyframes.h: -k, the Python frames of a call, named and placed among its native ones. */
#ifndef LTRUSS_BIN_PYFRAMES_H
#define LTRUSS_BIN_PYFRAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session.h"
#include "format.h"

/* A code object as its process described it (lib/pyframes.c). */
struct py_code {
	int pid;
	uint64_t addr;
	int firstlineno;
	char *qualname;  /* UTF-8 */
	char *filename;  /* UTF-8 */
	unsigned char *linetable;
	uint32_t linetable_len;
	struct py_code *next; /* in its hash chain */
};

/* One Python frame of a call. */
struct py_frame {
	const struct py_code *code; /* NULL: a code object never described */
	uint64_t cframe;            /* where its C activation keeps its _PyCFrame */
	int64_t lasti;              /* its instruction's byte offset; < 0: none yet */
};

/* Note the code objects event ev of process pid describes (an ENTER or CALL). */
void pyframes_ingest(int pid, const struct ltr_event *ev);

/*
 * The Python frames of call c of process pid, innermost first, into at
 * most max of out; returns how many.
 */
unsigned pyframes_of(int pid, const struct call *c, struct py_frame *out,
		     unsigned max);

/* The line of code's instruction at byte offset lasti (co_linetable); 0: unknown. */
int pyframes_line(const struct py_code *code, int64_t lasti);

/* Free every code object kept. */
void pyframes_done(void);

#endif
