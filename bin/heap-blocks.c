/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap-blocks.c: --heap's live blocks, by process and address.
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

/* The home slot of (pid, addr). */
static size_t home(int pid, uint64_t addr)
{
	uint64_t h = (addr >> 4 ^ (uint64_t)(uint32_t)pid << 40) *
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
		if (!old[i].pid)
			continue;
		for (h = home(old[i].pid, old[i].addr); slots[h].pid;
		     h = (h + 1) & (size - 1))
			;
		slots[h] = old[i];
	}
	free(old);
}

struct heap_block *heap_blocks_find(int pid, uint64_t addr)
{
	size_t h;

	if (!size)
		return NULL;
	for (h = home(pid, addr); slots[h].pid; h = (h + 1) & (size - 1))
		if (slots[h].addr == addr && slots[h].pid == pid)
			return &slots[h];
	return NULL;
}

struct heap_block *heap_blocks_add(int pid, uint64_t addr)
{
	size_t h;

	if (2 * (count + 1) > size)
		grow();
	for (h = home(pid, addr); slots[h].pid; h = (h + 1) & (size - 1))
		;
	memset(&slots[h], 0, sizeof(slots[h]));
	slots[h].pid = pid;
	slots[h].addr = addr;
	count++;
	return &slots[h];
}

void heap_blocks_remove(struct heap_block *b)
{
	size_t i = (size_t)(b - slots), j = i, k;

	/* Move back each later entry of the run that may live at i. */
	for (;;) {
		slots[i].pid = 0;
		for (;;) {
			j = (j + 1) & (size - 1);
			if (!slots[j].pid) {
				count--;
				return;
			}
			k = home(slots[j].pid, slots[j].addr);
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
