// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frames-floor.c: what walking 30 Python frames costs at the least, for
 * bench/run's BENCH=frames: 31 frames (30 calls deep and the module's)
 * laid out as CPython 3.11 lays out its _PyInterpreterFrames (the code
 * object at 32, previous at 48, the last instruction at 56, is_entry in
 * the word at 64, in one data stack), walked innermost first with plain
 * loads, each frame's address known only once the frame after it was
 * read.  Prints "chase words record": ns a walk following previous only,
 * reading the four words of each frame, and reading them and writing
 * the 24-byte record of each (code, frame, offset) as lib/pyframes.c
 * does; medians of REPS rounds, the three interleaved in each round, all
 * in the cache.  The interposer's loads are these plain loads, inlined
 * (lib/walk-read.h): what it adds is finding the thread state and the
 * first frame, and noting the code objects described.
 * Usage: frames-floor [WALKS] (default 2 000 000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 9
#include "timing.h"

#define FRAMES 31

/* The words of a 3.11 _PyInterpreterFrame that -k reads, at their offsets. */
struct frame {
	uint64_t head[4];
	uint64_t code;           /* 32: f_code */
	uint64_t locals;
	struct frame *previous;  /* 48 */
	uint64_t prev_instr;     /* 56 */
	uint64_t flags;          /* 64: is_entry (byte 68) */
	uint64_t stack[3];       /* the frame's locals and stack */
};

static struct frame stack[FRAMES];
static uint64_t record[FRAMES * 3];

/* Walk the frames n times in the way kind says (0 chase, 1 words, 2 record). */
static __attribute__((noinline)) double walk(int kind, long n)
{
	double t0 = now_ns();
	uint64_t sum = 0;

	for (long i = 0; i < n; i++) {
		const volatile struct frame *f = &stack[FRAMES - 1];
		uint64_t *o = record;

		while (f) {
			const volatile struct frame *prev = f->previous;

			if (kind >= 1) {
				uint64_t code = f->code, instr = f->prev_instr;

				sum += f->flags >> 32 & 0xff;
				if (kind == 2) {
					o[0] = code;
					o[1] = (uintptr_t)f;
					o[2] = instr - code - 184;
					o += 3;
				} else {
					sum += code + instr;
				}
			}
			f = prev;
		}
		__asm__ volatile("" : : "r"(sum) : "memory");
	}
	return (now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	double t[3][REPS];

	if (n <= 0) {
		fprintf(stderr, "usage: frames-floor [WALKS]\n");
		return 2;
	}
	for (int i = 0; i < FRAMES; i++) {
		stack[i].code = 0x10000 + 0x100 * (uint64_t)i;
		stack[i].prev_instr = stack[i].code + 200;
		stack[i].previous = i ? &stack[i - 1] : NULL;
		stack[i].flags = i ? 0 : 1ull << 32;
	}
	for (int r = 0; r < REPS; r++)
		for (int k = 0; k < 3; k++)
			t[k][r] = walk(k, n);
	printf("%.1f %.1f %.1f\n", median(t[0]), median(t[1]), median(t[2]));
	return 0;
}
