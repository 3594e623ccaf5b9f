/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyreuse.c: -k, a call's Python frames made whole again, before anything
 * reads them.
 *
 * The interposer sends with a call only the Python frames that differ
 * from those of its thread's call before: its own, innermost, then how
 * many outer frames of the ring's previous blob follow them, and the
 * blob's number in its ring (lib/session.h, LTR_PYF_CHAIN).  So the
 * whole list of a blob depends on every blob of its ring before it, shown
 * or not: each ring's last list is kept here, and each event with a
 * PYFRAMES blob is rebuilt, as it comes out of its ring or its trace file
 * and before -u, --pid or a hidden call can leave it out, into a copy
 * whose blob holds the frames whole (without the chain, as an interposer
 * that sent them all would have written it); the rest of ltruss reads
 * that.  The interposer left room for the whole blob in the event, so
 * the copy fits in an event's 16-bit size.  A blob whose predecessor was
 * not seen here (a block of a file lost, a forged ring) keeps its own
 * frames only, flagged LTR_PYF_MORE: fewer frames, never wrong ones; so
 * do those after it until one reuses nothing.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "pyreuse.h"
#include "xmalloc.h"

/* The last frames of a ring, innermost first. */
struct chain {
	uint32_t seq;  /* the number of the blob they are of */
	bool whole;    /* all of them are known: the next blob may reuse them */
	uint32_t n;
	struct ltr_py_frame f[LTR_PY_FRAMES_MAX];
};

static struct chain *chains[LTR_MAX_THREADS];
static size_t nchains; /* made: pyreuse_done scans no slot when none */

/* The copies handed out: an event's size is 16 bits, a multiple of 8. */
#define COPY_MAX 65528
static uint64_t copy[COPY_MAX / 8];

/* The PYFRAMES blob of ENTER or CALL event ev, or NULL. */
static const struct ltr_blob *frames_blob(const struct ltr_event *ev)
{
	size_t fixed = sizeof(*ev) + 8 * LTR_ENTER_WORDS;

	if ((ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL) ||
	    ev->size <= fixed)
		return NULL;
	return blob_lookup((const unsigned char *)ev + fixed, ev->size - fixed,
			   LTR_BLOB_PYFRAMES, 0, true);
}

/*
 * Rebuild ring slot's blob b (checked: whole frames after its head and
 * chain) into the blob at out, at most room bytes, and keep its frames as
 * the ring's last; returns the new blob's size.
 */
static size_t rebuild(uint32_t slot, const struct ltr_blob *b,
		      struct ltr_blob *out, size_t room)
{
	const struct ltr_py_head *h = (const void *)b->data;
	const struct ltr_py_chain *ch = (const void *)(h + 1);
	const struct ltr_py_frame *own = (const void *)(ch + 1);
	struct ltr_py_head *oh = (struct ltr_py_head *)out->data;
	struct ltr_py_frame *of = (struct ltr_py_frame *)(oh + 1);
	struct chain *k = chains[slot];
	size_t m = (b->len - sizeof(*h) - sizeof(*ch)) / sizeof(*own);
	size_t outer = ch->outer, max;

	if (!k) {
		k = chains[slot] = xcalloc(1, sizeof(*k));
		nchains++;
	}
	*oh = *h;
	oh->flags &= ~LTR_PYF_CHAIN;
	if (outer && (!k->whole || k->seq + 1 != ch->seq || outer > k->n)) {
		oh->flags |= LTR_PYF_MORE;
		outer = 0;
		k->whole = false;
	} else {
		k->whole = true;
	}
	max = (room - sizeof(*out) - sizeof(*oh)) / sizeof(*of);
	if (max > LTR_PY_FRAMES_MAX)
		max = LTR_PY_FRAMES_MAX;
	if (m + outer > max) {
		/* Only a forged ring: no interposer's blob grows past its room. */
		if (m > max)
			m = max;
		outer = max - m;
		oh->flags |= LTR_PYF_MORE;
		k->whole = false;
	}
	memcpy(of, own, m * sizeof(*of));
	memcpy(of + m, k->f + k->n - outer, outer * sizeof(*of));
	memcpy(k->f, of, (m + outer) * sizeof(*of));
	k->n = (uint32_t)(m + outer);
	k->seq = ch->seq;
	out->type = LTR_BLOB_PYFRAMES;
	out->index = b->index;
	out->flags = b->flags;
	out->reserved = 0;
	out->len = (uint32_t)(sizeof(*oh) + k->n * sizeof(*of));
	return sizeof(*out) + out->len;
}

const struct ltr_event *pyreuse_blob(uint32_t slot,
				     const struct ltr_event *ev)
{
	const struct ltr_blob *b = frames_blob(ev);
	const struct ltr_py_head *h;
	size_t at, size, after, got;

	if (!b || b->len < sizeof(*h))
		return ev;
	h = (const void *)b->data;
	if (!(h->flags & LTR_PYF_CHAIN) ||
	    b->len < sizeof(*h) + sizeof(struct ltr_py_chain))
		return ev;
	if (slot >= LTR_MAX_THREADS)
		return ev; /* no thread's: not traced (trace.c) */
	at = (size_t)((const unsigned char *)b - (const unsigned char *)ev);
	size = sizeof(*b) + ((b->len + 7) & ~(size_t)7);
	after = ev->size - at - size;
	memcpy(copy, ev, at);
	got = rebuild(slot, b, (struct ltr_blob *)((unsigned char *)copy + at),
		      COPY_MAX - at - after);
	memcpy((unsigned char *)copy + at + got, (const unsigned char *)b + size,
	       after);
	((struct ltr_event *)copy)->size = (uint16_t)(at + got + after);
	return (const struct ltr_event *)copy;
}

void pyreuse_done(void)
{
	size_t i;

	for (i = 0; nchains && i < LTR_MAX_THREADS; i++)
		if (chains[i]) {
			free(chains[i]);
			chains[i] = NULL;
			nchains--;
		}
}
