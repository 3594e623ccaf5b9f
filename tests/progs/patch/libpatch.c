/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpatch.c: a library whose hidden helper is reached both from inside
 * (a direct call) and from outside (through a pointer it hands out), and
 * an exported function called both by the program (PLT) and by itself.
 */
#include "libpatch.h"

static unsigned n_helper, n_twice;

/* Hidden: never in .dynsym, reached only directly or through a pointer. */
__attribute__((noinline, visibility("hidden"))) int patch_helper(int x)
{
	n_helper++;
	return x + 1;
}

/* Exported; calls itself directly (-Bsymbolic-like: protected visibility). */
__attribute__((noinline, visibility("protected"))) int patch_twice(int x)
{
	int r;

	n_twice++;
	if (x > 0 && x % 2 == 0) {
		r = patch_twice(x - 1);
		__asm__ volatile("" ::: "memory"); /* a real call, no loop */
		return r * 2;
	}
	return patch_helper(x) * 2;
}

int (*patch_helper_ptr(void))(int)
{
	return patch_helper;
}

unsigned patch_helper_calls(void)
{
	return n_helper;
}

unsigned patch_twice_calls(void)
{
	return n_twice;
}
