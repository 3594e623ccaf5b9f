/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap-kinds.h: the allocator functions --heap traces, and what each does with a block. */
#ifndef LTRUSS_HEAP_KINDS_H
#define LTRUSS_HEAP_KINDS_H

#include "selection.h"

/* What an allocator function does, by where its size and pointer are. */
enum heap_kind {
	HEAP_NONE,           /* not an allocator function */
	HEAP_MALLOC,         /* size in argument 0: malloc, valloc, operator new */
	HEAP_CALLOC,         /* arguments 0 and 1 multiplied */
	HEAP_ALIGNED,        /* (alignment, size): aligned_alloc, memalign */
	HEAP_POSIX_MEMALIGN, /* (&ptr, alignment, size) = 0 */
	HEAP_REALLOC,        /* (ptr, size) */
	HEAP_REALLOCARRAY,   /* (ptr, n, size) */
	HEAP_FREE,           /* (ptr): free, operator delete */
};

/* The kind of the function whose symbol is raw (as in the symbol table). */
enum heap_kind heap_kind_of(const char *raw);

/* Add the -u rules that select every allocator function to sel; NULL or an error. */
const char *heap_kinds_select(struct selection *sel);

#endif
