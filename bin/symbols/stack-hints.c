/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-hints.c: -k, how the frames ltruss walked lie, for the interposer.
 *
 * A live trace unwinds each call's stack copy at most a known number of
 * frames (-k N, and the thread's start it leaves out), and every word
 * its walk reads lies below the CFA of the last frame whose return
 * address it reads.  The interposer cannot read call-frame information,
 * so ltruss tells it, in the session's stack_hints[], how each frame its
 * walks followed lies, by return address and process: its CFA is its
 * stack pointer plus a constant (LTR_HINT_SP), or it is a thread's first
 * (LTR_HINT_OUTERMOST).  lib/stack-hints.c follows them, and copies the
 * stack no further than the walk will read.  A -w recording is read later
 * with any -k N: its copies are whole, and no hint is written.
 *
 * Entries are written by ltruss only (the interposer clears those of an
 * object it closes), in open addressing by pc: a full neighbourhood
 * gives its first entry to the new pc.  pc is written last and cleared
 * first, so that a reader never takes one entry's pc with another's how.
 */
#include "config.h"

#include <stddef.h>

#include "stack-cache.h"
#include "stack-hints.h"

static struct ltr_stack_hint *hints; /* NULL: no hints */

void stack_hints_start(struct ltr_session *s, unsigned frames)
{
	/* LTRUSS_NO_STACK_CACHE: every stack copied whole, and walked. */
	if (!frames || frames > LTR_STACK_FRAMES_MAX || !stackcache_on())
		return;
	s->stack_frames = frames;
	hints = s->stack_hints;
}

bool stack_hints_on(void)
{
	return hints != NULL;
}

void stack_hints_note(void *arg, uint64_t pc, unsigned kind, uint64_t off)
{
	uint64_t how = (uint64_t)(uint32_t)(intptr_t)arg << 32 |
		       (uint64_t)kind << 24 | off;
	uint32_t first = ltr_stack_hint_slot(pc), i = first, k;

	if (!hints || !pc || off > 0xffffff)
		return;
	for (k = 0; k < LTR_STACK_HINT_PROBES; k++) {
		uint64_t at = __atomic_load_n(&hints[i].pc, __ATOMIC_RELAXED);

		if (at == pc) {
			uint64_t was =
			    __atomic_load_n(&hints[i].how, __ATOMIC_RELAXED);

			if (was == how)
				return; /* told already */
			if (was >> 32 == how >> 32)
				break; /* the same process's, changed */
		}
		if (!at)
			break;
		i = (i + 1) & (LTR_STACK_HINTS - 1);
	}
	if (k == LTR_STACK_HINT_PROBES)
		i = first;
	__atomic_store_n(&hints[i].pc, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&hints[i].how, how, __ATOMIC_RELEASE);
	__atomic_store_n(&hints[i].pc, pc, __ATOMIC_RELEASE);
}
