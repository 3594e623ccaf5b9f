/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack.c: unwind the stack copy of a call (-k) with elfutils' libdw.
 *
 * The interposer gives, with each call's entry, the caller's callee-saved
 * registers, its return address and a copy of the top of its stack
 * (lib/stack-copy.c).  That is all a DWARF unwinder needs: libdw's
 * dwfl_attach_state takes callbacks for the initial registers and for
 * memory reads, and here they read only the copy, so the traced program
 * is never read again, and a call unwinds the same live or from a file.
 * The code and its call-frame information (.eh_frame, .debug_frame) come
 * from the files of the objects the process had loaded, at the addresses
 * the object map says; their separate debug files, from where
 * debuginfo.c looks, never from where the files say.
 *
 * The first frame is the caller just after the call: its registers are
 * those the callee must give back, its stack pointer the slot above the
 * return address.  Its pc is given as the return address minus one, a
 * byte inside the call instruction: a call to a function that never
 * returns may be the last instruction of its function, and the return
 * address then lies in the next one.  Every frame is checked before it is
 * unwound: without call-frame information for its pc, libdw would guess
 * from %rbp, which code built without frame pointers uses for anything,
 * so the stack ends there, marked, rather than go on with garbage.
 *
 * A walk goes first with the rules of each pc reduced to constants and
 * cached (stack-rules.c), a few loads a frame; libdw's own walk, below,
 * is kept for the stacks with a frame those cannot follow (a signal
 * frame, a DWARF expression).
 *
 * One Dwfl per process layout (the objects of one pid), kept for the
 * run: opening the files and indexing their unwind tables is the cost;
 * an object loaded later (dlopen, exec) makes it built again.  A forked
 * child records no objects of its own: its calls use the layout of the
 * process whose object holds the return address.
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build-id.h"
#include "debuginfo.h"
#include "../lib/session.h"
#include "error.h"
#include "fd-util.h"
#include "stack.h"
#include "stack-rules.h"
#include "xmalloc.h"

#define LAYOUTS_MAX 16 /* process layouts kept, their files open */

/* x86_64 DWARF register numbers. */
#define DW_RBX 3
#define DW_RBP 6
#define DW_RSP 7
#define DW_R12 12

/* The call being unwound: its registers and its copy of the stack. */
struct copy {
	const struct ltr_stack_regs *regs;
	const unsigned char *bytes;
	size_t len;
	int tid;
	bool outside; /* a read fell outside the copy */
};

/* The unwinder of one process layout. */
struct layout {
	int pid;
	Dwfl *dwfl;        /* NULL: no object could be reported */
	struct rule_cache *rules; /* for its pcs (stack-rules.c) */
	size_t seen;       /* objects of the map when it was built */
	struct copy cur;
	uint64_t used;     /* when it was last used, for LAYOUTS_MAX */
	struct layout *next;
};

/* A frame walk: where the frames go and why it stopped. */
struct walk {
	struct layout *l;
	const struct stack_objects *objs;
	struct stack_frame *frames;
	unsigned n, max;
	enum stack_end end;
	bool ended; /* the callback set end */
};

static struct layout *layouts;

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = debuginfo_find_elf,
	.find_debuginfo = debuginfo_find,
};

/* The one thread of a copy. */
static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	struct layout *l = arg;

	if (*thread_arg)
		return 0;
	*thread_arg = l;
	return l->cur.tid;
}

/* The thread tid is the copy's. */
static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
	*thread_arg = arg;
	return true;
}

/* Read a word of the stack: only from the copy. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct copy *c = &((struct layout *)arg)->cur;
	uint64_t sp = c->regs->sp;

	if (addr < sp || c->len < 8 || addr - sp > c->len - 8) {
		c->outside = true;
		return false;
	}
	memcpy(result, c->bytes + (addr - sp), sizeof(*result));
	return true;
}

/* The caller's registers once the call has returned. */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct ltr_stack_regs *r = ((struct layout *)arg)->cur.regs;
	Dwarf_Word rbx = r->rbx, rbp_rsp[2] = { r->rbp, r->sp + 8 };
	Dwarf_Word r12_15[4] = { r->r12, r->r13, r->r14, r->r15 };

	if (!dwfl_thread_state_registers(thread, DW_RBX, 1, &rbx) ||
	    !dwfl_thread_state_registers(thread, DW_RBP, 2, rbp_rsp) ||
	    !dwfl_thread_state_registers(thread, DW_R12, 4, r12_15))
		return false;
	dwfl_thread_state_register_pc(thread, r->rip - 1);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Does [start, end) overlap an object of pid after objs->v[i]? */
static bool shadowed(const struct stack_objects *objs, size_t i, int pid)
{
	const struct stack_object *o = &objs->v[i];
	size_t k;

	for (k = i + 1; k < objs->n; k++)
		if (objs->v[k].pid == pid && objs->v[k].start < o->end &&
		    o->start < objs->v[k].end)
			return true;
	return false;
}

/*
 * Report to l->dwfl the objects of its pid, the latest one wherever two
 * overlap (an exec, or a library loaded where an unloaded one was).
 */
static void layout_report(struct layout *l, const struct stack_objects *objs)
{
	size_t i;

	dwfl_report_begin(l->dwfl);
	for (i = 0; i < objs->n; i++) {
		const struct stack_object *o = &objs->v[i];
		int fd;

		if (o->pid != l->pid || shadowed(objs, i, l->pid))
			continue;
		build_id_check(o->path);
		fd = fd_open_regular(o->path);
		/* libdw keeps the descriptor, and closes it. */
		if (fd >= 0 &&
		    !dwfl_report_elf(l->dwfl, o->path, o->path, fd, o->bias, true))
			close(fd);
	}
	dwfl_report_end(l->dwfl, NULL, NULL);
}

/* Build l's Dwfl again from the object map. */
static void layout_build(struct layout *l, const struct stack_objects *objs)
{
	if (l->dwfl)
		dwfl_end(l->dwfl);
	rules_free(l->rules);
	l->rules = rules_new();
	l->seen = objs->n;
	l->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!l->dwfl)
		error_msg_and_die("out of memory");
	layout_report(l, objs);
	if (!dwfl_attach_state(l->dwfl, NULL, l->pid, &thread_callbacks, l)) {
		dwfl_end(l->dwfl);
		l->dwfl = NULL;
	}
}

/* Has pid loaded an object since l was built? */
static bool layout_stale(const struct layout *l,
			 const struct stack_objects *objs)
{
	size_t i;

	for (i = l->seen; i < objs->n; i++)
		if (objs->v[i].pid == l->pid)
			return true;
	return false;
}

/*
 * The unwinder of pid's layout, built or brought up to date.  Each keeps
 * its objects' files open: with -f and many programs, only the
 * LAYOUTS_MAX used last are kept, and the others built again if need be.
 */
static struct layout *layout_of(int pid, const struct stack_objects *objs)
{
	static uint64_t clock;
	struct layout *l, *oldest = NULL;
	unsigned n = 0;

	for (l = layouts; l; l = l->next, n++) {
		if (l->pid == pid)
			break;
		if (!oldest || l->used < oldest->used)
			oldest = l;
	}
	if (!l && n >= LAYOUTS_MAX) {
		l = oldest;
		l->pid = pid;
		layout_build(l, objs);
	} else if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->pid = pid;
		l->next = layouts;
		layouts = l;
		layout_build(l, objs);
	} else if (layout_stale(l, objs)) {
		layout_build(l, objs);
	}
	l->used = ++clock;
	return l;
}

/* One frame of the walk: note it, and say whether to go on. */
static int frame_seen(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	struct stack_frame *f;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	f = &w->frames[w->n++];
	if (w->n == 1) {
		/* Given as the return address minus one (see above). */
		f->lookup = pc;
		f->pc = pc + 1;
	} else {
		f->pc = pc;
		f->lookup = activation ? pc : pc - 1;
	}
	f->obj = objmap_at(w->objs, w->l->pid, f->lookup);
	w->ended = true;
	if (w->n == w->max) {
		w->end = STACK_END_LIMIT;
		return DWARF_CB_ABORT;
	}
	if (!rules_have_cfi(w->l->rules, w->l->dwfl, f->lookup)) {
		w->end = f->obj ? STACK_END_NO_CFI : STACK_END_UNKNOWN;
		return DWARF_CB_ABORT;
	}
	w->ended = false;
	return DWARF_CB_OK;
}

unsigned stack_unwind(const struct stack_objects *objs, int pid, int tid,
		      const void *data, size_t len, struct stack_frame *frames,
		      unsigned max, enum stack_end *end)
{
	const struct ltr_stack_regs *regs = data;
	const struct stack_object *o;
	struct walk w = { .objs = objs, .frames = frames, .max = max };
	int r;

	*end = STACK_END_UNKNOWN;
	if (!max || len < sizeof(*regs) || !regs->rip)
		return 0;
	o = objmap_at(objs, pid, regs->rip - 1);
	w.l = layout_of(o ? o->pid : pid, objs);
	if (!w.l->dwfl)
		return 0;
	w.l->cur.regs = regs;
	w.l->cur.bytes = (const unsigned char *)(regs + 1);
	w.l->cur.len = len - sizeof(*regs);
	r = rules_walk(w.l->rules, w.l->dwfl, regs, w.l->cur.bytes,
		       w.l->cur.len, frames, max, end);
	if (r >= 0) {
		for (w.n = 0; w.n < (unsigned)r; w.n++)
			frames[w.n].obj = objmap_at(objs, w.l->pid,
						    frames[w.n].lookup);
		return w.n;
	}
	/* A frame the rules cannot follow: libdw's own walk. */
	w.l->cur.tid = tid > 0 ? tid : 1;
	w.l->cur.outside = false;
	r = dwfl_getthread_frames(w.l->dwfl, w.l->cur.tid, frame_seen, &w);
	if (w.ended)
		*end = w.end;
	else if (r == 0)
		*end = STACK_END_START;
	else
		*end = w.l->cur.outside ? STACK_END_COPY : STACK_END_UNKNOWN;
	return w.n;
}

bool stack_source(const struct stack_objects *objs, int pid, uint64_t addr,
		  const char **file, int *line)
{
	struct layout *l = layout_of(pid, objs);
	Dwfl_Module *mod;
	Dwfl_Line *src;

	*file = NULL;
	if (!l->dwfl || !(mod = dwfl_addrmodule(l->dwfl, addr)) ||
	    !debuginfo_dwarf(mod) || !(src = dwfl_module_getsrc(mod, addr)))
		return false;
	*file = dwfl_lineinfo(src, NULL, line, NULL, NULL, NULL);
	return *file != NULL;
}

void stack_done(void)
{
	while (layouts) {
		struct layout *l = layouts;

		layouts = l->next;
		if (l->dwfl)
			dwfl_end(l->dwfl);
		rules_free(l->rules);
		free(l);
	}
	debuginfo_done();
}
