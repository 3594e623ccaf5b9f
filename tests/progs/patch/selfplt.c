/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selfplt.c: a function of libpatch.so that the library calls itself
 * through its own PLT (default visibility: gcc keeps such calls
 * interposable), and that the program calls too.
 */
#include "selfplt.h"

static unsigned n_leaf;

/* Exported, default visibility: the library's calls go through its PLT. */
__attribute__((noinline)) int selfplt_leaf(int x)
{
	n_leaf++;
	return x + 1;
}

/* Two calls of selfplt_leaf from inside the library. */
int selfplt_twice(int x)
{
	int a = selfplt_leaf(x);

	__asm__ volatile("" ::: "memory"); /* two real calls, no tail call */
	return a + selfplt_leaf(x + 1);
}

unsigned selfplt_leaf_calls(void)
{
	return n_leaf;
}
