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
 * Lines: the interpreter's CmdFrames (what `info frame` reads, linked by
 * nextPtr from iPtr->cmdFramePtr) say which ByteCode each level runs and
 * at which instruction.  A ByteCode is described once per thread ring
 * (its command location map, and from the interpreter's lineBCPtr table
 * the file and the first line of each command, as TclGetSrcInfoForPc
 * finds them), after which a direct-mapped cache of the thread (address
 * and source, so that a ByteCode freed and another made at its address
 * is described anew) says it was; ltruss finds the line of an offset.
 *
 * Cheap and safe: per frame a few reads and a copy of its name bounded
 * to LTR_TCL_NAME_MAX bytes, every read surviving a fault; the offsets are
 * those of Tcl 8.6's tclInt.h on x86_64 (tclframes.h;
 * tests/tcl/tcllayout-check.c
 * checks them with offsetof against the installed headers).
 */
#include "capture.h"
#include "frames.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"
#include "tclframes.h"
#include "walk-read.h"

#define TCL_WALK_MAX 4096 /* frames looked at per interpreter */
#define TCL_BUCKET_MAX 64 /* hash entries looked at in a bucket */
#define TCL_LOC_MAX 1024  /* commands' lines sent per ByteCode */
#define TCL_MAP_MAX 8192  /* bytes of a location map sent */
#define TCL_PATH_MAX 1024 /* bytes of a file name sent */
#define TCL_ROOM_MAX 24576 /* bytes of an event the blobs may take */

static bool tcl_seen; /* an interpreter was made: the blobs have room */

bool ltr_tcl_object(const struct ltr_object *obj)
{
	const char *n = obj->short_name;

	return ltr_stack_size && n && ltr_strcmp(n, "libtcl8.6") == 0 &&
	       !ltr_getenv(LTR_ENV_BENCH_NO_FRAMES);
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

void ltr_tcl_forget(struct ltr_tstate *ts, bool interps)
{
	__builtin_memset(ts->tcl_seen, 0, sizeof(ts->tcl_seen));
	if (!interps)
		return;
	__builtin_memset(ts->tcl_interps, 0, sizeof(ts->tcl_interps));
	ts->tcl_ninterps = 0;
}

size_t ltr_tcl_blob_max(void)
{
	return __atomic_load_n(&tcl_seen, __ATOMIC_RELAXED) ? TCL_ROOM_MAX : 0;
}

/* The int at addr (no fault; 4-byte aligned); 0 if unreadable. */
static int32_t int_at(const struct reader *r, uintptr_t addr)
{
	return (int32_t)(word_at(r, addr & ~(uintptr_t)7) >> (addr & 4) * 8);
}

/* Copy Tcl_Obj obj's string (read with r), at most max bytes, to dst; its bytes. */
static size_t obj_string(const struct reader *r, uintptr_t obj, char *dst,
			 size_t max, bool *cut)
{
	uintptr_t bytes = obj ? word_at(r, obj + OBJ_BYTES) : 0;
	uint32_t len = bytes ? (uint32_t)int_at(r, obj + OBJ_LENGTH) : 0;

	*cut = len > max;
	return bytes_at(r, dst, bytes, *cut ? max : len);
}

/* Copy frame cf's objv[0] (objc words, read with r) into f's name. */
static void frame_name(const struct reader *r, uintptr_t cf, uint32_t objc,
		       struct ltr_tcl_frame *f)
{
	uintptr_t objv = word_at(r, cf + CF_OBJV);
	bool cut = false;

	f->name_len = objc >= 1 && objc < (1u << 31) && objv
			      ? (uint8_t)obj_string(r, word_at(r, objv), f->name,
						    LTR_TCL_NAME_MAX, &cut)
			      : 0;
	f->truncated = cut;
}

/* Is interpreter ip (read with r) alive and running something? */
static bool interp_running(const struct reader *r, uintptr_t ip)
{
	return ip && !(word_at(r, ip + IP_FLAGS) & IP_DELETED) &&
	       int_at(r, ip + IP_NUM_LEVELS) > 0;
}

/* Append the proc frames of interpreter ip (read with r) to f[*n..max). */
static void walk_procs(const struct reader *r, uintptr_t ip,
		       struct ltr_tcl_head *h, struct ltr_tcl_frame *f,
		       size_t *n, size_t max)
{
	uintptr_t cf;
	unsigned looked = 0;

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
		f[*n].frame = cf;
		f[*n].body = word_at(r, word_at(r, word_at(r, cf + CF_PROC) +
						   PROC_BODY) + OBJ_PTR1);
		f[*n].kind = (uint16_t)w;
		f[*n].level = (uint32_t)word_at(r, cf + CF_LEVEL);
		frame_name(r, cf, (uint32_t)(w >> 32), &f[*n]);
		++*n;
	}
}

/*
 * Append the bytecode CmdFrames of interpreter ip (read with r) to
 * c[*n..max), and ip to ips[] for each.
 */
static void walk_cmds(const struct reader *r, uintptr_t ip,
		      struct ltr_tcl_head *h, struct ltr_tcl_cmd *c,
		      uintptr_t *ips, size_t *n, size_t max)
{
	uintptr_t cmd;
	unsigned looked = 0;

	for (cmd = word_at(r, ip + IP_CMD_FRAME); cmd && looked < TCL_WALK_MAX;
	     cmd = word_at(r, cmd + CMD_NEXT), looked++) {
		int32_t type = int_at(r, cmd + CMD_TYPE), line = 0;
		uintptr_t code, pc = 0, start = 0, lines;

		if (type != LOCATION_BC && type != LOCATION_SOURCE)
			continue;
		code = word_at(r, cmd + CMD_CODE); /* or data.eval.path */
		if (type == LOCATION_SOURCE) {
			lines = word_at(r, cmd + CMD_LINE);
			if (lines && int_at(r, cmd + CMD_NLINE) > 0)
				line = int_at(r, lines);
		} else {
			pc = word_at(r, cmd + CMD_PC);
			start = word_at(r, code + BC_CODE_START);
		}
		if (!code || (type == LOCATION_SOURCE && line <= 0))
			continue;
		if (*n == max) {
			h->flags |= LTR_TCLF_MORE;
			return;
		}
		c[*n].frame = word_at(r, cmd + CMD_FRAME);
		c[*n].code = code;
		c[*n].pc = pc && pc >= start ? (int64_t)(pc - start) : -1;
		c[*n].line = line;
		c[*n].type = (uint32_t)type;
		ips[*n] = ip;
		++*n;
	}
}

/* The ExtCmdLoc of ByteCode code in interpreter ip's lineBCPtr (read with r), or 0. */
static uintptr_t ecl_of(const struct reader *r, uintptr_t ip, uintptr_t code)
{
	uintptr_t t = word_at(r, ip + IP_LINE_BC), e;
	uint32_t shift, mask;
	uint64_t index;
	unsigned looked = 0;

	if (!t)
		return 0;
	shift = (uint32_t)int_at(r, t + HT_DOWN_SHIFT);
	mask = (uint32_t)int_at(r, t + HT_MASK);
	if (shift > 63)
		return 0;
	/* tclHash.c's RANDOM_INDEX of a one-word key (its low 32 bits). */
	index = ((uint64_t)(uint32_t)code * 1103515245u >> shift) & mask;
	for (e = word_at(r, word_at(r, t + HT_BUCKETS) + index * 8);
	     e && looked < TCL_BUCKET_MAX; e = word_at(r, e + HE_NEXT), looked++)
		if (word_at(r, e + HE_KEY) == code)
			return word_at(r, e + HE_VALUE);
	return 0;
}

/*
 * The (srcOffset, first line) pairs of ExtCmdLoc ecl's commands at p (at
 * most room bytes); returns how many.
 */
static uint32_t code_lines(const struct reader *r, uintptr_t ecl, int32_t *p,
			   size_t room)
{
	uintptr_t loc = word_at(r, ecl + ECL_LOC);
	int32_t nuloc = int_at(r, ecl + ECL_NULOC);
	uint32_t n = 0;

	while (loc && n < (uint32_t)(nuloc > 0 ? nuloc : 0) && n < TCL_LOC_MAX &&
	       (n + 1) * 8 <= room) {
		uintptr_t at = loc + n * LOC_SIZE, line = word_at(r, at + LOC_LINE);

		p[2 * n] = int_at(r, at + LOC_SRC_OFFSET);
		p[2 * n + 1] = line ? int_at(r, line) : -1;
		n++;
	}
	return n;
}

/* Copy ByteCode code's location map (read with r) into p (room bytes) and c. */
static void code_map(const struct reader *r, uintptr_t code,
		     unsigned char *p, size_t room, struct ltr_tcl_code *c)
{
	uintptr_t d = word_at(r, code + BC_CODE_DELTA);
	uintptr_t l = word_at(r, code + BC_CODE_LENGTH);
	uintptr_t s = word_at(r, code + BC_SRC_DELTA);
	uintptr_t e = word_at(r, code + BC_SRC_LENGTH);

	c->map_len = c->length_at = c->srcdelta_at = 0;
	if (!d || l < d || s < l || e < s || e - d > TCL_MAP_MAX || e - d > room)
		return;
	if (mem_at(r, p, d, e - d) != e - d)
		return;
	c->map_len = (uint32_t)(e - d);
	c->length_at = (uint32_t)(l - d);
	c->srcdelta_at = (uint32_t)(s - d);
}

/*
 * Write the TCLCODE blob of CmdFrame cmd of interpreter ip (read with r)
 * at dst (room bytes): its size, 0 if no room.  A ByteCode has lines if
 * it is a file's; a file evaluated directly is described by its name only.
 */
static size_t code_blob(const struct reader *r, uintptr_t ip,
			const struct ltr_tcl_cmd *cmd, void *dst, size_t room)
{
	struct ltr_blob *b = dst;
	struct ltr_tcl_code *c = (struct ltr_tcl_code *)b->data;
	unsigned char *p = (unsigned char *)(c + 1);
	size_t head = sizeof(*b) + sizeof(*c), left;
	uintptr_t code = cmd->code, ecl = 0, path = code;
	bool cut;

	if (room < head + 64)
		return 0;
	left = room - head - 7;
	__builtin_memset(c, 0, sizeof(*c));
	c->code = code;
	c->type = LOCATION_SOURCE;
	if (cmd->type == LOCATION_BC) {
		ecl = ecl_of(r, ip, code);
		c->ncmds = (uint32_t)int_at(r, code + BC_NUM_COMMANDS);
		c->type = ecl ? (uint8_t)int_at(r, ecl + ECL_TYPE) : 0;
		path = ecl ? word_at(r, ecl + ECL_PATH) : 0;
	}
	if (c->type == LOCATION_SOURCE && ecl) { /* a file's lines */
		c->nloc = code_lines(r, ecl, (int32_t *)p, left);
		p += c->nloc * 8, left -= c->nloc * 8;
		code_map(r, code, p, left, c);
		p += c->map_len, left -= c->map_len;
	}
	if (c->type == LOCATION_SOURCE) {
		c->path_len = (uint16_t)obj_string(r, path, (char *)p,
						   left < TCL_PATH_MAX ? left
								       : TCL_PATH_MAX,
						   &cut);
		p += c->path_len;
	}
	b->type = LTR_BLOB_TCLCODE;
	b->index = 0;
	b->flags = 0;
	b->reserved = 0;
	b->len = (uint32_t)(p - b->data);
	return (sizeof(*b) + b->len + 7) & ~(size_t)7;
}

/*
 * Was cmd's ByteCode or file name (read with r) described in ts's ring
 * already?  Note it as now.
 */
static bool code_seen(const struct reader *r, struct ltr_tstate *ts,
		      const struct ltr_tcl_cmd *cmd)
{
	uintptr_t code = cmd->code;
	uintptr_t *e = ts->tcl_seen[(code >> 4) % LTR_TCL_SEEN];
	uintptr_t source = word_at(r, code + (cmd->type == LOCATION_BC
						      ? BC_SOURCE : OBJ_BYTES));

	if (e[0] == code && e[1] == source)
		return true;
	e[0] = code;
	e[1] = source;
	return false;
}

/*
 * The TCLFRAMES blob of thread ts's interpreters at dst, then TCLCODE
 * blobs, read with r, at most room bytes; returns their size.
 */
static size_t walk(const struct reader *r, struct ltr_tstate *ts, void *dst,
		   size_t room)
{
	struct ltr_blob *b = dst;
	struct ltr_tcl_head *h = (struct ltr_tcl_head *)b->data;
	struct ltr_tcl_frame *f = (struct ltr_tcl_frame *)(h + 1);
	struct ltr_tcl_cmd *c;
	uintptr_t ips[LTR_TCL_FRAMES_MAX], running[LTR_TCL_INTERPS];
	size_t nf = 0, nc = 0, ni = 0, i, size, made = ts->tcl_ninterps;

	if (room < sizeof(*b) + sizeof(*h) +
			   LTR_TCL_FRAMES_MAX * (sizeof(*f) + sizeof(*c)))
		return 0;
	/* Newest first: an interpreter made later runs inside an older one. */
	for (i = 0; i < made && i < LTR_TCL_INTERPS; i++) {
		uintptr_t ip = ts->tcl_interps[(made - 1 - i) % LTR_TCL_INTERPS];

		if (interp_running(r, ip))
			running[ni++] = ip;
	}
	h->flags = 0;
	for (i = 0; i < ni; i++)
		walk_procs(r, running[i], h, f, &nf, LTR_TCL_FRAMES_MAX);
	c = (struct ltr_tcl_cmd *)(f + nf);
	for (i = 0; i < ni; i++)
		walk_cmds(r, running[i], h, c, ips, &nc, LTR_TCL_FRAMES_MAX);
	if (!nf && !nc)
		return 0;
	h->nprocs = (uint16_t)nf;
	h->ncmds = (uint16_t)nc;
	b->type = LTR_BLOB_TCLFRAMES;
	b->index = 0;
	b->flags = 0;
	b->reserved = 0;
	b->len = (uint32_t)(sizeof(*h) + nf * sizeof(*f) + nc * sizeof(*c));
	size = (sizeof(*b) + b->len + 7) & ~(size_t)7;
	/* The ByteCodes the ring has not described yet, while room lasts. */
	for (i = 0; i < nc; i++) {
		size_t got;

		if (code_seen(r, ts, &c[i]))
			continue;
		got = code_blob(r, ips[i], &c[i],
				(unsigned char *)dst + size, room - size);
		if (!got) {
			ts->tcl_seen[(c[i].code >> 4) % LTR_TCL_SEEN][0] = 0;
			break;
		}
		size += got;
	}
	return size;
}

size_t ltr_tcl_frames(void *dst, size_t room, struct ltr_tstate *ts)
{
	struct reader rd = { ts->pid, false };
	size_t size;

	if (room > TCL_ROOM_MAX)
		room = TCL_ROOM_MAX;
	rd.fast = ltr_fault_series_begin();
	size = walk(&rd, ts, dst, room);
	if (rd.fast)
		ltr_fault_series_end();
	return size;
}
