/* SPDX-License-Identifier: GPL-2.0-or-later */
/* profile.h: call paths with times: --tree, --folded, --chrome. */
#ifndef LTRUSS_PROFILE_H
#define LTRUSS_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"

/* What to collect: the tree view, and the files to write (NULL: not wanted). */
void profile_init(bool tree, const char *folded_file, const char *chrome_file);

/* Is any of them wanted? */
bool profile_enabled(void);

/*
 * A call ended: stack[0..depth) are the calls it was made in (outermost
 * first); self is its time without traced callees, in ticks.
 */
void profile_call(const struct who *w, const struct call *const *stack,
		  uint32_t depth, const struct call *c, const struct result *r,
		  uint64_t self);

/* A call that never ended (a trace file cut while it ran): --chrome begins it only. */
void profile_unfinished(const struct who *w, const struct call *c);

/* Write the files and print the tree to out. */
void profile_finish(FILE *out, double ticks_per_ns);

#endif
