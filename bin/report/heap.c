/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap.c: --heap, the live bytes of each process by allocation stack.
 *
 * Every allocator call that ends (profile.c hands them over, with the
 * traced calls around them) is counted once: at the outermost allocator
 * call of its thread, the one the program made (operator new's malloc,
 * realloc's own malloc are nested in it and left out).  A block is live
 * from the return of the call that allocated it to the return of the
 * call that freed it; its bytes are the size asked for.  Each block
 * (heap-blocks.c: process, address, size, stack, when) belongs to one
 * allocation stack: the allocator function and -k's named frames, the
 * same pointers for the same return addresses (format-stack.c), so a
 * stack is kept once however many blocks it allocates.
 *
 * Threads: calls end in the order of their timestamps, but a block freed
 * by one thread may be handed out again by the allocator to another
 * before the free returns.  So a free acts on the block at its address
 * only if that block was allocated before the free began; an allocation
 * at an address still live means the allocator knows it free already:
 * the old block is released then, and marked HEAP_SUPERSEDED so that
 * its own free, which comes later, is not counted again.
 *
 * The peak, exact and in constant time a call: the process counts its
 * peaks (npeak, one more each time its live bytes pass the highest seen).
 * A stack about to change for the first time since the last peak saves
 * its bytes and blocks first (changed_in records that peak); at the end,
 * a stack changed since the last peak held what it saved, any other
 * what it holds.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/select.h"
#include "catalog.h"
#include "error.h"
#include "call-blobs.h"
#include "heap-blocks.h"
#include "heap-kinds.h"
#include "heap-state.h"
#include "heap.h"
#include "objmap.h"
#include "outfile.h"
#include "xmalloc.h"

#define KIND_KNOWN 0x80 /* kinds[fn] was looked up */

static bool enabled;
static FILE *folded;
static unsigned char kinds[LTR_MAX_FUNCS];
static bool kinds_known; /* some kinds[] set: heap_done clears them (16 KiB) */
static struct heap_proc **procs, *last_proc;
static size_t nprocs;
static struct heap_stack **stacks, **table; /* by id; by hash */
static size_t nstacks, stacks_size, table_size;

void heap_init(bool on, const char *folded_file)
{
	enabled = on;
	if (on && folded_file)
		folded = outfile_stream(folded_file, "--folded");
}

bool heap_enabled(void)
{
	return enabled;
}

FILE *heap_folded(void)
{
	return folded;
}

struct heap_proc *const *heap_procs(size_t *n)
{
	*n = nprocs;
	return procs;
}

struct heap_stack *const *heap_stacks(size_t *n)
{
	*n = nstacks;
	return stacks;
}

/* The allocator kind of function fn, looked up by name once. */
static enum heap_kind kind(uint32_t fn)
{
	if (fn >= LTR_MAX_FUNCS)
		return HEAP_NONE;
	if (!(kinds[fn] & KIND_KNOWN)) {
		kinds[fn] = KIND_KNOWN | heap_kind_of(format_func_raw(fn));
		kinds_known = true;
	}
	return (enum heap_kind)(kinds[fn] & ~KIND_KNOWN);
}

/* The totals of process pid's image, or NULL. */
static struct heap_proc *proc_find(int pid)
{
	size_t i;

	if (last_proc && last_proc->pid == pid)
		return last_proc;
	for (i = 0; i < nprocs; i++)
		if (procs[i]->pid == pid && !procs[i]->exec)
			return last_proc = procs[i];
	return NULL;
}

/* The totals of process pid's image, created empty. */
static struct heap_proc *proc_of(int pid)
{
	if (proc_find(pid))
		return last_proc;
	procs = xrealloc(procs, (nprocs + 1) * sizeof(*procs));
	last_proc = procs[nprocs++] = xcalloc(1, sizeof(**procs));
	last_proc->pid = pid;
	last_proc->id = (uint32_t)nprocs;
	return last_proc;
}

void heap_exec(int pid)
{
	struct heap_proc *p = proc_find(pid);

	/* Its blocks stay in the table, never found again (their owner is gone). */
	if (p)
		p->exec = true;
	last_proc = NULL;
}

/* The hash of an allocation stack. */
static uint64_t stack_hash(uint32_t owner, uint32_t fn, const struct named *const *f,
			   uint32_t n)
{
	uint64_t h = ((uint64_t)owner << 32 | fn) * 0x9e3779b97f4a7c15ull;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (uintptr_t)f[i]) * 0x100000001b3ull;
	return h ^ h >> 29;
}

/* Twice the buckets, every stack moved to its new one. */
static void table_grow(void)
{
	size_t size = table_size ? 2 * table_size : 1024, i;
	struct heap_stack **t = xcalloc(size, sizeof(*t)), *st;

	for (i = 0; i < table_size; i++) {
		while ((st = table[i]) != NULL) {
			table[i] = st->next;
			st->next = t[st->hash & (size - 1)];
			t[st->hash & (size - 1)] = st;
		}
	}
	free(table);
	table = t;
	table_size = size;
}

/* The stack of p's call c of w (allocator fn), created empty. */
static struct heap_stack *stack_of(struct heap_proc *p, const struct who *w,
				   const struct call *c)
{
	const struct named *f[STACK_NAMES_MAX];
	int got = stack_names(w, c, f);
	uint32_t n = got > 0 ? (uint32_t)got : 0;
	uint64_t h = stack_hash(p->id, c->fn, f, n);
	struct heap_stack *st;

	if (nstacks >= table_size / 2)
		table_grow();
	for (st = table[h & (table_size - 1)]; st; st = st->next)
		if (st->hash == h && st->proc == p && st->fn == c->fn &&
		    st->nframes == n &&
		    memcmp(st->frames, f, n * sizeof(*f)) == 0)
			return st;
	if (nstacks >= HEAP_SUPERSEDED - 1)
		error_msg_and_die("--heap: more than %u allocation stacks",
				  HEAP_SUPERSEDED - 1);
	st = xcalloc(1, sizeof(*st));
	st->proc = p;
	st->fn = c->fn;
	st->nframes = n;
	st->frames = xmalloc(n * sizeof(*f) + 1);
	memcpy(st->frames, f, n * sizeof(*f));
	st->hash = h;
	st->id = (uint32_t)nstacks;
	/* Not there at the last peak: it held nothing then. */
	st->changed_in = p->npeak;
	st->next = table[h & (table_size - 1)];
	table[h & (table_size - 1)] = st;
	if (nstacks == stacks_size) {
		stacks_size = stacks_size ? 2 * stacks_size : 256;
		stacks = xrealloc(stacks, stacks_size * sizeof(*stacks));
	}
	stacks[nstacks++] = st;
	return st;
}

/* Stack st is about to change: keep what it held at the last peak. */
static void stack_touch(struct heap_stack *st)
{
	if (st->changed_in == st->proc->npeak)
		return;
	st->saved_bytes = st->bytes;
	st->saved_blocks = st->blocks;
	st->changed_in = st->proc->npeak;
}

void heap_stack_at_peak(const struct heap_stack *st, uint64_t *bytes,
			uint64_t *blocks)
{
	bool changed = st->changed_in == st->proc->npeak;

	*bytes = changed ? st->saved_bytes : st->bytes;
	*blocks = changed ? st->saved_blocks : st->blocks;
}

/* Block b of p is no more: its bytes leave its stack, it is counted freed. */
static void release(struct heap_proc *p, struct heap_block *b)
{
	struct heap_stack *st = stacks[b->stack & ~HEAP_SUPERSEDED];

	stack_touch(st);
	st->bytes -= b->size;
	st->blocks--;
	p->bytes -= b->size;
	p->blocks--;
	p->frees++;
}

/*
 * Was call c of process pid made from inside its callee's own library?
 * Entry patching ('::') sees the C library free what it allocated for
 * itself without a traced call (a thread's malloc cache, at its exit):
 * those are not the program's frees.  The caller's object comes from the
 * objects the processes recorded (the catalog: live, or a file's).
 */
static bool called_from_inside(int pid, const struct call *c)
{
	const struct stack_object *o;
	const char *lib, *name;
	size_t len;

	if (c->fn >= LTR_MAX_FUNCS || !(lib = catalog_func_string(c->fn, true)))
		return false;
	o = objmap_own(objmap_sync_at(c->ts_enter), pid, c->caller);
	if (!o || !*o->path)
		return false;
	name = sel_short_name(NULL, o->path, false, &len);
	return strlen(lib) == len && strncmp(name, lib, len) == 0;
}

/* p frees the block at addr, in call c. */
static void heap_free(struct heap_proc *p, uint64_t addr, const struct call *c)
{
	struct heap_block *b = heap_blocks_find(p->id, addr);

	if (b && b->ts > c->ts_enter) {
		/* A newer block there: this free's block went when it came. */
		if (b->stack & HEAP_SUPERSEDED)
			b->stack &= ~HEAP_SUPERSEDED;
		else if (!called_from_inside(p->pid, c))
			p->unknown_frees++;
		return;
	}
	if (!b) {
		if (!called_from_inside(p->pid, c))
			p->unknown_frees++;
		return;
	}
	release(p, b);
	heap_blocks_remove(b);
}

/* p's call c of w returned a block of size bytes at addr, at tsc end. */
static void heap_alloc(struct heap_proc *p, const struct who *w,
		       const struct call *c, uint64_t addr, uint64_t size,
		       uint64_t end)
{
	struct heap_stack *st = stack_of(p, w, c);
	struct heap_block *b = heap_blocks_find(p->id, addr);

	if (b) {
		/* The allocator gave addr again: its free is yet to come. */
		release(p, b);
		b->stack = HEAP_SUPERSEDED;
	} else {
		b = heap_blocks_add(p->id, addr);
	}
	b->stack = st->id | (b->stack & HEAP_SUPERSEDED);
	b->size = size;
	b->ts = end;
	stack_touch(st);
	st->bytes += size;
	st->blocks++;
	p->allocs++;
	p->bytes += size;
	p->blocks++;
	if (p->bytes > p->peak_bytes) {
		p->peak_bytes = p->bytes;
		p->peak_blocks = p->blocks;
		p->peak_ts = end;
		p->npeak++;
	}
}

/* The product a * b, or false when it overflows (the call then failed). */
static bool times(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* The pointer posix_memalign stored, from its output argument. */
static bool memalign_result(const struct result *r, uint64_t *addr)
{
	const struct ltr_blob *b = blob_lookup(r->blobs, r->blobs_len,
					       LTR_BLOB_OUT, 0, false);

	if ((uint32_t)r->rax != 0 || !b || (b->flags & LTR_BLOBF_FAULT) ||
	    b->len < sizeof(*addr))
		return false;
	memcpy(addr, b->data, sizeof(*addr));
	return true;
}

/* realloc(old, size) of p returned r (reallocarray: size multiplied already). */
static void heap_realloc(struct heap_proc *p, const struct who *w,
			 const struct call *c, const struct result *r,
			 uint64_t old, uint64_t size)
{
	if (!r->rax) {
		/* Failed, the old block kept; or realloc(p, 0) freed it. */
		if (old && !size)
			heap_free(p, old, c);
		return;
	}
	if (old)
		heap_free(p, old, c);
	heap_alloc(p, w, c, r->rax, size, r->ts_exit);
}

void heap_call(const struct who *w, const struct call *const *stack,
	       uint32_t depth, const struct call *c, const struct result *r)
{
	enum heap_kind k = kind(c->fn);
	const uint64_t *a = c->args;
	struct heap_proc *p;
	uint64_t size, addr;
	uint32_t i;

	if (k == HEAP_NONE || !r->returned)
		return;
	for (i = 0; i < depth; i++)
		if (kind(stack[i]->fn) != HEAP_NONE)
			return; /* counted as the call around it */
	p = proc_of(w->pid);
	switch (k) {
	case HEAP_MALLOC:
		if (r->rax)
			heap_alloc(p, w, c, r->rax, a[0], r->ts_exit);
		break;
	case HEAP_CALLOC:
		if (r->rax && times(a[0], a[1], &size))
			heap_alloc(p, w, c, r->rax, size, r->ts_exit);
		break;
	case HEAP_ALIGNED:
		if (r->rax)
			heap_alloc(p, w, c, r->rax, a[1], r->ts_exit);
		break;
	case HEAP_POSIX_MEMALIGN:
		if (memalign_result(r, &addr))
			heap_alloc(p, w, c, addr, a[2], r->ts_exit);
		break;
	case HEAP_REALLOC:
		heap_realloc(p, w, c, r, a[0], a[1]);
		break;
	case HEAP_REALLOCARRAY:
		if (times(a[1], a[2], &size))
			heap_realloc(p, w, c, r, a[0], size);
		break;
	case HEAP_FREE:
		if (a[0])
			heap_free(p, a[0], c);
		break;
	case HEAP_NONE:
		break;
	}
}

void heap_done(void)
{
	size_t i;

	for (i = 0; i < nstacks; i++) {
		free(stacks[i]->frames);
		free(stacks[i]);
	}
	for (i = 0; i < nprocs; i++)
		free(procs[i]);
	free(stacks);
	free(table);
	free(procs);
	stacks = table = NULL;
	procs = NULL;
	last_proc = NULL;
	nstacks = stacks_size = table_size = nprocs = 0;
	heap_blocks_done();
	if (kinds_known)
		memset(kinds, 0, sizeof(kinds));
	kinds_known = false;
}
