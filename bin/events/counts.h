/* SPDX-License-Identifier: GPL-2.0-or-later */
/* counts.h: the calls trace.c ends, counted by process and function. */
#ifndef LTRUSS_COUNTS_H
#define LTRUSS_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"

/* Start counting (a narrowed --read -c). */
void counts_start(void);

/*
 * Count a call of fn by process pid: one that returned after dur ticks,
 * self of them its own, failed or not; *last is the caller's last row,
 * asked first, and set to this one.
 */
void counts_call(int pid, uint32_t fn, struct ltr_retired **last,
		 uint64_t dur, uint64_t self, bool failed);

/* Count a call seen on entry only: a call, no time (as the interposer counts it). */
void counts_entry_only(int pid, uint32_t fn, struct ltr_retired **last);

/* Copy at most max rows to rows (NULL: count them); returns how many. */
size_t counts_rows(struct ltr_retired *rows, size_t max);

/* Forget them all (the last rows callers hold go with them). */
void counts_free(void);

#endif
