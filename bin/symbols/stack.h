/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack.h: unwind the stack copy of a call (-k) into its frames. */
#ifndef LTRUSS_STACK_H
#define LTRUSS_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "objmap.h"

/* Why the frames of a stack end where they do. */
enum stack_end {
	STACK_END_START,   /* the thread's first frame: the whole stack */
	STACK_END_LIMIT,   /* the frames asked for (-k N) are all there */
	STACK_END_NO_CFI,  /* a function without unwind information */
	STACK_END_COPY,    /* the copy of the stack ends (a deep stack) */
	STACK_END_UNKNOWN, /* an address in no known object, or unreadable */
	STACK_END_ASTRAY,  /* the next frame would be garbage: a pc in no object, a CFA going back (a stack switch its rules do not describe) */
};

/* One frame: a return address in the caller, innermost first. */
struct stack_frame {
	uint64_t pc;     /* the return address (where the call returns to) */
	uint64_t lookup; /* an address inside the call instruction */
	const struct stack_object *obj; /* the object holding it, or NULL */
	uint64_t sp;     /* the frame's stack pointer: its frame is [sp, CFA) */
	uint64_t cfa;    /* its CFA (the caller's sp), 0 if not known */
};

/*
 * Unwind the CALLSTACK blob data[0..len) (struct ltr_stack_regs, then the
 * copy, or with sparse the words of one: LTR_BLOBF_SPARSE) of a call by
 * thread tid of process pid, whose objects objs lists, into at most max
 * frames; returns how many, and in *end why they end.
 * *walk: the serial of the kept walk they are (stack-cache.c), the same
 * for every call whose copy gives that walk again, as long as objs does
 * not grow, and never another walk's; 0 if the walk was not kept.
 */
unsigned stack_unwind(const struct stack_objects *objs, int pid, int tid,
		      const void *data, size_t len, bool sparse,
		      struct stack_frame *frames, unsigned max,
		      enum stack_end *end, uint64_t *walk);

/*
 * The serial of the walk kept (stack-cache.c) that stack_unwind would
 * give the same blob, the number of its frames into *n and why they end
 * into *end, without the frames; 0 if none is kept.
 */
uint64_t stack_kept(const struct stack_objects *objs, int pid,
		    const void *data, size_t len, bool sparse, unsigned max,
		    unsigned *n, enum stack_end *end);

/*
 * The source file and line of code address addr of process pid, from
 * the debug information of its object (in the file, or installed beside
 * it); false without one.  *file lives until the next call into stack.c.
 */
bool stack_source(const struct stack_objects *objs, int pid, uint64_t addr,
		  const char **file, int *line);

/* The same, in object o of objs (objmap_own's). */
bool stack_source_in(const struct stack_objects *objs,
		     const struct stack_object *o, uint64_t addr,
		     const char **file, int *line);

/* Free every process's unwinder state. */
void stack_done(void);

#endif
