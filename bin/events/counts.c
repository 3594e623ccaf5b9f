/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * counts.c: counts of the calls trace.c ended, by process and function:
 * the summary of a narrowed --read (the recorded counters cannot be
 * narrowed).  An open-addressing table; once it is full, further rows are
 * not counted.  A thread calls the same function again and again: the
 * caller keeps the last row it counted in, asked before the table (rows
 * never move).
 */
#include "config.h"

#include <stdlib.h>

#include "counts.h"
#include "xmalloc.h"

#define COUNTED_MAX 65536u

static struct ltr_retired *counted;
static size_t ncounted;

void counts_start(void)
{
	if (!counted)
		counted = xcalloc(COUNTED_MAX, sizeof(*counted));
}

/* row_of() when the thread's last row is not pid's row of fn: the table. */
static __attribute__((noinline)) struct ltr_retired *
row_lookup(int pid, uint32_t fn, struct ltr_retired **last)
{
	uint32_t h = (uint32_t)(fn * 2654435761u ^ (uint32_t)pid);
	struct ltr_retired *row;

	for (h %= COUNTED_MAX; counted[h].c.calls; h = (h + 1) % COUNTED_MAX)
		if (counted[h].fn == fn && counted[h].pid == pid)
			return *last = &counted[h];
	row = &counted[h];
	if (ncounted + 1 >= COUNTED_MAX)
		return NULL;
	ncounted++;
	row->pid = pid;
	row->fn = fn;
	return *last = row;
}

/* The row counting pid's calls of fn (created empty), or NULL when the table is full. */
static inline struct ltr_retired *row_of(int pid, uint32_t fn,
					 struct ltr_retired **last)
{
	struct ltr_retired *row = *last;

	if (row && row->fn == fn && row->pid == pid)
		return row;
	return row_lookup(pid, fn, last);
}

void counts_call(int pid, uint32_t fn, struct ltr_retired **last,
		 uint64_t dur, uint64_t self, bool failed)
{
	struct ltr_retired *row;

	if (!counted || !(row = row_of(pid, fn, last)))
		return;
	if (!row->c.calls || dur < row->c.min)
		row->c.min = dur;
	row->c.calls++;
	row->c.errors += failed;
	row->c.total += dur;
	row->c.self += self;
	if (dur > row->c.max)
		row->c.max = dur;
}

void counts_entry_only(int pid, uint32_t fn, struct ltr_retired **last)
{
	struct ltr_retired *row;

	if (counted && (row = row_of(pid, fn, last)))
		row->c.calls++;
}

size_t counts_rows(struct ltr_retired *rows, size_t max)
{
	size_t i, n = 0;

	for (i = 0; counted && i < COUNTED_MAX && n < max; i++)
		if (counted[i].c.calls && rows)
			rows[n++] = counted[i];
		else
			n += counted[i].c.calls != 0;
	return n;
}

void counts_free(void)
{
	free(counted);
	counted = NULL;
	ncounted = 0;
}
