/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclframes.c: -k in a Tcl 8.6 process, the procs its interpreters run.
 *
 * A native stack through Tcl 8.6 says only TclNRRunCallbacks and
 * TclExecuteByteCode: proc-to-proc calls do not recurse on the C stack
 * (8 Tcl levels sit on 2 activations).  What runs is in the interpreter:
 * iPtr->framePtr is the CallFrame of the innermost proc, each frame's
 * callerPtr the one that called it (what `info level` shows; uplevel
 * moves varFramePtr, not framePtr), and a proc's objv[0] the name it was
 * called by.  Frames that are no proc (namespace eval) are passed over.
 *
 * Tcl keeps no global current interpreter, and an interpreter belongs to
 * the thread that made it: the hook of Tcl_CreateInterp (bound where the
 * program calls it through its PLT, as tclsh and embedders do) notes each
 * one in the thread's state; a call walks those of its thread, newest
 * first, passing over one deleted.  A child interpreter made with
 * `interp create` (libtcl's own call, no PLT) is not seen.
 *
 * Cheap and safe: per frame three reads and a copy of its name bounded
 * to LTR_TCL_NAME_MAX bytes, every read surviving a fault; the offsets are
 * those of Tcl 8.6's tclInt.h on x86_64 (tclframes.h;
 * tests/tcl/tcllayout-check.c
 * checks them with offsetof against the installed headers).
 */
#include "interposer.h"
#include "tclframes.h"
#include "walk-read.h"

#define TCL_WALK_MAX 4096 /* frames looked at per interpreter */

static bool tcl_seen; /* an interpreter was made: the blob has room */

bool ltr_tcl_object(const struct ltr_object *obj)
{
	const char *n = obj->short_name;

	return ltr_stack_size && n && ltr_strcmp(n, "libtcl8.6") == 0;
}

void *ltr_hook_tcl_create_interp(void)
{
	void *interp = ((void *(*)(void))ltr_hook_real[LTR_H_TCL_CREATE_INTERP])();
	struct ltr_tstate *ts = ltr_thread_self();

	if (interp && ts) {
		ts->tcl_interps[ts->tcl_ninterps % LTR_TCL_INTERPS] =
			(uintptr_t)interp;
		ts->tcl_ninterps++;
		__atomic_store_n(&tcl_seen, true, __ATOMIC_RELAXED);
	}
	return interp;
}

void ltr_tcl_forget(struct ltr_tstate *ts)
{
	__builtin_memset(ts->tcl_interps, 0, sizeof(ts->tcl_interps));
	ts->tcl_ninterps = 0;
}

size_t ltr_tcl_blob_max(void)
{
	return __atomic_load_n(&tcl_seen, __ATOMIC_RELAXED)
		       ? sizeof(struct ltr_blob) + sizeof(struct ltr_tcl_head) +
				 LTR_TCL_FRAMES_MAX * sizeof(struct ltr_tcl_frame)
		       : 0;
}

/* Copy frame cf's objv[0] (objc words, read with r) into f's name. */
static void frame_name(const struct reader *r, uintptr_t cf, uint32_t objc,
		       struct ltr_tcl_frame *f)
{
	uintptr_t objv = word_at(r, cf + CF_OBJV), obj, bytes;
	uint64_t len;

	f->name_len = 0;
	f->truncated = 0;
	obj = objc >= 1 && objc < (1u << 31) && objv ? word_at(r, objv) : 0;
	bytes = obj ? word_at(r, obj + OBJ_BYTES) : 0;
	if (!bytes)
		return;
	len = (uint32_t)word_at(r, obj + OBJ_LENGTH);
	if (len > LTR_TCL_NAME_MAX) {
		len = LTR_TCL_NAME_MAX;
		f->truncated = 1;
	}
	f->name_len = (uint8_t)mem_at(r, f->name, bytes, len);
}

/* Append the proc frames of interpreter ip (read with r) to h's f[*n..max). */
static void walk_interp(const struct reader *r, uintptr_t ip,
			struct ltr_tcl_head *h, struct ltr_tcl_frame *f,
			size_t *n, size_t max)
{
	uintptr_t cf;
	unsigned looked = 0;

	if (!ip || (word_at(r, ip + IP_FLAGS) & IP_DELETED) ||
	    !(uint32_t)word_at(r, ip + IP_NUM_LEVELS))
		return;
	h->interps++;
	for (cf = word_at(r, ip + IP_FRAME); cf && looked < TCL_WALK_MAX;
	     cf = word_at(r, cf + CF_CALLER), looked++) {
		/* isProcCallFrame and objc, two ints in one word. */
		uint64_t w = word_at(r, cf + CF_KIND);

		if (!(uint32_t)w)
			continue; /* no proc: namespace eval, the global frame */
		if (*n == max) {
			h->flags |= LTR_TCLF_MORE;
			return;
		}
		f[*n].kind = (uint16_t)w;
		f[*n].level = (uint32_t)word_at(r, cf + CF_LEVEL);
		f[*n].reserved = 0;
		frame_name(r, cf, (uint32_t)(w >> 32), &f[*n]);
		++*n;
	}
}

size_t ltr_tcl_frames(void *dst, size_t room, struct ltr_tstate *ts)
{
	struct ltr_blob *b = dst;
	struct ltr_tcl_head *h = (struct ltr_tcl_head *)b->data;
	struct ltr_tcl_frame *f = (struct ltr_tcl_frame *)(h + 1);
	struct reader rd = { ts->pid, false };
	size_t n = 0, max, i, made = ts->tcl_ninterps;

	if (!made || room < sizeof(*b) + sizeof(*h) + sizeof(*f))
		return 0;
	max = (room - sizeof(*b) - sizeof(*h)) / sizeof(*f);
	if (max > LTR_TCL_FRAMES_MAX)
		max = LTR_TCL_FRAMES_MAX;
	h->interps = 0;
	h->flags = 0;
	rd.fast = ltr_fault_series_begin();
	/* Newest first: an interpreter made later runs inside an older one. */
	for (i = 0; i < made && i < LTR_TCL_INTERPS; i++)
		walk_interp(&rd, ts->tcl_interps[(made - 1 - i) % LTR_TCL_INTERPS],
			    h, f, &n, max);
	if (rd.fast)
		ltr_fault_series_end();
	if (!n)
		return 0;
	b->type = LTR_BLOB_TCLFRAMES;
	b->index = 0;
	b->flags = 0;
	b->reserved = 0;
	b->len = (uint32_t)(sizeof(*h) + n * sizeof(*f));
	return (sizeof(*b) + b->len + 7) & ~(size_t)7;
}
