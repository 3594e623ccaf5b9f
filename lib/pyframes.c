/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyframes.c: -k in a CPython process, the Python frames the thread runs.
 *
 * A native stack through the interpreter says only _PyEval_EvalFrameDefault.
 * What it was running is in the thread's PyThreadState: tstate->cframe is
 * the _PyCFrame of the innermost C activation of the evaluation loop, its
 * current_frame the innermost _PyInterpreterFrame, and each frame's
 * previous the one that called it, whatever C activation runs that one.
 * Each activation keeps its _PyCFrame on its own C stack, so the address
 * of the _PyCFrame running a frame tells ltruss which native frame it
 * belongs to (the one whose [sp, CFA) holds it): no counting.  A frame
 * marks where its activation's frames end (3.11: is_entry, after it; 3.12:
 * an entry frame owned by the C stack, not a Python frame itself), and the
 * next frames are the previous _PyCFrame's.
 *
 * Cheap: per frame one read of the frame's head (code object, previous,
 * last instruction), sent as (code, cframe, offset); names and lines are
 * ltruss's to find.  A code object is described (its qualified name, file
 * name, first line and line table) the first time the thread's ring names
 * it, after which a direct-mapped cache of the thread (code address and
 * co_qualname, so a freed code object's successor at the same address is
 * described anew) says it was.  A call deep in Python mostly runs under
 * the outer frames of the thread's call before it: the thread keeps the
 * frames it sent last, and the blob holds only those that differ, and
 * how many outer frames of the last blob follow them (lib/session.h,
 * LTR_PYF_CHAIN): a few bytes, not 24 a frame, for ltruss to read, and
 * only the new frames' code objects looked up.  The walk still reads
 * every frame, and reuses only outer frames whose every word its record
 * is made of (code, last instruction, _PyCFrame through the entry flag)
 * is what it was, and that end where the last ones did, so the frames
 * ltruss rebuilds are those the walk found; what makes it cheap is in
 * cache_run.  Every read survives a fault: a frame chain half built
 * (start-up, finalization, a signal handler) gives fewer frames, never a
 * crash.
 *
 * Which thread state: the GIL holder (3.11's gilstate.tstate_current) if
 * it is this thread, else the interpreters' lists of thread states, by
 * thread_id (glibc's pthread_t, our thread pointer).  Never the program's
 * pthread_getspecific: called from the audit namespace it checks the key
 * against that namespace's table and stores NULL in the program's slot.
 *
 * The offsets are those of CPython's internal headers (offsetof, per
 * version), checked against them by tests/unit/pylayout-check.c when the
 * headers are installed.  Other versions, and debug builds (other object
 * headers), get native frames only and one warning.
 */
#include <elf.h>

#include "capture.h"
#include "frames.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"
#include "pyframes.h"
#include "walk-read.h"

#define PY_THREADS_MAX 1024 /* thread states looked at per call */
#define PY_NAME_MAX 512     /* bytes of a name sent */
#define PY_LINETABLE_MAX 16384 /* bytes of a line table sent */
#define PY_ROOM_MAX 24576   /* bytes of an event the blobs may take */

static const struct ltr_py_layout *py_layout;
static uintptr_t py_runtime;   /* &_PyRuntime */
static uint32_t py_version;    /* Py_Version */

/* Python's "3.X" of version v into buf (at least 8 bytes). */
static void version_text(char *buf, uint32_t v)
{
	unsigned minor = (v >> 16) & 0xff;
	size_t n = 0;

	buf[n++] = (char)('0' + ((v >> 24) & 0xf));
	buf[n++] = '.';
	if (minor >= 10)
		buf[n++] = (char)('0' + minor / 10 % 10);
	buf[n++] = (char)('0' + minor % 10);
	buf[n] = '\0';
}

/*
 * Does layout L put the words of a frame the walk reads (its code,
 * previous, last instruction, and is_entry (3.11) or owner (3.12)) where
 * the walk, compiled for 3.11's and 3.12's, loads them?
 */
static bool frame_words(const struct ltr_py_layout *L)
{
	if (L->fr_owner)
		return L->fr_code == LTR_PY312_FR_CODE &&
		       L->fr_previous == LTR_PY312_FR_PREVIOUS &&
		       L->fr_prev_instr == LTR_PY312_FR_PREV_INSTR &&
		       L->fr_owner == LTR_PY312_FR_OWNER;
	return L->fr_code == LTR_PY311_FR_CODE &&
	       L->fr_previous == LTR_PY311_FR_PREVIOUS &&
	       L->fr_prev_instr == LTR_PY311_FR_PREV_INSTR &&
	       L->fr_is_entry == LTR_PY311_FR_IS_ENTRY;
}

void ltr_py_object(const struct ltr_object *obj)
{
	const ElfW(Sym) *rt, *ver;
	char why[160], v[8];
	uint32_t version = 0;

	if (!ltr_stack_size || py_runtime ||
	    ltr_getenv(LTR_ENV_BENCH_NO_FRAMES))
		return;
	rt = ltr_dynamic_find(obj, "_PyRuntime", STT_OBJECT);
	ver = rt ? ltr_dynamic_find(obj, "Py_Version", STT_OBJECT) : NULL;
	if (!ver || !ltr_object_holds(obj, obj->bias + ver->st_value, 4))
		return;
	__builtin_memcpy(&version,
			 (const void *)(obj->bias + ver->st_value), 4);
	py_runtime = obj->bias + rt->st_value;
	py_version = version;
	py_layout = ltr_py_layout_of(version);
	/* A debug build's objects have two more words: not ours to read. */
	if (py_layout && ltr_dynamic_find(obj, "_Py_NegativeRefcount", STT_FUNC))
		py_layout = NULL;
	if (py_layout && frame_words(py_layout))
		return;
	py_layout = NULL;
	version_text(v, version);
	ltr_strlcpy(why, "Python ", sizeof(why));
	ltr_strlcpy(why + ltr_strlen(why), v, sizeof(why) - ltr_strlen(why));
	ltr_strlcpy(why + ltr_strlen(why),
		    ": -k shows its native frames only (Python frames need 3.11 or 3.12, not a debug build)",
		    sizeof(why) - ltr_strlen(why));
	ltr_warn("warning", why);
}

/* Does thread state t belong to the thread whose pthread_t is tp? */
static bool tstate_is(const struct reader *r, uintptr_t t, uintptr_t tp)
{
	return t && word_at(r, t + py_layout->ts_thread_id) == tp;
}

/* The PyThreadState of thread ts (read with r), or 0. */
static uintptr_t tstate_of(const struct reader *r, const struct ltr_tstate *ts)
{
	const struct ltr_py_layout *L = py_layout;
	uintptr_t interp, t;
	unsigned looked = 0;

	if (L->rt_tstate_current) {
		t = word_at(r, py_runtime + L->rt_tstate_current);
		if (tstate_is(r, t, ts->tp))
			return t;
	}
	/* Interpreters count too: a list that loops must end. */
	for (interp = word_at(r, py_runtime + L->rt_interp_head);
	     interp && looked < PY_THREADS_MAX;
	     interp = word_at(r, interp + L->interp_next), looked++) {
		for (t = word_at(r, interp + L->interp_threads);
		     t && looked < PY_THREADS_MAX;
		     t = word_at(r, t + L->ts_next), looked++)
			if (tstate_is(r, t, ts->tp))
				return t;
	}
	return 0;
}

/*
 * Append the characters of str object s to *p (at most room bytes):
 * its kind in *kind; returns their bytes.  Compact strings only (every
 * name and file name of a code object is one).
 */
static size_t str_copy(const struct reader *r, uintptr_t s, unsigned char *p, size_t room,
		       uint8_t *kind)
{
	const struct ltr_py_layout *L = py_layout;
	uint64_t len = word_at(r, s + L->str_length);
	uint32_t state = 0;
	size_t bytes;

	*kind = 1;
	if (!s || mem_at(r, &state, s + L->str_state, 4) != 4 ||
	    !(state & 0x20) /* compact */)
		return 0;
	*kind = (uint8_t)((state >> 2) & 7);
	if (*kind != 1 && *kind != 2 && *kind != 4)
		return *kind = 1, 0;
	bytes = len * *kind;
	if (bytes > room)
		bytes = room / *kind * *kind;
	s += (state & 0x40) /* ascii */ ? L->str_ascii_data : L->str_data;
	return mem_at(r, p, s, bytes) / *kind * *kind;
}

/* Write the PYCODE blob of code at dst (room bytes): its size, 0 if no room. */
static size_t code_blob(const struct reader *r, uintptr_t code, void *dst, size_t room)
{
	const struct ltr_py_layout *L = py_layout;
	struct ltr_blob *b = dst;
	struct ltr_py_code *c = (struct ltr_py_code *)b->data;
	unsigned char *p = (unsigned char *)(c + 1);
	size_t head = sizeof(*b) + sizeof(*c), left, n;
	uintptr_t lt;
	uint64_t ltlen;

	if (room < head + 64)
		return 0;
	left = room - head - 7;
	c->code = code;
	c->firstlineno = 0;
	mem_at(r, &c->firstlineno, code + L->co_firstlineno, 4);
	n = str_copy(r, word_at(r, code + L->co_qualname), p,
		     left < PY_NAME_MAX ? left : PY_NAME_MAX, &c->qualname_kind);
	c->qualname_len = (uint16_t)n;
	p += n, left -= n;
	n = str_copy(r, word_at(r, code + L->co_filename), p,
		     left < PY_NAME_MAX * 2 ? left : PY_NAME_MAX * 2,
		     &c->filename_kind);
	c->filename_len = (uint16_t)n;
	p += n, left -= n;
	lt = word_at(r, code + L->co_linetable);
	ltlen = lt ? word_at(r, lt + L->bytes_size) : 0;
	if (ltlen > left || ltlen > PY_LINETABLE_MAX)
		ltlen = 0; /* lines unknown rather than wrong */
	c->linetable_len = ltlen ? (uint32_t)mem_at(r, p, lt + L->bytes_data,
							  ltlen) : 0;
	p += c->linetable_len;
	c->reserved = 0;
	b->type = LTR_BLOB_PYCODE;
	b->index = 0;
	b->flags = 0;
	b->reserved = 0;
	b->len = (uint32_t)(p - b->data);
	return (sizeof(*b) + b->len + 7) & ~(size_t)7;
}

/*
 * Was code described in ts's ring already?  Note it as now.  The cache
 * is forgotten every LTR_PY_FORGET calls that describe nothing: a code
 * object freed and another made at its address is described anew then.
 */
static bool code_seen(struct ltr_tstate *ts, uintptr_t code)
{
	uintptr_t *e = &ts->py_seen[(code >> 4) % LTR_PY_SEEN];

	if (*e == code)
		return true;
	*e = code;
	return false;
}

/* Forget the code objects ts described (a new process, a new owner). */
void ltr_py_forget(struct ltr_tstate *ts)
{
	__builtin_memset(ts->py_seen, 0, sizeof(ts->py_seen));
	ts->py_nchain = 0;
}

size_t ltr_py_blob_max(void)
{
	return py_layout ? PY_ROOM_MAX : 0;
}

/* The byte at offset off of a frame, in w, its word at offset off & ~7. */
static inline uint8_t flag_byte(uint64_t w, unsigned off)
{
	return (uint8_t)(w >> (off & 7) * 8);
}

/*
 * The run frames matched last, before the n-th walked, the last of them
 * at c[mq]: not reused after all, into nw[] with the others walked.
 */
static inline void run_keep(struct ltr_py_walked *nw,
			    const struct ltr_py_walked *c, size_t n, size_t run,
			    long mq)
{
	size_t i;

	for (i = n - run; i < n; i++)
		nw[i] = c[mq + (long)(n - 1 - i)];
}

/*
 * The code object, previous frame and last instruction of the frame at
 * frame, and its flag byte (3.11: is_entry; 3.12: owner), read with r, at
 * the offsets of the version (frame_words checked the layout's); false if
 * it is unreadable.  In a series, frame must be at least 4096.  Inlined
 * for each fast and owned.
 */
static inline __attribute__((always_inline)) bool
frame_load(const struct reader *r, bool owned, uintptr_t frame, uint64_t *code,
	   uint64_t *prev, uint64_t *instr, uint64_t *flag)
{
	const unsigned fl = owned ? LTR_PY312_FR_OWNER : LTR_PY311_FR_IS_ENTRY;
	const uint32_t off[4] = {
		owned ? LTR_PY312_FR_CODE : LTR_PY311_FR_CODE,
		owned ? LTR_PY312_FR_PREVIOUS : LTR_PY311_FR_PREVIOUS,
		owned ? LTR_PY312_FR_PREV_INSTR : LTR_PY311_FR_PREV_INSTR,
		fl & ~7u
	};
	uint64_t w[4];

	if (r->fast)
		return words3b_series(frame, off[0], off[1], off[2], fl, code,
				      prev, instr, flag);
	if (!words4_at(r, frame, off, w))
		return false;
	*code = w[0], *prev = w[1], *instr = w[2];
	*flag = flag_byte(w[3], fl);
	return true;
}

/*
 * From frame (run by *cf), the frames that are ts's cached ones c[q],
 * c[q - 1]... as far as c[lim]: returns how many; *frame and *cf become
 * those of the frame after them.  A frame matches when its code object,
 * last instruction and flag are the cached ones and its previous is the
 * cached frame after it (the last cached frame: whatever it is); its
 * _PyCFrame is then the cached one too, checked where it changes (3.11:
 * after an entry frame).  Each frame's address is known only once the
 * one inside it was read, so a plain walk waits for each load in turn:
 * here the next frame's address is the cached one, which the processor,
 * predicting the test that the previous read is it, loads ahead (the
 * test is one of an OR of differences, from which the compiler cannot
 * take the read address for the cached one: see the loads in objdump).
 * The frames read are the walk's all the same: a cached address is
 * followed only when equal to the one read, and a cached frame was read
 * before: it is at least 4096.
 */
static inline __attribute__((always_inline)) long
cache_run(const struct reader *r, bool owned, const struct ltr_py_walked *c,
	  long q, long lim, uintptr_t *framep, uintptr_t *cfp)
{
	const unsigned cf_previous = py_layout->cf_previous;
	const struct ltr_py_walked *e = &c[q], *stop = &c[lim > 0 ? lim : 1];
	uintptr_t frame = *framep, cf = *cfp, next;
	uint64_t code, prev, instr, flag;

	if (cf != e->cframe)
		return 0;
	while (e >= stop) {
		next = e[-1].frame;
		if (!frame_load(r, owned, frame, &code, &prev, &instr, &flag) ||
		    ((code ^ e->code) | (prev ^ next) | (instr ^ e->instr) |
		     (flag ^ e->flag)))
			goto out;
		e--;
		frame = next;
		if (!owned && unlikely(flag)) {
			cf = word_at(r, cf + cf_previous);
			if (cf != e->cframe)
				goto out;
		}
	}
	/* The last cached frame, if the run may take it. */
	if (e == c && !lim &&
	    frame_load(r, owned, frame, &code, &prev, &instr, &flag) &&
	    !((code ^ e->code) | (instr ^ e->instr) | (flag ^ e->flag))) {
		if (!owned && flag)
			cf = word_at(r, cf + cf_previous);
		e--;
		frame = prev;
	}
out:
	*framep = frame;
	*cfp = cf;
	return q - (long)(e - c);
}

/*
 * Thread ts's frames from frame (run by the _PyCFrame cf), at most max
 * (then LTR_PYF_MORE in *flags), read by process pid's reader whose fast
 * is fast, in a layout marking an activation's first frame by its owner
 * (3.12: owned) or by is_entry (3.11).  Returns their count n; *outer:
 * how many of them, outermost, are the frames ts sent last (py_chain[],
 * outermost first) as they ended; ts->py_walk[0..n - *outer) the others,
 * innermost first.  Frames that match the cached ones (cache_run) are
 * noted by count only (a run, the last at c[mq]), and copied from the
 * cache into py_walk[] when the run turns out not to end the chain.
 * Inlined once for each fast and owned, so that the loops test neither.
 */
static inline __attribute__((always_inline)) size_t
read_frames(int pid, bool fast, bool owned, struct ltr_tstate *ts,
	    uintptr_t frame, uintptr_t cf, size_t max, uint32_t *flags,
	    size_t *outer)
{
	const struct ltr_py_layout *L = py_layout;
	const struct reader rd = { pid, fast }, *r = &rd;
	const unsigned cf_previous = L->cf_previous;
	const uint8_t cstack = L->owner_cstack;
	const struct ltr_py_walked *c = ts->py_chain;
	struct ltr_py_walked *nw = ts->py_walk;
	/* c[q]: the cached frame this one may be. */
	long q = (long)ts->py_nchain - 1, mq = -1, got;
	size_t n = 0, run = 0;
	uint64_t code, prev, instr, flag;

	for (;;) {
		/* Frames of the cache deeper than this one are gone. */
		while (q >= 0 && c[q].frame > frame)
			q--;
		if (!frame || !cf)
			break;
		/* The frames the cache foresees, from this one on. */
		if (q >= 0 && c[q].frame == frame && n < max) {
			/* A run is of frames one after the other in the cache too. */
			if (run && q != mq - 1) {
				run_keep(nw, c, n, run, mq);
				run = 0;
			}
			got = cache_run(r, owned, c, q,
					q + 1 - (long)(max - n) > 0
						? q + 1 - (long)(max - n)
						: 0,
					&frame, &cf);
			if (got) {
				run += (size_t)got;
				n += (size_t)got;
				mq = q - got + 1;
				q -= got;
				continue;
			}
		}
		/* One frame, the plain way. */
		if ((fast && frame < 4096) ||
		    !frame_load(r, owned, frame, &code, &prev, &instr, &flag) ||
		    !code)
			break;
		/* 3.12: the entry frame of an activation is no Python frame. */
		if (owned && flag == cstack) {
			cf = word_at(r, cf + cf_previous);
			frame = prev;
			continue;
		}
		if (n == max) {
			*flags |= LTR_PYF_MORE;
			break;
		}
		run_keep(nw, c, n, run, mq);
		run = 0;
		nw[n++] = (struct ltr_py_walked){ frame, code, instr, flag,
						  cf };
		if (!owned && flag)
			cf = word_at(r, cf + cf_previous);
		frame = prev;
		/* This frame took the cached one's place: that one is gone. */
		if (q >= 0 && c[q].frame == nw[n - 1].frame)
			q--;
	}
	/* Reused: the last run, if the cache ends with it as the walk does. */
	if (run && mq == 0) {
		*outer = run;
	} else {
		run_keep(nw, c, n, run, mq);
		*outer = 0;
	}
	return n;
}

/*
 * ts's frames sent last become the n just walked: the last outer of
 * py_chain[] (reused), after py_walk[0..n - outer); outermost first, so
 * that only those that differ are written.
 */
static void chain_keep(struct ltr_tstate *ts, size_t n, size_t outer)
{
	size_t j;

	for (j = outer; j < n; j++)
		ts->py_chain[j] = ts->py_walk[n - 1 - j];
	ts->py_nchain = (uint32_t)n;
}

/* The record of frame w, in f. */
static inline void frame_record(struct ltr_py_frame *f,
				const struct ltr_py_walked *w)
{
	const uint64_t co_code = py_layout->co_code;

	f->code = w->code;
	f->cframe = w->cframe;
	f->lasti = w->instr >= w->code + co_code
			   ? (int64_t)(w->instr - w->code - co_code)
			   : -2;
}

/*
 * Write PYCODE blobs for the code objects of f[0..n) ts's ring has not
 * described at dst, at most room bytes; returns their size.  One left
 * for want of room is described by a later call: the next blob reuses no
 * frames, so that every frame's code object is looked at again.
 */
static size_t describe(const struct reader *r, struct ltr_tstate *ts,
		       const struct ltr_py_frame *f, size_t n,
		       unsigned char *dst, size_t room)
{
	size_t size = 0, i;

	for (i = 0; i < n; i++) {
		size_t got;

		if (likely(code_seen(ts, f[i].code)))
			continue;
		got = code_blob(r, f[i].code, dst + size, room - size);
		if (!got) {
			ts->py_seen[(f[i].code >> 4) % LTR_PY_SEEN] = 0;
			ts->py_nchain = 0;
			break;
		}
		size += got;
	}
	return size;
}

/*
 * The PYFRAMES blob of thread ts's frames at dst, then PYCODE blobs, read
 * with r, at most room bytes; returns their size.  The blob holds the
 * frames that differ from the last ones sent; the code objects take only
 * the room the whole blob would have left (ltruss rebuilds it in place).
 */
static size_t walk(const struct reader *r, struct ltr_tstate *ts, void *dst,
		   size_t room)
{
	const struct ltr_py_layout *L = py_layout;
	struct ltr_blob *b = dst;
	struct ltr_py_head *h = (struct ltr_py_head *)b->data;
	struct ltr_py_chain *ch = (struct ltr_py_chain *)(h + 1);
	struct ltr_py_frame *f = (struct ltr_py_frame *)(ch + 1);
	uintptr_t t = tstate_of(r, ts), cf, fr;
	size_t n, max, size, whole, outer, i;

	cf = t ? word_at(r, t + L->ts_cframe) : 0;
	fr = cf ? word_at(r, cf + L->cf_current) : 0;
	/* Half the room for frames, the rest for code objects to describe. */
	max = (room / 2 - sizeof(*b) - sizeof(*h) - sizeof(*ch)) / sizeof(*f);
	if (max > LTR_PY_FRAMES_MAX)
		max = LTR_PY_FRAMES_MAX;
	h->version = py_version;
	h->flags = LTR_PYF_CHAIN;
	if (r->fast)
		n = L->fr_owner ? read_frames(r->pid, true, true, ts, fr, cf,
					      max, &h->flags, &outer)
				: read_frames(r->pid, true, false, ts, fr, cf,
					      max, &h->flags, &outer);
	else
		n = L->fr_owner ? read_frames(r->pid, false, true, ts, fr, cf,
					      max, &h->flags, &outer)
				: read_frames(r->pid, false, false, ts, fr, cf,
					      max, &h->flags, &outer);
	if (!n)
		return 0;
	for (i = 0; i < n - outer; i++)
		frame_record(&f[i], &ts->py_walk[i]);
	chain_keep(ts, n, outer);
	ch->seq = ++ts->py_seq;
	ch->outer = (uint32_t)outer;
	b->type = LTR_BLOB_PYFRAMES;
	b->index = 0;
	b->flags = 0;
	b->reserved = 0;
	b->len = (uint32_t)(sizeof(*h) + sizeof(*ch) +
			    (n - outer) * sizeof(*f));
	size = (sizeof(*b) + b->len + 7) & ~(size_t)7;
	whole = size + outer * sizeof(*f);
	return size + describe(r, ts, f, n - outer,
			       (unsigned char *)dst + size, room - whole);
}

size_t ltr_py_frames(void *dst, size_t room, struct ltr_tstate *ts)
{
	const struct ltr_py_layout *L = py_layout;
	struct reader rd = { ts->pid, false }, *r = &rd;
	size_t size;

	if (!L || room < sizeof(struct ltr_blob) + sizeof(struct ltr_py_head) +
			     sizeof(struct ltr_py_frame))
		return 0;
	if (room > PY_ROOM_MAX)
		room = PY_ROOM_MAX;
	if (++ts->py_calls % LTR_PY_FORGET == 0)
		ltr_py_forget(ts);
	rd.fast = ltr_fault_series_begin();
	size = walk(r, ts, dst, room);
	if (rd.fast)
		ltr_fault_series_end();
	return size;
}
