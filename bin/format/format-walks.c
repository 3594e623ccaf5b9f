/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-walks.c: the names and text lines of the walks stack-cache.c keeps.
 *
 * A walk kept by stack-cache.c comes back for most calls (sort(1) makes
 * half a million from some tens of thousands of stacks): its frames are
 * the same, so are their names, and so are its text lines.  So the names
 * of a kept walk are kept too, under its serial (a number no other walk
 * ever gets), in NAMED_WALKS slots by serial (a slot that holds another
 * walk's is named again), with its lines joined once they are written: a
 * stack seen before is one lookup and one copy.  Not when the walk has a
 * frame in code of no object (its name comes from a perf map, which
 * grows as the JIT writes it); format-stack.c does not ask with
 * interpreter frames, which differ from call to call.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format-walks.h"
#include "xmalloc.h"

#define NAMED_WALKS 4096 /* walks whose names are kept, by serial */

static struct named_walk named_walks[NAMED_WALKS];
/*
 * Has a walk been kept since the last named_walks_done?  Not, in most
 * runs: the table (230 KiB) is then never touched, and clearing it at exit
 * would cost a run its pages (56 page faults, at every exit).
 */
static bool named_walks_used;

struct named_walk *named_walk_find(uint64_t walk)
{
	struct named_walk *nw = &named_walks[walk % NAMED_WALKS];

	return walk && nw->walk == walk ? nw : NULL;
}

struct named_walk *named_walk_keep(uint64_t walk,
				   const struct stack_frame *frames, unsigned nf,
				   const struct named **out, unsigned n,
				   enum stack_end end)
{
	struct named_walk *nw = &named_walks[walk % NAMED_WALKS];
	unsigned i;

	for (i = 0; i < nf; i++)
		if (!frames[i].obj)
			return NULL; /* JIT code: perf maps grow */
	if (nw->out_size < n) {
		free(nw->out);
		nw->out_size = n;
		nw->out = xmalloc(n * sizeof(*out));
	}
	named_walks_used = true;
	nw->walk = walk;
	nw->end = end;
	nw->n = n;
	memcpy(nw->out, out, n * sizeof(*out));
	nw->joined = false;
	return nw;
}

/* named_lines_fn's put: the line counted into the text of a kept walk. */
static void count_joined(void *arg, const char *text, size_t len)
{
	(void)text;
	((struct named_walk *)arg)->text_len += len;
}

/* named_lines_fn's put: the line appended to the text of a kept walk. */
static void put_joined(void *arg, const char *text, size_t len)
{
	struct named_walk *nw = arg;

	memcpy(nw->text + nw->text_len, text, len);
	nw->text_len += len;
}

void named_walk_join(struct named_walk *nw, named_lines_fn *lines)
{
	size_t len;

	/* Counted first: the text of the size it takes, not grown a line at a time. */
	nw->text_len = 0;
	lines(nw->out, nw->n, nw->end, count_joined, nw);
	len = nw->text_len;
	if (nw->text_size < len) {
		free(nw->text);
		nw->text_size = len;
		nw->text = xmalloc(len);
	}
	nw->text_len = 0;
	lines(nw->out, nw->n, nw->end, put_joined, nw);
	nw->joined = true;
}

void named_walks_done(void)
{
	size_t i;

	if (!named_walks_used)
		return;
	named_walks_used = false;
	for (i = 0; i < NAMED_WALKS; i++) {
		free(named_walks[i].out);
		free(named_walks[i].text);
	}
	memset(named_walks, 0, sizeof(named_walks));
}
