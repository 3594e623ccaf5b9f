/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap-state.h: what heap.c counts, as heap-report.c reads it. */
#ifndef LTRUSS_HEAP_STATE_H
#define LTRUSS_HEAP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "format-stack.h"

/* One process image's totals (an exec starts another, of the same pid). */
struct heap_proc {
	int pid;
	uint32_t id;                       /* 1 for the first, then 2... */
	bool exec;                         /* it ended in an exec */
	uint64_t bytes, blocks;            /* live now */
	uint64_t peak_bytes, peak_blocks;  /* at the peak */
	uint64_t peak_ts;                  /* TSC of the peak */
	uint64_t npeak;                    /* peaks reached so far */
	uint64_t allocs, frees, unknown_frees;
};

/* One allocation stack of one process, with the bytes it holds. */
struct heap_stack {
	struct heap_proc *proc;
	uint32_t id;                       /* its index in heap_stacks() */
	uint32_t fn;                       /* the allocator function */
	uint32_t nframes;                  /* -1 from stack_names(): 0 */
	const struct named **frames;       /* innermost first */
	uint64_t hash;
	uint64_t bytes, blocks;            /* live now */
	uint64_t saved_bytes, saved_blocks; /* at the peak, if changed since */
	uint64_t changed_in;               /* the proc's npeak when last changed */
	struct heap_stack *next;           /* in its hash chain */
};

/* The processes seen, and how many. */
struct heap_proc *const *heap_procs(size_t *n);

/* The stacks seen (every process's), and how many. */
struct heap_stack *const *heap_stacks(size_t *n);

/* The bytes and blocks stack st held at its process's peak. */
void heap_stack_at_peak(const struct heap_stack *st, uint64_t *bytes,
			uint64_t *blocks);

/* The --folded stream (opened before the run), or NULL. */
FILE *heap_folded(void);

#endif
