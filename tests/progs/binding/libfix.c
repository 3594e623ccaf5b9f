/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libfix.c: a fixture library: plain, versioned and IFUNC functions to trace. */
#include "libfix.h"

int fix_add(int a, int b)
{
	return a + b;
}

/* Calls fix_add through the PLT (the library calling itself: '::'). */
int fix_twice(int a)
{
	return fix_add(a, a);
}

/* Two versions of one function: old callers keep getting VER_1. */
int fix_ver_v1(void)
{
	return 1;
}

int fix_ver_v2(void)
{
	return 2;
}
__asm__(".symver fix_ver_v1, fix_ver@VER_1");
__asm__(".symver fix_ver_v2, fix_ver@@VER_2");

/* An IFUNC whose resolver picks one of two implementations. */
static int fix_pick_a(int x)
{
	return x * 10;
}

static int fix_pick_b(int x)
{
	return x * 10;
}

static int (*fix_pick_resolve(void))(int)
{
	return sizeof(long) == 8 ? fix_pick_a : fix_pick_b;
}

int fix_pick(int x) __attribute__((ifunc("fix_pick_resolve")));
