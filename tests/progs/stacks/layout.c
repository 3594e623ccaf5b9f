/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layout.c: libstacks-laya.so and libstacks-layb.so, the same code but
 * for the size of one frame (PAD), so that the return address of its
 * call is the same in both, its frame not (tests/stacks.bats: a stack
 * hint the interposer keeps must not outlive the object it describes).
 */
#include <unistd.h>

/* The traced call: its own frame, no tail call into isatty. */
static __attribute__((noinline)) int leaf(int x)
{
	int r = isatty(100 + x);

	__asm__ volatile("" ::: "memory");
	return r;
}

/* leaf under a frame of PAD bytes. */
int through(int x)
{
	volatile char pad[PAD];
	int r;

	pad[0] = (char)x;
	r = leaf(x);
	return r + pad[0] + pad[PAD - 1];
}
