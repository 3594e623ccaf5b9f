/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walks.c: one traced call made from thousands of stacks, each twice
 * (tests/stacks.bats: -k keeps the names of the walks it keeps, more
 * than its tables hold at once, and must never give a walk the names of
 * another).
 *
 * Usage: stacks-walks DEPTHS ROUNDS [found]
 *
 * Each round calls tip() DEPTHS times, the d-th under d frames of rec
 * (so at a stack pointer of its own: a walk of its own) and one of three
 * functions, d % 3: via_a, via_b or via_c.  tip calls isatty(100 + the
 * way), so that each call's line says which frame must follow tip.
 * With "found", the via_ functions call tip from a comparator of
 * lfind(3): traced too, the return slot of lfind's call holds the
 * interposer's trampoline while isatty is called (lfind's frame, unlike
 * qsort's, is its stack pointer plus a constant, as all the others: the
 * stack hints describe every frame).  Prints "DEPTHS ROUNDS".
 */
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int found;    /* tip is called from lfind's comparator */
static int find_way; /* the way of the comparator's call */

/* The traced call, from a frame of its own. */
static __attribute__((noinline)) int tip(int way)
{
	int r = isatty(100 + way);

	__asm__ volatile("" ::: "memory");
	return r + way;
}

/* lfind's comparator: tip, on the way of the search. */
static __attribute__((noinline)) int by_way(const void *a, const void *b)
{
	int r = tip(find_way);

	__asm__ volatile("" ::: "memory");
	return (r & 0) + (*(const int *)a - *(const int *)b);
}

/* tip on way, directly or from lfind's comparator. */
static __attribute__((noinline)) int to_tip(int way)
{
	int key = 1, v[1] = { 1 };
	size_t n = 1;

	if (!found)
		return tip(way);
	find_way = way;
	return lfind(&key, v, &n, sizeof(v[0]), by_way) != NULL;
}

/* A way to tip: a function of its own, whose return address the walk reads. */
#define WAY(name, k)                                          \
	static __attribute__((noinline)) int name(int way)    \
	{                                                     \
		int r = to_tip(way);                          \
                                                              \
		__asm__ volatile("" ::: "memory");            \
		return r + (k);                               \
	}

WAY(via_a, 1)
WAY(via_b, 2)
WAY(via_c, 3)

/* Way way, under d frames of rec. */
static __attribute__((noinline)) int rec(int d, int way)
{
	static int (*const ways[])(int) = { via_a, via_b, via_c };
	int r = d ? rec(d - 1, way) : ways[way](way);

	__asm__ volatile("" ::: "memory");
	return r + d;
}

int main(int argc, char **argv)
{
	int depths, rounds, d, i, sum = 0;

	if (argc < 3 || argc > 4 || (depths = atoi(argv[1])) < 1 ||
	    (rounds = atoi(argv[2])) < 1)
		return 2;
	found = argc == 4 && strcmp(argv[3], "found") == 0;
	for (i = 0; i < rounds; i++)
		for (d = 0; d < depths; d++)
			sum += rec(d, d % 3);
	printf("%d %d\n", depths, rounds);
	return sum == 0 ? 3 : 0;
}
