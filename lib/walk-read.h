/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk-read.h: reads of the program's memory that never fault, for the
 * walks of an interpreter's frames at a -k call (pyframes.c, tclframes.c):
 * a series of fast copies under one mark (fault-copy.c) when the fast
 * copy may be used, else ltr_read_mem.
 */
#ifndef LTRUSS_WALK_READ_H
#define LTRUSS_WALK_READ_H

#include "capture.h"
#include "interposer.h"

/* How a walk reads the program: a series of fast copies, or ltr_read_mem. */
struct reader {
	int pid;
	bool fast;
};

/* Copy up to len bytes at src to dst (no fault); returns how many. */
static inline size_t mem_at(const struct reader *r, void *dst, uintptr_t src,
			    size_t len)
{
	return r->fast ? ltr_fault_series_read(dst, src, len)
		       : ltr_read_mem(r->pid, dst, src, len);
}

/* Read the word at addr (no fault); 0 if unreadable. */
static inline uint64_t word_at(const struct reader *r, uintptr_t addr)
{
	uint64_t v = 0;

	if (r->fast)
		return ltr_fault_series_word(&v, addr) ? v : 0;
	if (mem_at(r, &v, addr, 8) != 8)
		return 0;
	return v;
}

/* The byte at addr, read as part of its aligned word (no fault); 0 if unreadable. */
static inline uint8_t byte_at(const struct reader *r, uintptr_t addr)
{
	return (uint8_t)(word_at(r, addr & ~(uintptr_t)7) >> (addr & 7) * 8);
}

#endif
