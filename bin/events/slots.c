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

#include "reader.h"
#include "retired.h"
#include "session-check.h"
#include "session-slots.h"
#include "session.h"
#include "slots.h"
#include "trace.h"

void slots_release(struct ltr_session *s, pid_t pid)
{
	uint32_t n = session_threads_used(s), i;

	retired_own();
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
		if (!retired_add(s, slot))
			return;
		trace_slot_freed(i);
		slot->pid = 0;
		slot->tid = 0;
		__atomic_store_n(&s->slot_used[i], LTR_SLOT_FREED,
				 __ATOMIC_RELEASE);
	}
}
