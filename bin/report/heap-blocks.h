/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap-blocks.h: --heap's live blocks, by process image and address. */
#ifndef LTRUSS_HEAP_BLOCKS_H
#define LTRUSS_HEAP_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

/* One live block: 32 bytes, whatever its stack. */
struct heap_block {
	uint64_t addr;
	uint64_t size;   /* bytes asked for */
	uint64_t ts;     /* TSC: when the call that allocated it returned */
	uint32_t owner;  /* its process image (heap.c); 0: a free slot */
	uint32_t stack;  /* its stack's id (heap.c); HEAP_SUPERSEDED set: see heap.c */
};

#define HEAP_SUPERSEDED 0x80000000u

/* The block of owner at addr, or NULL. */
struct heap_block *heap_blocks_find(uint32_t owner, uint64_t addr);

/* A new block of owner (not 0) at addr (none is there), its other fields to fill. */
struct heap_block *heap_blocks_add(uint32_t owner, uint64_t addr);

/* Forget block b (a pointer heap_blocks_find or _add gave, not used since). */
void heap_blocks_remove(struct heap_block *b);

/* Free them all. */
void heap_blocks_done(void);

#endif
