/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-cache.c: walks of stack copies kept, for a repeated stack.
 *
 * A program makes most of its calls from few stacks: sort(1) calls
 * strcoll from the same comparison, called from the same merge, a million
 * times.  Each call's copy differs (locals, spilled registers), but what
 * the walk of stack-rules.c reads of it does not: the pc, the stack
 * pointer, the words at the frames' return slots and saved registers, the
 * registers a frame's CFA is computed from.  The walk is a function of
 * those and of the rules of the code, so a walk is kept with what it read
 * (struct rules_inputs), and a later copy that holds the same words at
 * the same places, and the same registers, has the same frames: checking
 * a few words replaces the lookups of every frame's object and rules.
 * The check is exact, not a hash: two stacks alike in all but one saved
 * word are two walks.
 *
 * A walk is kept by its pc and its copy's stack pointer, so that the
 * walks of one call site from many stacks spread over the table.  A
 * sparse copy (lib/stack-hints.c: only the return addresses) is kept by
 * the words it holds instead, and they are its check: the same words are
 * the same copy, whatever the stack pointer, and a walk that read it only
 * at offsets from the stack pointer (rules_inputs' !absolute: the only
 * walks of sparse copies kept) finds the same frames, each moved by the
 * difference.  sort's merge recursion makes the same frames at many
 * depths, each at another stack pointer.
 *
 * The frames name objects of the map of the traced processes, which only
 * grows; an object added may take addresses from one before it (an exec,
 * a dlclose and a new dlopen), so when the map grows every walk kept is
 * forgotten.  The kept walks are a table of SLOTS entries by (pid, pc,
 * stack pointer), WAYS places each, replaced in turn: bounded memory,
 * whatever the program.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stack-cache.h"
#include "xmalloc.h"

#define SLOTS 4096 /* walks kept, at most */
#define WAYS 4     /* places a walk may take, next to each other */

/* A walk kept: its arguments, what it read, what it found. */
struct kept {
	size_t size; /* bytes allocated: a walk replacing it may reuse them */
	int pid;
	unsigned max, n;
	enum stack_end end;
	uint64_t serial; /* its own number, never another walk's */
	uint64_t hash;   /* where it is kept (struct stackcache_key) */
	size_t words_len;
	const unsigned char *words; /* a sparse copy's: after in.r */
	uint64_t rip, sp;
	struct rules_inputs in; /* in.r: after frames, in the same block */
	struct stack_frame frames[];
};

static struct kept *slots[SLOTS];
static uint64_t hashes[SLOTS]; /* slots[i]->hash, read before slots[i] */
static const struct stack_object *map_v; /* the map the walks were made with */
static size_t map_n;
static unsigned turn; /* the way replaced next */
static uint64_t serials; /* the serial of the walk kept last */
/* A walk kept since the last stackcache_done (else its tables are untouched: left so at exit). */
static bool slots_used;

void stackcache_done(void)
{
	size_t i;

	if (!slots_used)
		return;
	slots_used = false;
	for (i = 0; i < SLOTS; i++) {
		free(slots[i]);
		slots[i] = NULL;
		hashes[i] = 0;
	}
}

/*
 * Is the cache off (LTRUSS_NO_STACK_CACHE set: for the bench and the
 * tests, which compare its walks with fresh ones)?
 */
static bool cache_off(void)
{
	static int off = -1;

	if (off < 0)
		off = getenv("LTRUSS_NO_STACK_CACHE") != NULL;
	return off;
}

bool stackcache_on(void)
{
	return !cache_off();
}

/* Forget every walk if the map is not the one they were made with. */
static void map_check(const struct stack_objects *objs)
{
	if (objs->v == map_v && objs->n == map_n)
		return;
	stackcache_done();
	map_v = objs->v;
	map_n = objs->n;
}

/* The first of the WAYS slots of a walk of (pid, rip, key). */
static size_t ways_of(int pid, uint64_t rip, uint64_t key)
{
	uint64_t h = (rip ^ key * 0xff51afd7ed558ccdull ^ (uint64_t)pid << 40) *
		     0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 40) & (SLOTS - 1) & ~(size_t)(WAYS - 1);
}

/* Frames f[0..n), found at stack pointer from, as at stack pointer to. */
static void frames_move(struct stack_frame *f, unsigned n, uint64_t from,
			uint64_t to)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		f[i].sp += to - from;
		if (f[i].cfa)
			f[i].cfa += to - from;
	}
}

/* Is k the walk of pid's copy (regs, copy, len) kept by key, with max? */
static bool kept_same(const struct kept *k, int pid,
		      const struct stackcache_key *key,
		      const struct ltr_stack_regs *regs,
		      const unsigned char *copy, size_t len, unsigned max)
{
	if (!k || k->hash != key->hash || k->rip != regs->rip ||
	    k->pid != pid || k->max != max || k->words_len != key->words_len)
		return false;
	if (key->words)
		return memcmp(k->words, key->words, key->words_len) == 0;
	return k->sp == regs->sp && rules_same_inputs(&k->in, regs, copy, len);
}

int stackcache_find(const struct stack_objects *objs, int pid,
		    const struct stackcache_key *key,
		    const struct ltr_stack_regs *regs,
		    const unsigned char *copy, size_t len, unsigned max,
		    struct stack_frame *frames, enum stack_end *end,
		    uint64_t *serial)
{
	size_t first = ways_of(pid, regs->rip, key->hash), i;
	const struct kept *k;

	if (cache_off())
		return -1;
	map_check(objs);
	for (i = first; i < first + WAYS; i++) {
		/* The hashes of a slot's ways share a line; the walks do not. */
		if (hashes[i] != key->hash)
			continue;
		k = slots[i];
		if (!kept_same(k, pid, key, regs, copy, len, max))
			continue;
		if (frames) {
			memcpy(frames, k->frames, k->n * sizeof(*frames));
			if (k->sp != regs->sp)
				frames_move(frames, k->n, k->sp, regs->sp);
		}
		*end = k->end;
		*serial = k->serial;
		return (int)k->n;
	}
	return -1;
}

uint64_t stackcache_add(const struct stack_objects *objs, int pid,
			const struct stackcache_key *key,
			const struct ltr_stack_regs *regs, unsigned max,
			const struct rules_inputs *in,
			const struct stack_frame *frames, unsigned n,
			enum stack_end end)
{
	size_t first = ways_of(pid, regs->rip, key->hash), i, size;
	struct kept *k;

	if (cache_off())
		return 0;
	map_check(objs);
	/* A sparse copy's walk is kept by its words alone: see the top. */
	if (in->n > in->cap || (key->words && in->absolute))
		return 0;
	for (i = first; i < first + WAYS - 1 && slots[i]; i++)
		;
	if (slots[i])
		i = first + turn++ % WAYS;
	size = sizeof(*k) + n * sizeof(*frames) + in->n * sizeof(*in->r) +
	       key->words_len;
	k = slots[i];
	if (!k || k->size < size) {
		free(k);
		k = xmalloc(size);
		k->size = size;
	}
	k->pid = pid;
	k->max = max;
	k->n = n;
	k->end = end;
	k->serial = ++serials;
	k->hash = key->hash;
	k->words_len = key->words_len;
	k->rip = regs->rip;
	k->sp = regs->sp;
	k->in = *in;
	k->in.cap = in->n;
	k->in.r = (struct rules_read *)(k->frames + n);
	memcpy(k->frames, frames, n * sizeof(*frames));
	if (in->n) /* none, for frames read off a sparse copy's words */
		memcpy(k->in.r, in->r, in->n * sizeof(*in->r));
	k->words = (const unsigned char *)(k->in.r + in->n);
	if (key->words_len)
		memcpy((unsigned char *)(k->in.r + in->n), key->words,
		       key->words_len);
	slots[i] = k;
	slots_used = true;
	hashes[i] = k->hash;
	return k->serial;
}
