/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h: the hot path: a traced call's entry and exit, its hijacked
 * return, the events it writes and the arguments it copies.
 * (lib/interposer.h says what every internal declaration shares.)
 */
#ifndef LTR_LIB_CAPTURE_H
#define LTR_LIB_CAPTURE_H

#include "interposer.h"
#include "objects.h"
#include "process.h"

/* ---- capture (capture.c) ----------------------------------------------- */

/* Where ltr_entry_common goes on (in %rax and %rdx). */
struct ltr_entry_to {
	uint64_t fn;   /* the function */
	uint64_t jump; /* the function, or ltr_tramp_call_of() a hijacked call */
};

/* Called by ltr_entry_common for stub index stub: record an entry; says where to go. */
struct ltr_entry_to ltr_on_entry(struct ltr_regs *regs, uint32_t stub);

/*
 * A longjmp from sp to target, above it on the same stack: drop the frames
 * of ts it skips (the innermost ones whose slots lie in between).
 */
void ltr_frames_jumped(struct ltr_tstate *ts, uintptr_t sp, uintptr_t target);

/* ---- hijacked returns (rets.c) ----------------------------------------- */

/* Free every entry of ts's rets[] (a new thread, or one reusing ts). */
void ltr_rets_forget(struct ltr_tstate *ts);

/* ts has no free entry in rets[]: try to free some; false if none (said once). */
bool ltr_rets_refill(struct ltr_tstate *ts);

/* Entry k of ts's rets[] now holds the return through slot to ret: k. */
static inline uint32_t ltr_ret_use(struct ltr_tstate *ts, uint32_t k,
				   uint64_t *slot, uint64_t ret)
{
	struct ltr_ret *r = &ts->rets[k];

	r->slot = slot;
	r->ret = ret;
	r->away = 0;
	return k;
}

/* Take the last freed entry of ts's rets[] (there is one), as ltr_ret_use. */
static inline uint32_t ltr_ret_take_free(struct ltr_tstate *ts, uint64_t *slot,
					 uint64_t ret)
{
	return ltr_ret_use(ts, ts->free_rets[--ts->nfree], slot, ret);
}

/*
 * Take a free entry of ts's rets[] for the return through slot to ret;
 * -1 if none is free, even after a reclaim.
 */
static inline int32_t ltr_ret_take(struct ltr_tstate *ts, uint64_t *slot,
				   uint64_t ret)
{
	/* Freed ones first: a thread touches as few entries as it nests. */
	if (likely(ts->nfree))
		return (int32_t)ltr_ret_take_free(ts, slot, ret);
	if (ts->fresh < LTR_RETS)
		return (int32_t)ltr_ret_use(ts, ts->fresh++, slot, ret);
	if (ltr_rets_refill(ts))
		return (int32_t)ltr_ret_take_free(ts, slot, ret);
	return -1;
}

/* Entry k of ts's rets[] is free again: its return passed, or cannot come. */
static inline void ltr_ret_give(struct ltr_tstate *ts, uint32_t k)
{
	ts->rets[k].slot = NULL;
	ts->free_rets[ts->nfree++] = (uint16_t)k;
}

/*
 * A return through slot by entry k that ts's rets[] does not hold: the
 * stack came from another thread.  Its real return address, or 0.
 */
uint64_t ltr_ret_elsewhere(const struct ltr_tstate *ts, uint32_t k,
			   const uint64_t *slot);

/* Called by the return trampoline: record an exit; returns the real return address. */
uint64_t ltr_on_exit(struct ltr_retregs *regs, uint64_t *slot);

/*
 * Report a call of target f seen only on entry (a hooked function): trace
 * line with what its prototype copies from the integer arguments in
 * regs (hooks have no others), count.
 */
void ltr_note_entry(const struct ltr_target *f, const struct ltr_regs *regs);

/* Report and drop every frame of the calling thread (it is ending). */
void ltr_frames_end_thread(enum ltr_end why);

/* Drop the frames of sp's stack that can no longer return: slots below sp (at sp too if at_sp). */
void ltr_frames_drop_dead(struct ltr_tstate *ts, uintptr_t sp, bool at_sp);

/* ---- trace events (events.c) ------------------------------------------ */

/*
 * A call of frame fr starts (regs as it was entered) at TSC tsc; returns
 * the time stamped, later than tsc when arguments had to be copied.
 */
uint64_t ltr_event_enter(struct ltr_tstate *ts, const struct ltr_frame *fr,
		     const struct ltr_regs *regs, uint64_t tsc);

/* A call seen on entry only (its return is not hijacked); cap may be NULL. */
void ltr_event_call(struct ltr_tstate *ts, uint32_t fn,
		    const struct ltr_capture *cap, const struct ltr_regs *regs,
		    uint64_t tsc);

/* The call of frame fr returns with regs; err: it failed with errno errnum; flags: LTR_EVF_KEEP_ABOVE or 0. */
void ltr_event_exit(struct ltr_tstate *ts, const struct ltr_frame *fr,
		    const struct ltr_retregs *regs, uint64_t tsc, bool err,
		    int errnum, uint8_t flags);

/*
 * A forked child's calls in progress, inherited from its parent: their
 * entries (times of the parent's), so that their returns in the child
 * show real durations.
 */
void ltr_event_inherited(struct ltr_tstate *ts);

/* fn, entered at t0 at depth and shown on entry, returns (again) rax at tsc. */
void ltr_event_returns_again(struct ltr_tstate *ts, uint32_t fn,
			     uint32_t depth, uint64_t t0, uint64_t rax,
			     uint64_t tsc);

/* The thread's slot, reused, belongs to this thread from now on. */
void ltr_event_thread(struct ltr_tstate *ts);

/*
 * A GUEST event: the ring's events are vfork child pid's (as ltruss sees
 * it) from here on; pid 0: the owner's again, the child's calls in
 * progress ended for why.
 */
void ltr_event_guest(struct ltr_tstate *ts, int32_t pid, enum ltr_end why);

/* An UNTRACED event: the process leaves the session before function name changes its credentials. */
void ltr_event_untraced(struct ltr_tstate *ts, const char *name);

/* The call of frame fr ends without returning: why, an LTR_END_*, | LTR_EVF_KEEP_ABOVE. */
void ltr_event_unwound(struct ltr_tstate *ts, const struct ltr_frame *fr,
		       uint8_t why);

/*
 * Sleep a little while waiting on ltruss (events.c), as a process does
 * for a plan or for room in the object records: false once ltruss is
 * gone.  beat, still and spins are the caller's, zero at the start of
 * one wait.  Raw system calls: errno stays the program's.
 */
bool ltr_reader_nap(uint32_t *beat, unsigned *still, unsigned *spins);

/*
 * May a thread wait for ltruss now (events.c): events are traced (the
 * session may be gone once tracing stops, creds.c) and --drop does not
 * ask to go on instead.
 */
bool ltr_may_wait(void);

/* ---- arguments (args.c, safe-read.c, fault-copy.c) -------------------- */

/* Install the SIGSEGV/SIGBUS handler of the fast copy, when it is safe to. */
void ltr_fault_copy_init(void);

/*
 * Turn the fast copy off for good, once no copy is in flight; when sig is
 * SIGSEGV or SIGBUS, also give the program back its action for it.
 */
void ltr_fault_copy_off(int sig);

/*
 * Copy up to len bytes at src into dst with plain loads, stopping after a
 * NUL if stop_at_nul; *got is the bytes copied, short if a load faulted.
 * Returns false, copying nothing, when the fast copy is off.
 */
bool ltr_fault_copy(void *dst, uintptr_t src, size_t len, bool stop_at_nul,
		    size_t *got);

/* Copy len bytes at src into dst without faulting; returns the bytes copied. */
size_t ltr_read_mem(int pid, void *dst, uintptr_t src, size_t len);

/*
 * A series of fast copies under one mark (fault-copy.c): begin says
 * whether the fast copy may be used (else use ltr_read_mem); each read
 * copies up to len bytes and returns how many (short at a fault); end
 * closes a series begun.
 */
/*
 * After the program's sigaction(sig, NULL, old): while our handler holds
 * sig (SIGSEGV, SIGBUS), make *old the program's own action, as the
 * kernel would have said without us.
 */
struct sigaction;
void ltr_fault_copy_query(int sig, struct sigaction *old);

bool ltr_fault_series_begin(void);
size_t ltr_fault_series_read(void *dst, uintptr_t src, size_t len);
void ltr_fault_series_end(void);

/*
 * Loads that may fault, inlined where they are used (walk-read.h): each
 * such load names, in the section ltr_fixups, where the walk resumes if
 * it faults; fault-copy.c's handler looks the faulting %rip up there, as
 * the kernel's exception tables do.  Offsets from the entry itself, so
 * that the table needs no relocation.
 */
struct ltr_fixup {
	int32_t load;   /* the load, from &load */
	int32_t resume; /* where to resume, from &resume */
};

/* One entry of ltr_fixups: the load at label ld resumes at label re. */
#define LTR_FIXUP(ld, re)                                                   \
	".pushsection ltr_fixups,\"a\"\n.balign 4\n.long " ld " - .\n"          \
	".long " re " - .\n.popsection\n"

/* Read the aligned word at src without faulting: 0, or -errno (-EFAULT: unmapped). */
long ltr_read_word(int pid, uintptr_t src, uint64_t *v);

/*
 * Copy the C string at src into dst (max + 1 bytes): returns its length,
 * at most max (then *cut), or -1 if src cannot be read at all.
 */
long ltr_read_string(int pid, char *dst, uintptr_t src, size_t max,
		     bool *cut);

/* Bytes of blobs an entry of a function with captures cap may need. */
size_t ltr_args_entry_max(const struct ltr_capture *cap);

/* Write the entry blobs of a call (regs as entered) into dst; returns bytes. */
size_t ltr_args_entry(void *dst, size_t room, int pid,
		      const struct ltr_capture *cap, const struct ltr_regs *regs);

/* Remember in fr where the call's output arguments are, for its return. */
void ltr_args_keep(struct ltr_frame *fr, const struct ltr_capture *cap,
		   const struct ltr_regs *regs);

/* Bytes of blobs the return of a function with captures cap may need. */
size_t ltr_args_exit_max(const struct ltr_capture *cap);

/* Write the return blobs of fr's call into dst (x87: %st0, or NULL); returns bytes. */
size_t ltr_args_exit(void *dst, size_t room, int pid,
		     const struct ltr_frame *fr, uint64_t rax, const void *x87);

/* The calling thread's errno in the program (its libc's), or 0. */
int ltr_program_errno(void);

/* Find the program's __errno_location (at attach). */
void ltr_errno_init(void);

#endif
