/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.h: the counts-and-times table printed on exit (-c, -C). */
#ifndef LTRUSS_SUMMARY_H
#define LTRUSS_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/session.h"
#include "sort-keys.h"

/* Summary formats (--summary-format). */
enum summary_format { SUMMARY_TEXT, SUMMARY_JSON, SUMMARY_CSV };

/*
 * Sum every thread's counters in s (NULL: a trace file's, none) and the
 * catalog's and print them to out, sorted by key.
 */
void summary_print(FILE *out, const struct ltr_session *s, enum sort_key key,
		   enum summary_format format, double ticks_per_ns);

/* Every function's counters summed at one moment (the console's "reset"). */
struct summary_snapshot;

/* Sum the counters of s as they are now. */
struct summary_snapshot *summary_snapshot(const struct ltr_session *s);

void summary_snapshot_free(struct summary_snapshot *snap);

/* Calls of lib:func (func as in the symbol table) in snap; 0 if none. */
uint64_t summary_snapshot_calls(const struct summary_snapshot *snap,
				const char *lib, const char *func);

/*
 * Print the text table of -c for the calls counted in s since base (NULL:
 * since the start), of the functions keep() wants (NULL: all), its first
 * limit rows (0: all) sorted by key; min and max show "-" where they are
 * not known since base.  Returns the number of functions in the table.
 */
size_t summary_print_since(FILE *out, const struct ltr_session *s,
			   const struct summary_snapshot *base,
			   bool (*keep)(const char *lib, const char *func),
			   enum sort_key key, size_t limit, double ticks_per_ns);

#endif
