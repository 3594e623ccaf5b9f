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
	int pid;
	unsigned max, n;
	enum stack_end end;
	uint64_t serial; /* its own number, never another walk's */
	uint64_t rip, sp;
	struct rules_inputs in; /* in.r: after frames, in the same block */
	struct stack_frame frames[];
};

static struct kept *slots[SLOTS];
static const struct stack_object *map_v; /* the map the walks were made with */
static size_t map_n;
static unsigned turn; /* the way replaced next */
static uint64_t serials; /* the serial of the walk kept last */

void stackcache_done(void)
{
	size_t i;

	for (i = 0; i < SLOTS; i++) {
		free(slots[i]);
		slots[i] = NULL;
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

/* Forget every walk if the map is not the one they were made with. */
static void map_check(const struct stack_objects *objs)
{
	if (objs->v == map_v && objs->n == map_n)
		return;
	stackcache_done();
	map_v = objs->v;
	map_n = objs->n;
}

/* The first of the WAYS slots of a walk of (pid, rip, sp). */
static size_t ways_of(int pid, uint64_t rip, uint64_t sp)
{
	uint64_t h = (rip ^ sp * 0xff51afd7ed558ccdull ^ (uint64_t)pid << 40) *
		     0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 40) & (SLOTS - 1) & ~(size_t)(WAYS - 1);
}

int stackcache_find(const struct stack_objects *objs, int pid,
		    const struct ltr_stack_regs *regs,
		    const unsigned char *copy, size_t len, unsigned max,
		    struct stack_frame *frames, enum stack_end *end,
		    uint64_t *serial)
{
	size_t first = ways_of(pid, regs->rip, regs->sp), i;
	const struct kept *k;

	if (cache_off())
		return -1;
	map_check(objs);
	for (i = first; i < first + WAYS; i++) {
		k = slots[i];
		if (!k || k->rip != regs->rip || k->sp != regs->sp ||
		    k->pid != pid || k->max != max ||
		    !rules_same_inputs(&k->in, regs, copy, len))
			continue;
		memcpy(frames, k->frames, k->n * sizeof(*frames));
		*end = k->end;
		*serial = k->serial;
		return (int)k->n;
	}
	return -1;
}

uint64_t stackcache_add(const struct stack_objects *objs, int pid,
			const struct ltr_stack_regs *regs, unsigned max,
			const struct rules_inputs *in,
			const struct stack_frame *frames, unsigned n,
			enum stack_end end)
{
	size_t first = ways_of(pid, regs->rip, regs->sp), i;
	struct kept *k;

	if (cache_off())
		return 0;
	map_check(objs);
	if (in->n > in->cap)
		return 0;
	for (i = first; i < first + WAYS - 1 && slots[i]; i++)
		;
	if (slots[i])
		i = first + turn++ % WAYS;
	free(slots[i]);
	k = xmalloc(sizeof(*k) + n * sizeof(*frames) + in->n * sizeof(*in->r));
	k->pid = pid;
	k->max = max;
	k->n = n;
	k->end = end;
	k->serial = ++serials;
	k->rip = regs->rip;
	k->sp = regs->sp;
	k->in = *in;
	k->in.cap = in->n;
	k->in.r = (struct rules_read *)(k->frames + n);
	memcpy(k->frames, frames, n * sizeof(*frames));
	memcpy(k->in.r, in->r, in->n * sizeof(*in->r));
	slots[i] = k;
	return k->serial;
}
