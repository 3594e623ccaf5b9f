/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.c: put trace events into the calling thread's ring.
 *
 * The traced thread only copies registers and timestamps into its ring in
 * the session; ltruss drains the rings and does all formatting.  A record
 * is reserved at head, filled, and published with a release store of head.
 * When the ring is full the thread waits for ltruss (nothing is lost), or
 * with --drop counts the event as dropped.  If ltruss is gone while we
 * wait (no such process, or a zombie its parent has not reaped: kill()
 * still finds those), the process detaches: it runs on untraced rather
 * than block.
 *
 * No lockstep.  ltruss hands space back every few hundred events.  A
 * thread that went on as soon as there was room for its next event would
 * write each time into the lines ltruss had just read, and read the tail
 * that ltruss had just written, a few hundred events at a time: each
 * side taking lines the other had just touched.  So whenever a thread finds its ring full as far
 * as the tail it read last says (tail_seen: it only grows), it reads the
 * tail again and goes on only if a quarter of the ring is free; else it
 * waits until it is.  It then writes that quarter in one go, lines ltruss
 * read long before, while ltruss reads on far ahead of it, and looks at
 * the tail again only when it has filled it: the fast path touches no
 * line that ltruss writes, and a thread stops (and sleeps: a system call,
 * and a wake-up by ltruss) once a quarter-ring at most.  Not half: the
 * three quarters left are ltruss's work while the woken thread waits
 * for a core, on a busy machine.  With --drop it never
 * waits: an event that does not fit is dropped.  Each ring counts its
 * stops, its sleeps and the least room its thread went on with after one
 * (session.h; LTRUSS_DEBUG_RINGS prints them at the end).
 *
 * Asleep, not spinning.  The wait sleeps on a futex until ltruss has
 * freed that quarter: pauses, sched_yield and short naps were counted as
 * the program's own CPU, and yielding with more threads runnable than
 * cores left it to the scheduler which of them ran.  The thread stores the tail it needs in the ring
 * (wake_at), then reads tail again and sleeps on tail's low word if it is
 * still short, with the value it read: ltruss stores tail, then reads
 * wake_at (both sequentially consistent), so either the thread sees the
 * new tail or ltruss sees wake_at and wakes it, and a tail moved between
 * the read and the sleep makes the sleep return at once.  The futex is
 * shared (not FUTEX_PRIVATE): the session is a shared mapping, which
 * ltruss and the processes of a run (forked, exec'd, in other pid
 * namespaces) map at different addresses.  A sleep lasts FUTEX_NAP_NS at
 * most, after which the thread checks that ltruss lives; where the
 * futex is refused (seccomp) it naps with nanosleep instead.
 * Waiting uses raw system calls only: the program's errno and vector
 * registers stay untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "events-now.h"
#include "frames.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"

#define ALIVE_CHECK_EVERY 64 /* naps between checks that ltruss lives */
#define FUTEX_NAP_NS 5000000 /* a sleep on a full ring, at most (then: alive?) */
#define SECCOMP_SPINS (1u << 24) /* pauses (about a second) before a drop */
#define STILL_CHECKS 1000 /* checks (seconds) without a pass of ltruss: gone */

/* Stop tracing this process: ltruss, the only reader, is gone. */
static void detach(void)
{
	ltr_warn("ltruss has gone away", "the program runs on untraced");
	ltr_flags = 0;
}

/*
 * Is process pid gone: no such process, or a zombie (its /proc stat says
 * Z or X)?  Under a seccomp filter that forbids reading it, kill decides.
 */
static bool process_gone(int32_t pid)
{
	char path[32] = "/proc/", buf[512];
	size_t n = ltr_strlen(path);
	long fd, len;
	char *p, *close_paren = NULL;

	if (ltr_syscall3(SYS_kill, pid, 0, 0) == -3 /* ESRCH */)
		return true;
	if (!ltr_sys_ok(SYS_open) || !ltr_sys_ok(SYS_read) ||
	    !ltr_sys_ok(SYS_close))
		return false;
	n += ltr_utoa(path + n, (uint32_t)pid);
	ltr_strlcpy(path + n, "/stat", sizeof(path) - n);
	fd = ltr_syscall3(SYS_open, (long)path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd == -2 /* ENOENT */;
	len = ltr_syscall3(SYS_read, fd, (long)buf, sizeof(buf) - 1);
	ltr_syscall3(SYS_close, fd, 0, 0);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	/* "pid (comm) S ...": comm may hold ')', the state follows the last. */
	for (p = buf; *p; p++)
		if (*p == ')')
			close_paren = p;
	return close_paren && close_paren[1] == ' ' &&
	       (close_paren[2] == 'Z' || close_paren[2] == 'X');
}

static bool futex_refused; /* the kernel said no to a futex wait */

/* May the ring wait sleep on its futex (seccomp may forbid it)? */
static bool can_futex(void)
{
	return !__atomic_load_n(&futex_refused, __ATOMIC_RELAXED) &&
	       ltr_sys_ok(SYS_futex);
}

/* May the ring wait sleep and check on ltruss (seccomp may forbid it)? */
static bool can_sleep(void)
{
	return (can_futex() || ltr_sys_ok(SYS_nanosleep)) &&
	       ltr_sys_ok(SYS_kill) && ltr_sys_ok(SYS_getpid);
}

/*
 * Is ltruss gone?  In its pid namespace, its pid says; in another one,
 * where that pid names nothing or someone else, ltruss's passes over the
 * rings (reader_beat) have stopped for STILL_CHECKS checks in a row.
 * beat and still are the caller's, for one wait.
 */
static bool reader_gone(uint32_t *beat, unsigned *still)
{
	uint32_t now;

	if (ltr_pidns_self() == ltr_session->reader_pidns)
		return process_gone(ltr_session->reader_pid);
	now = __atomic_load_n(&ltr_session->reader_beat, __ATOMIC_ACQUIRE);
	if (now != *beat) {
		*beat = now;
		*still = 0;
		return false;
	}
	return ++*still >= STILL_CHECKS;
}

bool ltr_may_wait(void)
{
	return (__atomic_load_n(&ltr_flags, __ATOMIC_ACQUIRE) &
		(LTR_F_TRACE | LTR_F_DROP)) == LTR_F_TRACE;
}

bool ltr_reader_nap(uint32_t *beat, unsigned *still, unsigned *spins)
{
	struct timespec ts = { 0, 50000 };

	ltr_syscall3(SYS_nanosleep, (long)&ts, 0, 0);
	return ++*spins % ALIVE_CHECK_EVERY != 0 || !reader_gone(beat, still);
}

/*
 * Sleep until ltruss has handed back r's ring up to head end (its tail at
 * end less a ring), moved its tail at all, or FUTEX_NAP_NS passed (see the
 * top).  A tail that says there is no room in any way (a program that
 * wrote over it, ahead of head) sleeps too: ltruss writes it back.
 * Returns the futex's answer: 0 or -EAGAIN (look again), -ETIMEDOUT (is
 * ltruss alive?), -EINTR (a signal), or a refusal.
 */
static long ring_sleep(struct ltr_ring *r, uint64_t end)
{
	struct timespec t = { 0, FUTEX_NAP_NS };
	uint64_t tail;
	long ret = 0;

	__atomic_store_n(&r->wake_at, end - ltr_ring_size, __ATOMIC_SEQ_CST);
	tail = __atomic_load_n(&r->tail, __ATOMIC_SEQ_CST);
	if (end - tail > ltr_ring_size)
		ret = ltr_syscall6(SYS_futex, (long)&r->tail, FUTEX_WAIT,
				   (uint32_t)tail, (long)&t, 0, 0);
	__atomic_store_n(&r->wake_at, 0, __ATOMIC_RELAXED);
	return ret;
}

/*
 * Wait until ts's ring has room up to head end (tail_seen says how far it
 * got); false to give up (drop, detach).
 */
static bool ring_wait(struct ltr_tstate *ts, uint64_t end)
{
	struct ltr_ring *r = &ts->slot->ring;
	unsigned spins, naps = 0, still = 0;
	uint32_t beat = 0;
	long slept;

	for (spins = 0;; spins++) {
		ts->tail_seen = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		if (end - ts->tail_seen <= ltr_ring_size)
			return true;
		if (!ltr_may_wait())
			return false;
		if (unlikely(!can_sleep())) {
			/* Under seccomp: spin a while, then drop rather than be killed. */
			if (spins > SECCOMP_SPINS)
				return false;
			__builtin_ia32_pause();
			continue;
		}
		if (can_futex()) {
			r->sleeps++;
			slept = ring_sleep(r, end);
			if (slept == -ETIMEDOUT) {
				if (reader_gone(&beat, &still))
					goto gone;
			} else if (slept && slept != -EAGAIN && slept != -EINTR) {
				/* A filter seen too late returned an error. */
				__atomic_store_n(&futex_refused, true,
						 __ATOMIC_RELAXED);
			}
		} else if (!ltr_reader_nap(&beat, &still, &naps)) {
			goto gone;
		}
	}
gone:
	detach();
	return false;
}

/* Note in r what a stop left free when its thread went on (least_room). */
static void note_room(struct ltr_ring *r, uint64_t head, uint64_t tail)
{
	uint64_t room = ltr_ring_size - (head - tail);

	if (!r->least_room || room < r->least_room)
		r->least_room = room;
}

/*
 * Reserve size bytes in ts's ring after waiting for room or padding to
 * its end; NULL when the event must be dropped.  Only a ring that has no
 * room for the event as far as the tail seen last says reads the tail
 * again; then, unless a quarter of the ring (or the event and its PAD,
 * when more) is free, the thread waits until it is (see the top).  With
 * --drop it never waits: the event is dropped if it does not fit.
 */
static __attribute__((noinline)) struct ltr_rec *
reserve_slow(struct ltr_tstate *ts, uint32_t size)
{
	struct ltr_ring *r = &ts->slot->ring;
	uint32_t ring_size = ltr_ring_size;
	uint64_t head = r->head;
	uint32_t off = (uint32_t)(head & (ring_size - 1));
	uint32_t pad = off + size > ring_size ? ring_size - off : 0;
	uint32_t need = pad + size;
	uint32_t want = need > ring_size / 4 ? need : ring_size / 4;

	if (head + need - ts->tail_seen > ring_size) {
		ts->tail_seen = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		if (head + want - ts->tail_seen > ring_size && ltr_may_wait()) {
			r->stops++;
			ring_wait(ts, head + want);
		}
		if (head + need - ts->tail_seen > ring_size) {
			r->dropped++;
			return NULL;
		}
		note_room(r, head, ts->tail_seen);
	}
	if (pad) {
		struct ltr_rec *p = (struct ltr_rec *)&ts->ring[off];

		p->size = 0; /* a PAD runs to the end of the ring */
		p->kind = LTR_EV_PAD;
		head += pad;
		__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
		off = 0;
	}
	return (struct ltr_rec *)&ts->ring[off];
}

/*
 * Reserve size bytes in ts's ring; NULL when the event must be dropped.
 * Inlined into each kind of event: a call of a pair costs no call of
 * this, and only a ring that may be full or its end takes the slow path.
 */
static inline __attribute__((always_inline)) struct ltr_rec *
reserve(struct ltr_tstate *ts, uint32_t size)
{
	struct ltr_rec *ev = reserve_now(ts, size);

	return likely(ev) ? ev : reserve_slow(ts, size);
}

/*
 * Reserve and fill an event header with room for words fixed words and up
 * to *extra bytes of blobs (cut to what fits: *extra says); NULL if
 * dropped.  The size is set to the fixed part: blobs written later are
 * added with event_grow before the commit.
 */
static inline __attribute__((always_inline)) struct ltr_rec *
event_new(struct ltr_tstate *ts, uint8_t type, uint32_t words, uint32_t fn,
	  uint32_t depth, uint8_t flags, uint64_t tsc, size_t *extra)
{
	uint32_t size = (uint32_t)(sizeof(struct ltr_rec) + 8 * words);
	struct ltr_rec *ev;

	/*
	 * A reservation of at most half the ring always fits, PAD included:
	 * more (a printf's worst case with -s 4096 is 60 KB, and --buffer can
	 * be 64K) would wait forever for room the ring does not have.  The
	 * copies are cut to what is reserved.
	 */
	if (size + *extra > ltr_ring_size / 2)
		*extra = ltr_ring_size / 2 - size;
	ev = reserve(ts, size + (uint32_t)*extra);

	if (ev)
		header(ev, size, type, words, fn, depth, flags, tsc);
	return ev;
}

/* Where the blobs of ev go (after its fixed words). */
static void *event_end(struct ltr_rec *ev)
{
	return (unsigned char *)ev + ev->size;
}

/* Count bytes of blobs written after ev's fixed words. */
static void event_grow(struct ltr_rec *ev, size_t bytes)
{
	ev->size = (uint16_t)(ev->size + bytes);
}

/* Level of frame fr on its thread's stack (0 = outermost). */
static uint32_t level_of(const struct ltr_tstate *ts, const struct ltr_frame *fr)
{
	return (uint32_t)(fr - ts->frames);
}

/*
 * A traced function passed as a pointer is its stub (bindings return the
 * stub, to keep pointers to it equal): report the function it leads to,
 * which ltruss can name.  Only the event's copy changes.
 */
static void unstub_args(uint64_t *w, unsigned funcptrs, unsigned regs)
{
	unsigned n;

	for (n = 0; n < regs; n++)
		if ((funcptrs & (1u << n)) && ltr_is_stub(w[n]))
			w[n] = ltr_targets[ltr_stub_index(w[n])].addr;
}

/* Is fn's stack left out (-k): --heap's frees, whose stacks it never shows? */
static bool fn_nostack(uint32_t fn)
{
	return fn < LTR_MAX_FUNCS &&
	       (__atomic_load_n(&ltr_session->funcs[fn].flags,
				__ATOMIC_RELAXED) & LTR_FN_NOSTACK);
}

/*
 * An ENTER or CALL event: the registers, and what the prototype copies.
 * Copying strings and buffers takes microseconds: the event is stamped
 * after it, so that a call's time is the function's, not ours.  Returns
 * the stamp.  (event_call's short path does the calls that copy nothing.)
 */
static __attribute__((noinline)) uint64_t
event_call_blobs(struct ltr_tstate *ts, uint8_t type, uint32_t fn,
			   uint32_t depth, const struct ltr_capture *cap,
			   const struct ltr_regs *regs, uint64_t ret,
			   uint64_t tsc)
{
	size_t extra = cap ? ltr_args_entry_max(cap) : 0;
	struct ltr_rec *ev;
	size_t used = 0;
	bool stack = unlikely(ltr_stack_size) && !fn_nostack(fn);
	/* The registers it prints, then the return address (session.h). */
	unsigned nregs = enter_regs(cap);

	if (stack) {
		extra += ltr_stack_blob_max() + ltr_py_blob_max() +
			 ltr_tcl_blob_max();
		if (extra > LTR_PAYLOAD_MAX)
			extra = LTR_PAYLOAD_MAX;
	}
	ev = event_new(ts, type, nregs + 1, fn, depth, 0, tsc, &extra);
	if (!ev)
		return tsc;
	put_args(ev->w, regs, nregs);
	ev->w[nregs] = ret;
	if (cap && cap->funcptrs)
		unstub_args(ev->w, cap->funcptrs, nregs);
	if (cap && extra) {
		used = ltr_args_entry(event_end(ev), extra, ts->pid, cap, regs);
		event_grow(ev, used);
	}
	/* -k: the stack gets the room the arguments left. */
	if (stack) {
		size_t got = ltr_stack_copy(event_end(ev), extra - used, ts,
					    regs, ret);

		event_grow(ev, got);
		used += got;
		/* Python's frames, with the stack they are matched to. */
		if (got && ltr_py_blob_max()) {
			size_t py = ltr_py_frames(event_end(ev), extra - used,
						  ts);

			event_grow(ev, py);
			used += py;
		}
		/* Tcl's procs, in place of the libtcl frames they ran on. */
		if (got && ts->tcl_ninterps)
			event_grow(ev, ltr_tcl_frames(event_end(ev),
						      extra - used, ts));
	}
	if (extra)
		ev->ts = ltr_now();
	commit(&ts->slot->ring, ev);
	return ev->ts;
}

/*
 * An ENTER or CALL event.  Most calls copy nothing but registers into a
 * ring with room: they take a short path that calls nothing, not the
 * general one (its pushes of callee-saved registers and size checks
 * were a third of what an event cost).  Returns the stamp.
 */
static inline __attribute__((always_inline)) uint64_t
event_call(struct ltr_tstate *ts, uint8_t type, uint32_t fn, uint32_t depth,
	   const struct ltr_capture *cap, const struct ltr_regs *regs,
	   uint64_t ret, uint64_t tsc)
{
	struct ltr_rec *ev;

	if (!entry_plain(cap) ||
	    !(ev = enter_now(ts, type, fn, depth, cap, regs, &ret, tsc)))
		return event_call_blobs(ts, type, fn, depth, cap, regs, ret,
					tsc);
	commit(&ts->slot->ring, ev);
	return tsc;
}

uint64_t ltr_event_enter(struct ltr_tstate *ts, const struct ltr_frame *fr,
			 const struct ltr_regs *regs, uint64_t tsc)
{
	/* regs->ret is the trampoline by now: the real one is in the frame. */
	return event_call(ts, LTR_EV_ENTER, fr->fn, level_of(ts, fr), fr->cap,
			  regs, fr->ret, tsc);
}

void ltr_event_call(struct ltr_tstate *ts, uint32_t fn,
		    const struct ltr_capture *cap, const struct ltr_regs *regs,
		    uint64_t tsc)
{
	event_call(ts, LTR_EV_CALL, fn, ts->depth, cap, regs, regs->ret, tsc);
}

/* %st0, where a function returning long double leaves its value. */
static void read_x87(unsigned char buf[16])
{
	__asm__ volatile("fld %%st(0)\n\tfstpt %0" : "=m"(*(char(*)[10])buf));
	buf[10] = buf[11] = 0;
	*(uint32_t *)(buf + 12) = 0;
}

/* An EXIT in general: ltr_event_exit's short path could not take it. */
static __attribute__((noinline)) void
exit_blobs(struct ltr_tstate *ts, const struct ltr_frame *fr,
	   const struct ltr_retregs *regs, uint64_t tsc, bool err, int errnum,
	   uint8_t flags)
{
	size_t extra = fr->cap ? ltr_args_exit_max(fr->cap) : 0;
	/* %rax alone, unless a float return or an errno prints (session.h). */
	bool all = err || (fr->cap && (fr->cap->flags & LTR_CAP_RET_XMM));
	struct ltr_rec *ev = event_new(ts, LTR_EV_EXIT,
				       all ? LTR_EXIT_WORDS : 1, fr->fn,
				       level_of(ts, fr),
				       flags | (err ? LTR_EVF_ERROR : 0), tsc,
				       &extra);
	unsigned char x87[16];
	bool has_x87;

	if (!ev)
		return;
	ev->w[0] = regs->rax;
	if (all) {
		ev->w[1] = regs->rdx;
		ev->w[2] = regs->xmm0[0];
		ev->w[3] = (uint64_t)(int64_t)errnum;
	}
	if (fr->cap) {
		has_x87 = fr->cap->flags & LTR_CAP_X87;
		if (has_x87)
			read_x87(x87);
		event_grow(ev, ltr_args_exit(event_end(ev), extra, ts->pid, fr,
					     regs->rax, has_x87 ? x87 : NULL));
	}
	commit(&ts->slot->ring, ev);
}

/* Most returns print %rax alone: a short path, as for entries. */
void ltr_event_exit(struct ltr_tstate *ts, const struct ltr_frame *fr,
		    const struct ltr_retregs *regs, uint64_t tsc, bool err,
		    int errnum, uint8_t flags)
{
	struct ltr_rec *ev;

	if (unlikely(err) || !exit_plain(fr->cap) ||
	    !(ev = exit_now(ts, fr->fn, level_of(ts, fr), flags, regs->rax,
			    tsc))) {
		exit_blobs(ts, fr, regs, tsc, err, errnum, flags);
		return;
	}
	commit(&ts->slot->ring, ev);
}

void ltr_event_unwound(struct ltr_tstate *ts, const struct ltr_frame *fr,
		       uint8_t why)
{
	size_t none = 0;
	struct ltr_rec *ev = event_new(ts, LTR_EV_UNWOUND, 0, fr->fn,
				       level_of(ts, fr), why, ltr_now(), &none);

	if (!ev)
		return;
	commit(&ts->slot->ring, ev);
}

void ltr_event_untraced(struct ltr_tstate *ts, const char *name)
{
	size_t none = 0;
	struct ltr_rec *ev = event_new(ts, LTR_EV_UNTRACED, LTR_UNTRACED_WORDS,
				       0, 0, 0, ltr_now(), &none);

	if (!ev)
		return;
	ev->w[0] = ev->w[1] = 0;
	ltr_strlcpy((char *)ev->w, name, 8 * LTR_UNTRACED_WORDS);
	commit(&ts->slot->ring, ev);
}

/* An ENTER of fn at depth, made at t0 and shown already; false if dropped. */
static bool event_resume(struct ltr_tstate *ts, uint32_t fn, uint32_t depth,
			 uint64_t t0, uint64_t ret)
{
	size_t none = 0;
	struct ltr_rec *ev = event_new(ts, LTR_EV_ENTER, LTR_ENTER_WORDS, fn,
				       depth, LTR_EVF_RESUME, t0, &none);
	uint32_t w;

	if (!ev)
		return false;
	for (w = 0; w < LTR_ENTER_WORDS; w++)
		ev->w[w] = 0;
	ev->w[6] = ret;
	commit(&ts->slot->ring, ev);
	return true;
}

void ltr_event_inherited(struct ltr_tstate *ts)
{
	uint32_t i;

	for (i = 0; i < ts->depth; i++) {
		const struct ltr_frame *fr = &ts->frames[i];

		if (!(fr->flags & LTR_FR_HIDDEN) &&
		    !event_resume(ts, fr->fn, i, fr->t0, fr->ret))
			return;
	}
}

void ltr_event_returns_again(struct ltr_tstate *ts, uint32_t fn,
			     uint32_t depth, uint64_t t0, uint64_t rax,
			     uint64_t tsc)
{
	size_t none = 0;
	struct ltr_rec *ev;

	if (!event_resume(ts, fn, depth, t0, 0))
		return;
	ev = event_new(ts, LTR_EV_EXIT, LTR_EXIT_WORDS, fn, depth, 0, tsc,
		       &none);
	if (!ev)
		return;
	ev->w[0] = rax;
	ev->w[1] = ev->w[2] = ev->w[3] = 0;
	commit(&ts->slot->ring, ev);
}

void ltr_event_guest(struct ltr_tstate *ts, int32_t pid, enum ltr_end why)
{
	size_t none = 0;
	struct ltr_rec *ev = event_new(ts, LTR_EV_GUEST, 2, 0, 0, 0,
				       ltr_now(), &none);

	if (!ev)
		return;
	ev->w[0] = (uint64_t)pid;
	ev->w[1] = (uint64_t)why;
	commit(&ts->slot->ring, ev);
}

void ltr_event_thread(struct ltr_tstate *ts)
{
	size_t none = 0;
	struct ltr_rec *ev = event_new(ts, LTR_EV_THREAD, 1, 0, 0, 0,
				       ltr_now(), &none);

	if (!ev)
		return;
	ev->w[0] = (uint64_t)ts->slot->tid; /* as ltruss sees it */
	commit(&ts->slot->ring, ev);
}
