/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap.h: --heap, live bytes by allocation stack, at the peak and at exit. */
#ifndef LTRUSS_HEAP_H
#define LTRUSS_HEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"

/*
 * Track the allocator (on: --heap); folded_file: --folded FILE, or NULL.
 * Where a call was made from: the catalog's objects (catalog.h).
 */
void heap_init(bool on, const char *folded_file);

/* Is it tracked? */
bool heap_enabled(void);

/*
 * Call c of w ended with r; stack[0..depth) are the traced calls it was
 * made in, outermost first.
 */
void heap_call(const struct who *w, const struct call *const *stack,
	       uint32_t depth, const struct call *c, const struct result *r);

/* Process pid exec'd: its image's blocks are gone, its next calls start a new report. */
void heap_exec(int pid);

/* Print each process's report to out, as JSON Lines if json; write --folded. */
void heap_print(FILE *out, bool json);

/* Free everything. */
void heap_done(void);

#endif
