/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swaplib.c: the plugin dlswap loads, built twice (libswapa.so and
 * libswapb.so): the same code, with functions named by SWAP_NAME, so that
 * both take the same addresses and name them differently.
 */
#include "libfix.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define RUN CAT(SWAP_NAME, _run)
#define INNER CAT(SWAP_NAME, _inner)

int RUN(int x);

/* Not inlined nor a tail call: stacks of fix_add show both frames. */
__attribute__((noinline)) static int INNER(int x)
{
	int sum = fix_add(x, 100);

	__asm__ volatile("" ::: "memory");
	return sum;
}

/* The entry dlswap finds by dlsym. */
int RUN(int x)
{
	int sum = INNER(x);

	__asm__ volatile("" ::: "memory");
	return sum;
}
