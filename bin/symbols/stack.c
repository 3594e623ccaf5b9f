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
 * frame, a DWARF expression).  A walk of the rules is kept with the words
 * it read (stack-cache.c): a stack seen before, the same at those words,
 * is not walked again.
 *
 * Each frame's pc is taken to its object's file by the object map of the
 * process (objmap.c, a binary search), and the file's state (its libdw
 * module, its rules) is the same whatever the process (stack-files.c):
 * opening the files and indexing their unwind tables is the cost, paid
 * once per file.  A forked child records no objects of its own: its
 * calls use the layout of the process whose object holds the return
 * address.
 *
 * libdw's own walk needs a Dwfl with the objects where the process had
 * them.  One is kept for each of the LAYOUTS_MAX processes whose stacks
 * needed it last, and gets only the objects a walk reaches: a frame in
 * an object it lacks stops the walk, the object is reported
 * (dwfl_report_begin_add), and the walk starts again.  So a call costs
 * at most its frames in files opened, however many processes take
 * turns, and however many objects each one has.
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo.h"
#include "lib/session.h"
#include "error.h"
#include "fd-util.h"
#include "stack.h"
#include "stack-cache.h"
#include "stack-files.h"
#include "stack-hints.h"
#include "stack-rules.h"
#include "xmalloc.h"

#define LAYOUTS_MAX 16 /* process layouts kept for libdw's walk */
#define READS_MAX 256  /* words a walk reads, at most, to be kept */

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

/* libdw's unwinder of one process layout: the objects its walks reached. */
struct layout {
	int pid;
	Dwfl *dwfl;
	bool attached;     /* dwfl_attach_state done (it needs a module) */
	size_t seen;       /* objects of the map when it was begun */
	struct copy cur;
	uint64_t used;     /* when it was last used, for LAYOUTS_MAX */
	struct layout *next;
};

/* A frame walk: where the frames go and why it stopped. */
struct walk {
	struct layout *l;
	int pid; /* whose objects name its frames */
	const struct stack_objects *objs;
	struct stack_frame *frames;
	unsigned n, max;
	enum stack_end end;
	bool ended; /* the callback set end */
	const struct stack_object *missing; /* an object to report to l */
	const struct stack_object *tried;   /* the one reported last */
};

static struct layout *layouts;
static struct stack_file **obj_files; /* the file of each object of the map */
static size_t obj_files_size;

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = debuginfo_find_elf,
	.find_debuginfo = debuginfo_find,
};

/* The file of object o of objs, looked up once per object. */
static struct stack_file *file_of(const struct stack_objects *objs,
				  const struct stack_object *o)
{
	size_t i = (size_t)(o - objs->v);

	if (i >= obj_files_size) {
		size_t size = obj_files_size ? 2 * obj_files_size : 64;

		while (size <= i)
			size *= 2;
		obj_files = xrealloc(obj_files, size * sizeof(*obj_files));
		memset(obj_files + obj_files_size, 0,
		       (size - obj_files_size) * sizeof(*obj_files));
		obj_files_size = size;
	}
	if (!obj_files[i])
		obj_files[i] = files_of(o->path);
	return obj_files[i];
}

/*
 * walk_find's answers kept by pc, for the map (objs) and process they
 * were found in: a stack walked for the first time is mostly frames of
 * pcs walked before (sort's merges, at other depths), and the lookups of
 * a pc's object and file were most of what each of its frames cost.
 * Replaced in place; forgotten with the files (stack_done).
 */
#define FOUND_SLOTS 1024
struct found {
	uint64_t pc;
	const struct stack_object *v; /* the map's, as objs gave it */
	size_t n;
	int pid;
	const struct stack_object *obj; /* objmap_own's, so objmap_at's too */
	struct rule_cache *rc; /* NULL: an empty slot */
};
static struct found found[FOUND_SLOTS];
static bool found_kept; /* a slot was written: stack_done clears them (56 KiB, 14 page faults) */

/* pc's slot among found[], and whether it holds pc of w's map and process. */
static struct found *found_at(const struct walk *w, uint64_t pc, bool *hit)
{
	struct found *f = &found[(pc * 0x9e3779b97f4a7c15ull) >> 54];

	*hit = f->rc && f->pc == pc && f->pid == w->pid &&
	       f->v == w->objs->v && f->n == w->objs->n;
	return f;
}

/* walk_find() of a pc not kept in its slot f: looked up, and kept. */
static __attribute__((noinline)) struct rule_cache *
walk_lookup(const struct walk *w, uint64_t pc, uint64_t *rel, struct found *f)
{
	const struct stack_object *o;
	struct rule_cache *rc;

	o = objmap_own(w->objs, w->pid, pc);
	if (!o)
		return NULL;
	*rel = pc - o->bias;
	rc = files_rules(file_of(w->objs, o));
	if (rc) {
		*f = (struct found){ .pc = pc, .v = w->objs->v, .n = w->objs->n,
				     .pid = w->pid, .obj = o, .rc = rc };
		found_kept = true;
	}
	return rc;
}

/* The rules at pc of the walk's process, and the address in their file. */
static struct rule_cache *walk_find(void *arg, uint64_t pc, uint64_t *rel)
{
	const struct walk *w = arg;
	bool hit;
	struct found *f = found_at(w, pc, &hit);

	if (!hit)
		return walk_lookup(w, pc, rel, f);
	*rel = pc - f->obj->bias;
	return f->rc;
}

/* The object of frame address lookup of w's process: objmap_at(), kept by walk_find. */
static const struct stack_object *walk_object(const struct walk *w,
					      uint64_t lookup)
{
	bool hit;
	struct found *f = found_at(w, lookup, &hit);

	return hit ? f->obj : objmap_at(w->objs, w->pid, lookup);
}

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

/* Begin l's Dwfl again, empty: its objects are reported as walks reach them. */
static void layout_begin(struct layout *l, const struct stack_objects *objs)
{
	if (l->dwfl)
		dwfl_end(l->dwfl);
	l->seen = objs->n;
	l->attached = false;
	l->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!l->dwfl)
		error_msg_and_die("out of memory");
}

/* Report object o to l's Dwfl, where l's process has it. */
static void layout_add(struct layout *l, const struct stack_object *o)
{
	int fd = fd_open_regular(o->path);

	dwfl_report_begin_add(l->dwfl);
	/* libdw keeps the descriptor, and closes it. */
	if (fd >= 0 &&
	    !dwfl_report_elf(l->dwfl, o->path, o->path, fd, o->bias, true))
		close(fd);
	dwfl_report_end(l->dwfl, NULL, NULL);
	/* Attaching takes the machine from a module: after the first one. */
	if (!l->attached)
		l->attached = dwfl_attach_state(l->dwfl, NULL, l->pid,
						&thread_callbacks, l);
}

/*
 * Has l's process loaded an object since l was begun?  (Each looked at
 * once.)  Or is objs a view of the map at a time before objects l was
 * given (objmap_sync_at: a call formatted after a later one's loads)?
 */
static bool layout_stale(struct layout *l, const struct stack_objects *objs)
{
	size_t i;

	for (i = objs->n; i < l->seen; i++)
		if (objs->v[i].pid == l->pid)
			return true;
	for (; l->seen < objs->n; l->seen++)
		if (objs->v[l->seen].pid == l->pid)
			return true;
	return false;
}

/*
 * libdw's unwinder of pid's layout, begun or brought up to date.  Each
 * keeps the files of the objects it was given open: with -f and many
 * programs, only the LAYOUTS_MAX used last are kept, and the others begun
 * again if need be.
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
		layout_begin(l, objs);
	} else if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->pid = pid;
		l->next = layouts;
		layouts = l;
		layout_begin(l, objs);
	} else if (layout_stale(l, objs)) {
		layout_begin(l, objs);
	}
	l->used = ++clock;
	return l;
}

/* One frame of the walk: note it, and say whether to go on. */
static int frame_seen(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	const struct stack_object *own;
	struct rule_cache *rc;
	struct stack_frame *f;
	Dwarf_Addr pc;
	uint64_t rel = 0;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	f = &w->frames[w->n++];
	f->sp = 0;
	f->cfa = 0;
	dwfl_frame_reg(state, DW_RSP, &f->sp);
	if (w->n == 1) {
		/* Given as the return address minus one (see above). */
		f->lookup = pc;
		f->pc = pc + 1;
	} else {
		f->pc = pc;
		f->lookup = activation ? pc : pc - 1;
	}
	f->obj = objmap_at(w->objs, w->pid, f->lookup);
	w->ended = true;
	/* Past the first, a pc in no object is garbage (stack-rules.c). */
	if (w->n > 1 && !f->obj) {
		w->n--;
		w->end = STACK_END_ASTRAY;
		return DWARF_CB_ABORT;
	}
	if (w->n == w->max) {
		w->end = STACK_END_LIMIT;
		return DWARF_CB_ABORT;
	}
	/*
	 * An object l lacks: report it, and walk again (libdw_walk).  First:
	 * whether the pc is exact (activation) is known only with it.
	 */
	own = objmap_own(w->objs, w->pid, f->lookup);
	if (own && own != w->tried &&
	    !dwfl_addrmodule(w->l->dwfl, f->lookup)) {
		w->missing = own;
		w->ended = false;
		return DWARF_CB_ABORT;
	}
	rc = walk_find(w, f->lookup, &rel);
	if (!rules_have_cfi(rc, rel)) {
		w->end = f->obj ? STACK_END_NO_CFI : STACK_END_UNKNOWN;
		return DWARF_CB_ABORT;
	}
	w->ended = false;
	return DWARF_CB_OK;
}

/*
 * libdw's walk of the stack w->l->cur of w->pid, in w->l's Dwfl: each
 * object it lacks reported as a frame reaches it, the walk started again
 * (at most once a frame).  Returns how many frames, and in *end why they end.
 */
static unsigned libdw_walk(struct walk *w, int tid, enum stack_end *end)
{
	const struct stack_object *o = objmap_own(w->objs, w->pid,
						  w->l->cur.regs->rip - 1);
	struct copy *c = &w->l->cur;
	unsigned tries = 0;
	int r;

	if (o && (!w->l->attached ||
		  !dwfl_addrmodule(w->l->dwfl, c->regs->rip - 1)))
		layout_add(w->l, o);
	if (!w->l->attached)
		return 0;
	c->tid = tid > 0 ? tid : 1;
	for (;;) {
		w->n = 0;
		w->ended = false;
		w->missing = NULL;
		c->outside = false;
		r = dwfl_getthread_frames(w->l->dwfl, c->tid, frame_seen, w);
		if (!w->missing || tries++ == w->max)
			break;
		/* If libdw does not take it, the walk ends there next time. */
		w->tried = w->missing;
		layout_add(w->l, w->missing);
	}
	if (w->ended)
		*end = w->end;
	else if (r == 0)
		*end = STACK_END_START;
	else
		*end = c->outside ? STACK_END_COPY : STACK_END_UNKNOWN;
	return w->n;
}

/*
 * The hash of a sparse copy: its span and its words[0..n).  Rotations
 * and one multiplication at the end, not one a word: stack-cache.c
 * compares the words themselves, the hash only spreads them.
 */
static uint64_t sparse_hash(const unsigned char *words, size_t n,
			    uint64_t span)
{
	uint64_t h = span, v[2];
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(v, words + i * sizeof(v), sizeof(v));
		h = (h << 7 | h >> 57) ^ v[0] ^ v[1];
	}
	h ^= h >> 29;
	return h * 0x9e3779b97f4a7c15ull;
}

/*
 * The sparse copy (LTR_BLOBF_SPARSE) words[0..n) of span bytes as the
 * copy it stands for: written into a buffer of zeros (set) or cleared
 * back (!set).  The buffer stays zero between calls: a call clears only
 * the words it wrote.  The reader checked the words (session-check.c).
 */
static const unsigned char *sparse_copy(const unsigned char *words, size_t n,
					uint64_t span, bool set)
{
	static uint64_t buf[LTR_STACK_SIZE_MAX / 8];
	struct ltr_stack_word w;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&w, words + i * sizeof(w), sizeof(w));
		if (w.off < span && span <= sizeof(buf))
			buf[w.off / 8] = set ? w.val : 0;
	}
	return (const unsigned char *)buf;
}

/* Whose objects name the frames of pid's call at regs (a forked child's: its parent's). */
static int walk_pid(const struct stack_objects *objs, int pid,
		    const struct ltr_stack_regs *regs)
{
	const struct stack_object *o = objmap_at(objs, pid, regs->rip - 1);

	return o ? o->pid : pid;
}

/* A call's stack being unwound: stack_unwind's arguments, and the key of its walk. */
struct unwind {
	const struct stack_objects *objs;
	int pid, tid;
	const struct ltr_stack_regs *regs;
	struct stackcache_key key;
	struct stack_frame *frames;
	unsigned max;
	enum stack_end *end;
	uint64_t *walk;
};

/*
 * The n frames w found of u's stack (reading in): their objects noted,
 * the walk kept by u's key; returns n, its serial into *u->walk.
 */
static unsigned walk_keep(const struct unwind *u, struct walk *w,
			  const struct rules_inputs *in, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		w->frames[i].obj = walk_object(w, w->frames[i].lookup);
	*u->walk = stackcache_add(u->objs, u->pid, &u->key, u->regs, u->max,
				  in, u->frames, n, *u->end);
	return n;
}

/*
 * The walk of u's sparse copy, words[0..k), read off its words
 * (rules_follow); -1 if it cannot be.  Not with LTRUSS_NO_STACK_CACHE,
 * whose walks go the whole way.
 */
static int follow_words(const struct unwind *u, const unsigned char *words,
			size_t k)
{
	struct walk w = { .objs = u->objs, .frames = u->frames,
			  .max = u->max };
	struct rules_inputs none = { 0 };
	int r;

	if (!stackcache_on())
		return -1;
	w.pid = walk_pid(u->objs, u->pid, u->regs);
	r = rules_follow(walk_find, &w, u->regs, words, k, u->frames, u->max,
			 u->end);
	return r < 0 ? -1 : (int)walk_keep(u, &w, &none, (unsigned)r);
}

/* The walk of u's stack in a copy of len bytes at copy (no kept walk was). */
static unsigned walk_copy(const struct unwind *u, const unsigned char *copy,
			  size_t len)
{
	struct walk w = { .objs = u->objs, .frames = u->frames,
			  .max = u->max };
	struct rules_read reads[READS_MAX];
	struct rules_inputs in = { .cap = READS_MAX, .r = reads };
	int r;

	w.pid = walk_pid(u->objs, u->pid, u->regs);
	if (stack_hints_on()) {
		in.hint = stack_hints_note;
		in.hint_arg = (void *)(intptr_t)u->pid;
	}
	r = rules_walk(walk_find, &w, u->regs, copy, len, u->frames, u->max,
		       u->end, &in);
	if (r >= 0)
		return walk_keep(u, &w, &in, (unsigned)r);
	/* A frame the rules cannot follow: libdw's own walk. */
	w.l = layout_of(w.pid, u->objs);
	w.l->cur.regs = u->regs;
	w.l->cur.bytes = copy;
	w.l->cur.len = len;
	return libdw_walk(&w, u->tid, u->end);
}

/*
 * The key of the walk of the CALLSTACK blob data[0..len) (stack-cache.h)
 * into *key, where its copy starts and how long (sparse: its words, and
 * the span they stand for) into *copy and *len; false if it has none.
 */
static bool blob_key(const void *data, size_t *len, bool sparse,
		     struct stackcache_key *key, const unsigned char **copy)
{
	const struct ltr_stack_regs *regs = data;
	uint64_t span;

	*key = (struct stackcache_key){ .hash = regs->sp };
	*copy = (const unsigned char *)(regs + 1);
	if (*len < sizeof(*regs) || !regs->rip)
		return false;
	*len -= sizeof(*regs);
	if (!sparse)
		return true;
	if (*len < 8)
		return false;
	memcpy(&span, *copy, 8);
	key->hash = sparse_hash(*copy + 8,
				(*len - 8) / sizeof(struct ltr_stack_word), span);
	key->words = *copy;
	key->words_len = *len;
	return true;
}

/*
 * The walk stack_kept found last, by its sparse copy's words.  A thread
 * makes most of its calls from the stack of its call before (sort's
 * strcoll: two calls in three), and comparing the words with those of
 * the walk found last costs less than hashing them and looking them up.
 * The same process, return address, -k frames, map and words are the
 * same walk to stackcache_find (its check of a sparse copy), so the
 * answer is the one it gave.  If the cache has dropped that walk since
 * (replaced), its serial still names its frames' names if format-walks.c
 * keeps them, or names nothing, and the call is walked again, as a walk
 * not found is.  A map that changed is another map: the walk found last
 * is then not looked at.
 */
#define LAST_WORDS_MAX 1024 /* a sparse copy's bytes, at most, kept as the last */
static struct {
	uint64_t walk; /* its serial; 0: none */
	int pid;
	unsigned max, n;
	enum stack_end end;
	uint64_t rip;
	const struct stack_object *map_v; /* the map it was found with */
	size_t map_n;
	size_t len;
	unsigned char words[LAST_WORDS_MAX]; /* the copy's span and words */
} last;

/* Is sparse blob data[0..len) of pid, walked into max frames with objs, the one found last? */
static bool last_same(const struct stack_objects *objs, int pid,
		      const void *data, size_t len, unsigned max)
{
	const struct ltr_stack_regs *regs = data;

	return last.walk && len >= sizeof(*regs) &&
	       len - sizeof(*regs) == last.len && regs->rip == last.rip &&
	       pid == last.pid && max == last.max && objs->v == last.map_v &&
	       objs->n == last.map_n &&
	       memcmp(regs + 1, last.words, last.len) == 0;
}

/* Keep walk (n frames, ending for end) as the one found last for sparse blob regs, words[0..len). */
static void last_keep(const struct stack_objects *objs, int pid,
		      const struct ltr_stack_regs *regs,
		      const unsigned char *words, size_t len, unsigned max,
		      uint64_t walk, unsigned n, enum stack_end end)
{
	if (len > sizeof(last.words)) {
		last.walk = 0;
		return;
	}
	last.walk = walk;
	last.pid = pid;
	last.max = max;
	last.n = n;
	last.end = end;
	last.rip = regs->rip;
	last.map_v = objs->v;
	last.map_n = objs->n;
	last.len = len;
	memcpy(last.words, words, len);
}

uint64_t stack_kept(const struct stack_objects *objs, int pid,
		    const void *data, size_t len, bool sparse, unsigned max,
		    unsigned *n, enum stack_end *end)
{
	struct stackcache_key key;
	const unsigned char *copy;
	uint64_t walk = 0;
	int r;

	if (!max)
		return 0;
	if (sparse && last_same(objs, pid, data, len, max)) {
		*n = last.n;
		*end = last.end;
		return last.walk;
	}
	if (!blob_key(data, &len, sparse, &key, &copy))
		return 0;
	r = stackcache_find(objs, pid, &key, data, copy, len, max, NULL, end,
			    &walk);
	*n = r >= 0 ? (unsigned)r : 0;
	if (r < 0)
		return 0;
	if (sparse)
		last_keep(objs, pid, data, copy, len, max, walk, *n, *end);
	return walk;
}

unsigned stack_unwind(const struct stack_objects *objs, int pid, int tid,
		      const void *data, size_t len, bool sparse,
		      struct stack_frame *frames, unsigned max,
		      enum stack_end *end, uint64_t *walk)
{
	struct unwind u = { .objs = objs, .pid = pid, .tid = tid,
			    .regs = data, .frames = frames, .max = max,
			    .end = end, .walk = walk };
	const unsigned char *copy;
	uint64_t span;
	size_t n;
	int r;

	*end = STACK_END_UNKNOWN;
	*walk = 0;
	if (!max || !blob_key(data, &len, sparse, &u.key, &copy))
		return 0;
	r = stackcache_find(objs, pid, &u.key, u.regs, copy, len, max, frames,
			    end, walk);
	if (r >= 0)
		return (unsigned)r;
	if (!sparse)
		return walk_copy(&u, copy, len);
	memcpy(&span, copy, 8);
	n = (len - 8) / sizeof(struct ltr_stack_word);
	if ((r = follow_words(&u, copy + 8, n)) >= 0)
		return (unsigned)r;
	r = (int)walk_copy(&u, sparse_copy(copy + 8, n, span, true), span);
	sparse_copy(copy + 8, n, span, false);
	return (unsigned)r;
}

bool stack_source(const struct stack_objects *objs, int pid, uint64_t addr,
		  const char **file, int *line)
{
	return stack_source_in(objs, objmap_own(objs, pid, addr), addr, file,
			       line);
}

bool stack_source_in(const struct stack_objects *objs,
		     const struct stack_object *o, uint64_t addr,
		     const char **file, int *line)
{
	Dwfl_Module *mod;
	Dwfl_Line *src;

	*file = NULL;
	if (!o || !(mod = files_module(file_of(objs, o))) ||
	    !debuginfo_dwarf(mod) ||
	    !(src = dwfl_module_getsrc(mod, addr - o->bias)))
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
		free(l);
	}
	stackcache_done();
	last.walk = 0;
	if (found_kept)
		memset(found, 0, sizeof(found));
	found_kept = false;
	files_done();
	free(obj_files);
	obj_files = NULL;
	obj_files_size = 0;
	debuginfo_done();
}
