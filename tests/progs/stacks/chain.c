/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chain.c: static functions, built -O2 -fomit-frame-pointer, down to a
 * library call (tests/stacks.bats): main -> top -> middle -> leaf -> puts.
 * Each call is followed by work on its result, so none is a tail call.
 */
#include <stdio.h>

#define KEEP() __asm__ volatile("" ::: "memory")

static __attribute__((noinline)) int leaf(const char *s)
{
	int r = puts(s);

	KEEP();
	return r + 1;
}

static __attribute__((noinline)) int middle(const char *s)
{
	int r = leaf(s);

	KEEP();
	return r * 3;
}

static __attribute__((noinline)) int top(const char *s)
{
	int r = middle(s);

	KEEP();
	return r - 7;
}

int main(int argc, char **argv)
{
	return top(argc > 1 ? argv[1] : "chain") < 0;
}
