/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap-blocks.c: --heap's live blocks, by process image and address.
 *
 * A program may hold millions of blocks, each looked up once when it is
 * freed: an open-addressing table of 32-byte entries, linear probing,
 * grown at half full; a removal shifts the entries of its run back
 * (no tombstones, so lookups stay short however many blocks come and go).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "heap-blocks.h"
#include "xmalloc.h"

static struct heap_block *slots;
static size_t size, count; /* size: a power of two, or 0 */

/* The home slot of (owner, addr). */
static size_t home(uint32_t owner, uint64_t addr)
{
	uint64_t h = (addr >> 4 ^ (uint64_t)owner << 40) *
		     0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (size - 1);
}

/* Twice the slots, every block moved to its home in them. */
static void grow(void)
{
	struct heap_block *old = slots;
	size_t old_size = size, i, h;

	size = size ? 2 * size : 4096;
	slots = xcalloc(size, sizeof(*slots));
	for (i = 0; i < old_size; i++) {
		if (!old[i].owner)
			continue;
		for (h = home(old[i].owner, old[i].addr); slots[h].owner;
		     h = (h + 1) & (size - 1))
			;
		slots[h] = old[i];
	}
	free(old);
}

struct heap_block *heap_blocks_find(uint32_t owner, uint64_t addr)
{
	size_t h;

	if (!size)
		return NULL;
	for (h = home(owner, addr); slots[h].owner; h = (h + 1) & (size - 1))
		if (slots[h].addr == addr && slots[h].owner == owner)
			return &slots[h];
	return NULL;
}

struct heap_block *heap_blocks_add(uint32_t owner, uint64_t addr)
{
	size_t h;

	if (2 * (count + 1) > size)
		grow();
	for (h = home(owner, addr); slots[h].owner; h = (h + 1) & (size - 1))
		;
	memset(&slots[h], 0, sizeof(slots[h]));
	slots[h].owner = owner;
	slots[h].addr = addr;
	count++;
	return &slots[h];
}

void heap_blocks_remove(struct heap_block *b)
{
	size_t i = (size_t)(b - slots), j = i, k;

	/* Move back each later entry of the run that may live at i. */
	for (;;) {
		slots[i].owner = 0;
		for (;;) {
			j = (j + 1) & (size - 1);
			if (!slots[j].owner) {
				count--;
				return;
			}
			k = home(slots[j].owner, slots[j].addr);
			/* k cyclically in (i, j]: the entry stays where it is. */
			if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
				continue;
			break;
		}
		slots[i] = slots[j];
		i = j;
	}
}

void heap_blocks_done(void)
{
	free(slots);
	slots = NULL;
	size = count = 0;
}
