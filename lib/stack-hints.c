/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-hints.c: -k, copy no more of a stack than ltruss's walk will read.
 *
 * ltruss unwinds a call's stack copy at most the frames -k asks for
 * (and the few of a thread's start it leaves out): past the last of
 * them, the copy is never read.  A deep stack copied whole (sort(1)'s
 * merge recursion: 2.5 KiB) is then mostly bytes copied, scanned for
 * trampolines, carried through the ring and copied again by ltruss for
 * nothing.  The interposer cannot read call-frame information, but
 * ltruss can tell it, frame by frame, what its walks found: the session's
 * stack_hints[] hold, per return address of a process, that the frame's
 * CFA is its stack pointer plus a constant with the return address just
 * below it (most compiled code), or that it is the thread's first frame.
 * So the copy goes a first chunk, then as far as the frames need (a chunk
 * at a time), the hints followed from the return address up as the walk
 * will: the copy ends at or a little past the CFA of the last frame
 * whose return address the walk reads.
 * A frame not described (new, or of another kind: %rbp-based, a signal
 * frame) and the copy goes as far as it always did.
 *
 * What a hint says holds as long as the code at that address is the
 * same: when an object is closed, the hints of its addresses are
 * forgotten (ltr_stack_hints_forget), before another can be loaded there.
 *
 * Fewer bytes still: when every frame the walk follows is described, the
 * walk's result depends on their return addresses alone (a frame of
 * LTR_HINT_SP computes its CFA from the stack pointer, never from a
 * saved register, so the saved registers it reads are only read), and
 * those are all the copy needs to hold.  So the interposer loads them
 * (inlined loads that resume if they fault: walk-read.h) and writes them
 * alone with their offsets, a sparse copy (LTR_BLOBF_SPARSE, session.h):
 * sort(1)'s 16 frames of merge recursion are 2.2 KiB of stack and 0.3
 * KiB of blob, which the program writes into its ring, and ltruss reads
 * out of it, on two cores.  ltruss unwinds it as a copy whose other
 * words are zero.  A frame not described, a load that faults (or a
 * program whose signals keep the fast loads off), and the copy is made
 * as above.
 *
 * Fewer lookups: a thread's calls come mostly from the same few stacks
 * (sort's strcoll, from the same merges), so the hint a sparse copy
 * used at its n-th frame is kept in the thread's state (hints_seen[n],
 * by the frame's return address), and the next copy that finds the same
 * return address there takes it without probing stack_hints[]: a
 * compare instead of a hash and three atomic loads, at each frame of
 * each call.  What a hint says is a fact of the code at that address,
 * whoever else then takes its entry of stack_hints[]; it stops being one
 * only when the object is closed, so ltr_stack_hints_forget starts a new
 * generation, and a thread whose hints_seen[] are of an older one drops
 * them at its next copy.  A frame not described is never kept: it is
 * looked up again, until ltruss describes it.
 */
#include "capture.h"
#include "frames.h"
#include "interposer.h"
#include "process.h"
#include "walk-read.h"

#define FIRST_CHUNK 512 /* bytes copied before any hint is asked */
#define CHUNK 1024      /* at least, copied when a frame needs more */

uint32_t ltr_stack_frames;
static uint32_t hints_gen = 1; /* bumped when hints are forgotten (see the top) */

/* pid's hint at return address pc (LTR_HINT_* << 24 | offset), or 0. */
static uint64_t hint_of(int32_t pid, uint64_t pc)
{
	struct ltr_stack_hint *h = ltr_session->stack_hints;
	uint32_t i = ltr_stack_hint_slot(pc), k;
	uint64_t how;

	for (k = 0; k < LTR_STACK_HINT_PROBES; k++) {
		if (__atomic_load_n(&h[i].pc, __ATOMIC_ACQUIRE) == pc) {
			how = __atomic_load_n(&h[i].how, __ATOMIC_ACQUIRE);
			/* Still pc's: not rewritten for another meanwhile. */
			if (__atomic_load_n(&h[i].pc, __ATOMIC_ACQUIRE) == pc &&
			    (int32_t)(how >> 32) == pid)
				return how & 0xffffffffu;
		}
		i = (i + 1) & (LTR_STACK_HINTS - 1);
	}
	return 0;
}

/*
 * pid's hint at return address pc, the n-th frame of ts's walk: kept in
 * ts->hints_seen[n] (see the top), else hint_of and kept there if found.
 */
static inline uint64_t hint_seen(struct ltr_tstate *ts, int32_t pid,
				 uint32_t n, uint64_t pc)
{
	struct ltr_hint_seen *s;
	uint64_t how;

	if (n >= LTR_HINTS_SEEN)
		return hint_of(pid, pc);
	s = &ts->hints_seen[n];
	if (s->pc == pc)
		return s->how;
	how = hint_of(pid, pc);
	if (how) {
		s->pc = pc;
		s->how = how;
	}
	return how;
}

/* Drop ts's kept hints if an object was closed since they were kept. */
static void hints_seen_check(struct ltr_tstate *ts)
{
	uint32_t gen = __atomic_load_n(&hints_gen, __ATOMIC_ACQUIRE), i;

	if (ts->hints_gen == gen)
		return;
	for (i = 0; i < LTR_HINTS_SEEN; i++)
		ts->hints_seen[i].pc = 0;
	ts->hints_gen = gen;
}

/*
 * Copy [sp + *got, sp + want) to copy + *got (want rounded up to a word,
 * at most len), as far as it can be read; false if it could not all be.
 */
static bool copy_more(const struct ltr_tstate *ts, unsigned char *copy,
		      uintptr_t sp, size_t *got, size_t want, size_t len)
{
	size_t n;

	want = (want + 7) & ~(size_t)7;
	if (want > len)
		want = len;
	if (want <= *got)
		return true;
	n = ltr_read_mem(ts->pid, copy + *got, sp + *got, want - *got);
	*got += n & ~(size_t)7;
	return *got >= want;
}

/*
 * The return addresses of ts's stack at sp, below ret, that the walk
 * reads, as far as the hints follow its frames within len bytes: into
 * words (room for ltr_stack_frames - 1), their span (the copy they
 * stand for) into *span; how many, or -1 when a frame is not described
 * or a load fails (the copy is then made whole).  In a series of fast
 * loads.
 */
static int hinted_words(struct ltr_tstate *ts, uintptr_t sp,
			uint64_t ret, size_t len, struct ltr_stack_word *words,
			uint64_t *span)
{
	int32_t pid = ts->slot->pid;
	uintptr_t frame_sp = sp + 8, cfa;
	uint64_t pc = ret, how, ra;
	uint32_t n;
	int k = 0;

	for (n = 0; n + 1 < ltr_stack_frames; n++) {
		how = hint_seen(ts, pid, n, pc);
		if (how >> 24 == LTR_HINT_OUTERMOST)
			break;
		cfa = frame_sp + (how & 0xffffff);
		if (how >> 24 != LTR_HINT_SP || cfa <= frame_sp ||
		    cfa - sp > len || !load_word(cfa - 8, &ra))
			return -1;
		if (ltr_is_tramp(ra))
			ra = ts->rets[ltr_tramp_index(ra)].ret;
		words[k].off = cfa - 8 - sp;
		words[k++].val = ra;
		frame_sp = cfa;
		if (!ra)
			break;
		pc = ra;
	}
	*span = frame_sp - sp;
	return k;
}

size_t ltr_stack_sparse_copy(struct ltr_tstate *ts, unsigned char *copy,
			     size_t room, uintptr_t sp, uint64_t ret,
			     size_t len)
{
	uint64_t span;
	int k;

	if (!ltr_stack_frames ||
	    room < 8 + (size_t)(ltr_stack_frames - 1) *
			       sizeof(struct ltr_stack_word) ||
	    !ltr_fault_series_begin())
		return 0;
	hints_seen_check(ts);
	k = hinted_words(ts, sp, ret, len, (struct ltr_stack_word *)(copy + 8),
			 &span);
	ltr_fault_series_end();
	if (k < 0)
		return 0;
	__builtin_memcpy(copy, &span, 8);
	return 8 + (size_t)k * sizeof(struct ltr_stack_word);
}

size_t ltr_stack_hinted_copy(const struct ltr_tstate *ts, unsigned char *copy,
			     uintptr_t sp, uint64_t ret, size_t len,
			     bool *faulted)
{
	int32_t pid = ts->slot->pid;
	uintptr_t frame_sp = sp + 8, cfa;
	uint64_t pc = ret, how, ra;
	size_t got = 0;
	uint32_t n;

	*faulted = !copy_more(ts, copy, sp, &got, FIRST_CHUNK, len);
	if (*faulted)
		return got;
	/* The frames whose return address the walk reads: all but its last. */
	for (n = 0; n + 1 < ltr_stack_frames; n++) {
		how = hint_of(pid, pc);
		/* The walk ends there: it reads nothing above frame_sp. */
		if (how >> 24 == LTR_HINT_OUTERMOST)
			return got;
		cfa = frame_sp + (how & 0xffffff);
		if (how >> 24 != LTR_HINT_SP || cfa <= frame_sp ||
		    cfa - sp > len)
			break;
		/* Past the copy: read on, a chunk more if that is further. */
		if (cfa - sp > got &&
		    !copy_more(ts, copy, sp, &got,
			       got + CHUNK > cfa - sp ? got + CHUNK : cfa - sp,
			       len)) {
			*faulted = true;
			return got; /* as far as it can be read, as always */
		}
		__builtin_memcpy(&ra, copy + (cfa - 8 - sp), 8);
		if (ltr_is_tramp(ra))
			ra = ts->rets[ltr_tramp_index(ra)].ret;
		frame_sp = cfa;
		if (!ra)
			return got; /* the walk ends at this return address */
		pc = ra;
	}
	if (n + 1 < ltr_stack_frames)
		*faulted = !copy_more(ts, copy, sp, &got, len, len);
	/* Else got holds [sp, frame_sp): every word the walk reads. */
	return got;
}

void ltr_stack_hints_forget(const struct ltr_object *obj)
{
	struct ltr_stack_hint *h;
	uint64_t pc;
	uint32_t i;

	if (!ltr_stack_frames)
		return;
	/* Before the entries go: a copy that sees them gone sees this too. */
	__atomic_add_fetch(&hints_gen, 1, __ATOMIC_SEQ_CST);
	h = ltr_session->stack_hints;
	for (i = 0; i < LTR_STACK_HINTS; i++) {
		pc = __atomic_load_n(&h[i].pc, __ATOMIC_ACQUIRE);
		if (pc >= obj->start && pc <= obj->end)
			__atomic_store_n(&h[i].pc, 0, __ATOMIC_RELEASE);
	}
}
