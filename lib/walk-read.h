/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk-read.h: reads of the program's memory that never fault, for the
 * walks of an interpreter's frames at a -k call (pyframes.c, tclframes.c):
 * under one mark (fault-copy.c's series) when the fast copy may be used,
 * loads inlined where they are used, each resumed through ltr_fixups if
 * it faults, and copies of strings; else ltr_read_mem.
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

/*
 * The words at p + off[0..3] into v[0..3] (no fault); false if one is
 * unreadable.  In a series, four loads inlined (each in ltr_fixups, all
 * resuming past the one that says they were read): a frame's fields for
 * a few instructions, so that a walk costs what its loads cost.  Volatile,
 * so that it stays inside its series; no "memory" clobber, which would
 * make the compiler reload every variable of the walk after each frame.
 */
static inline bool words4_at(const struct reader *r, uintptr_t p,
			     const uint32_t off[4], uint64_t v[4])
{
	uint64_t a, b, c, d;
	unsigned ok;

	/* Not a loop: v and off stay in registers, not arrays in memory. */
	if (!r->fast) {
		if (mem_at(r, &a, p + off[0], 8) != 8 ||
		    mem_at(r, &b, p + off[1], 8) != 8 ||
		    mem_at(r, &c, p + off[2], 8) != 8 ||
		    mem_at(r, &d, p + off[3], 8) != 8)
			return false;
		v[0] = a, v[1] = b, v[2] = c, v[3] = d;
		return true;
	}
	if (p < 4096)
		return false;
	__asm__ volatile("xorl %k[ok], %k[ok]\n"
			 "1: movq (%[p],%[o0]), %[a]\n"
			 "2: movq (%[p],%[o1]), %[b]\n"
			 "3: movq (%[p],%[o2]), %[c]\n"
			 "4: movq (%[p],%[o3]), %[d]\n"
			 "movl $1, %k[ok]\n"
			 "5:\n" LTR_FIXUP("1b", "5b") LTR_FIXUP("2b", "5b")
				 LTR_FIXUP("3b", "5b") LTR_FIXUP("4b", "5b")
			 : [ok] "=&r"(ok), [a] "=&r"(v[0]), [b] "=&r"(v[1]),
			   [c] "=&r"(v[2]), [d] "=&r"(v[3])
			 : [p] "r"(p), [o0] "r"((uintptr_t)off[0]),
			   [o1] "r"((uintptr_t)off[1]), [o2] "r"((uintptr_t)off[2]),
			   [o3] "r"((uintptr_t)off[3]));
	return ok;
}

/*
 * In a series, the words at p + o0, o1, o2 and the byte at p + o3 into
 * *a..*d, and nothing else: a fault goes straight to the false return
 * (asm goto), with no flag to set and test for each frame of a walk; the
 * words are memory operands, so that offsets known when compiling are a
 * load's displacement, not a register each.  p must be at least 4096.
 */
static inline __attribute__((always_inline)) bool
words3b_series(uintptr_t p, uint32_t o0, uint32_t o1, uint32_t o2, uint32_t o3,
	       uint64_t *a, uint64_t *b, uint64_t *c, uint64_t *d)
{
	uint64_t va, vb, vc, vd;

	__asm__ goto("1: movq %[m0], %[a]\n"
		     "2: movq %[m1], %[b]\n"
		     "3: movq %[m2], %[c]\n"
		     "4: movzbq %[m3], %[d]\n"
		     LTR_FIXUP("1b", "%l[fault]") LTR_FIXUP("2b", "%l[fault]")
		     LTR_FIXUP("3b", "%l[fault]") LTR_FIXUP("4b", "%l[fault]")
		     : [a] "=&r"(va), [b] "=&r"(vb), [c] "=&r"(vc),
		       [d] "=&r"(vd)
		     : [m0] "m"(*(const uint64_t *)(p + o0)),
		       [m1] "m"(*(const uint64_t *)(p + o1)),
		       [m2] "m"(*(const uint64_t *)(p + o2)),
		       [m3] "m"(*(const uint8_t *)(p + o3))
		     :
		     : fault);
	*a = va, *b = vb, *c = vc, *d = vd;
	return true;
fault:
	return false;
}

/* In a series, the word at addr into *v, inlined; false if it faulted. */
static inline bool load_word(uintptr_t addr, uint64_t *v)
{
	unsigned ok;

	__asm__ volatile("xorl %k[ok], %k[ok]\n"
			 "1: movq (%[p]), %[v]\n"
			 "movl $1, %k[ok]\n"
			 "2:\n" LTR_FIXUP("1b", "2b")
			 : [ok] "=&r"(ok), [v] "=&r"(*v)
			 : [p] "r"(addr));
	return ok;
}

/* Read the word at addr (no fault); 0 if unreadable. */
static inline uint64_t word_at(const struct reader *r, uintptr_t addr)
{
	uint64_t v = 0;

	if (!r->fast)
		return mem_at(r, &v, addr, 8) == 8 ? v : 0;
	return addr >= 4096 && load_word(addr, &v) ? v : 0;
}

#define WALK_SMALL_MAX 64 /* bytes bytes_at copies by words */

/*
 * Copy up to len bytes at src to dst (no fault); returns how many.  A
 * short string (a name) in a series: the aligned words that hold it,
 * loaded inline rather than a call and a string instruction whose start
 * costs more than the copy.  An aligned word never crosses a page, so one
 * that holds a readable byte is readable whole; one that faults leaves
 * the copy to mem_at, which says how much could be read.
 */
static inline size_t bytes_at(const struct reader *r, void *dst, uintptr_t src,
			      size_t len)
{
	uint64_t w[WALK_SMALL_MAX / 8 + 1];
	uintptr_t a = src & ~(uintptr_t)7;
	unsigned char *d = dst;
	size_t n, i;

	if (!r->fast || len > WALK_SMALL_MAX || src < 4096)
		return mem_at(r, dst, src, len);
	n = (src + len - a + 7) / 8;
	for (i = 0; i < n; i++)
		if (!load_word(a + i * 8, &w[i]))
			return mem_at(r, dst, src, len);
	for (i = 0; i < len; i++)
		d[i] = ((const unsigned char *)w)[src - a + i];
	return len;
}

#endif
