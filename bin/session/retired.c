/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * retired.c: the counters of ended threads' slots, in the session's
 * retired[] table (events/slots.c hands the slots themselves back; the
 * summary, here and in a console, reads both the slots and this table).
 */
#include "config.h"

#include <string.h>

#include "retired.h"
#include "session-check.h"

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

bool retired_add(struct ltr_session *s, struct ltr_thread *slot)
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

void retired_own(void)
{
	retiring = true;
}
