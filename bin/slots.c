/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slots.c: hand the thread slots of ended processes back to the interposer.
 *
 * A session has 511 thread slots with rings of their own; with -f a long
 * run sees many more threads than that, one after another.  Once ltruss
 * has reported a process's end, it has drained every event the process
 * made, and nothing of the process runs any more: its slots' counters move
 * to the session's retired[] table (the summary, here and in a console,
 * reads both), the counters are zeroed, and the slot is marked FREED for
 * the interposer to take again (lib/thread.c).  The protocol: ltruss
 * writes the counters and the owner, then publishes FREED with a release
 * store; the interposer takes the slot with an acquiring compare-and-swap.
 * When retired[] is full, slots are no longer handed back.
 */
#include "config.h"

#include <string.h>

#include "reader.h"
#include "session-check.h"
#include "session-slots.h"
#include "session.h"
#include "slots.h"
#include "trace.h"

/*
 * The entries of retired[] this ltruss filled in, and whether it is the
 * one that does: the session's nretired is for a console to read, and a
 * traced program can write it.
 */
static uint32_t nretired;
static bool retiring;

uint32_t slots_retired_used(const struct ltr_session *s)
{
	uint32_t n;

	if (retiring)
		return nretired;
	n = __atomic_load_n(&s->nretired, __ATOMIC_ACQUIRE);
	return n > LTR_MAX_RETIRED ? LTR_MAX_RETIRED : n;
}

/* Move slot's counters to retired[]; false if they do not fit. */
static bool counts_retire(struct ltr_session *s, struct ltr_thread *slot)
{
	uint32_t nfuncs = session_funcs_used(s), n = nretired;
	uint32_t f, need = 0;

	for (f = 0; f < nfuncs; f++)
		need += slot->counts[f].calls != 0;
	if (need > LTR_MAX_RETIRED - n)
		return false;
	for (f = 0; f < nfuncs; f++) {
		struct ltr_retired *r;

		if (!slot->counts[f].calls)
			continue;
		r = &s->retired[n++];
		r->pid = slot->pid;
		r->fn = f;
		r->c = slot->counts[f];
		memset(&slot->counts[f], 0, sizeof(slot->counts[f]));
	}
	nretired = n;
	__atomic_store_n(&s->nretired, n, __ATOMIC_RELEASE);
	return true;
}

void slots_release(struct ltr_session *s, pid_t pid)
{
	uint32_t n = session_threads_used(s), i;

	retiring = true;
	/*
	 * Only the slots ever taken: reading the others would map their
	 * pages.  The last is shared by the threads past the others.
	 */
	for (i = 0; i < n && i < LTR_MAX_THREADS - 1; i++) {
		struct ltr_thread *slot;

		if (__atomic_load_n(&s->slot_used[i], __ATOMIC_ACQUIRE) !=
			    LTR_SLOT_TAKEN)
			continue;
		slot = session_slot(s, i);
		if (!slot || slot->pid != pid || !reader_drained(s, i))
			continue;
		if (!counts_retire(s, slot))
			return;
		trace_slot_freed(i);
		slot->pid = 0;
		slot->tid = 0;
		__atomic_store_n(&s->slot_used[i], LTR_SLOT_FREED,
				 __ATOMIC_RELEASE);
	}
}
