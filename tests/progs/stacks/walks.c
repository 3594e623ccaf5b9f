/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walks.c: one traced call made from thousands of stacks, each twice
 * (tests/stacks.bats: -k keeps the names of the walks it keeps, more
 * than its tables hold at once, and must never give a walk the names of
 * another).
 *
 * Usage: stacks-walks PATHS ROUNDS [found]
 *
 * Each round calls tip() PATHS times (at most 8192), the d-th under 13
 * frames of rec_0 and rec_1, the k-th of them rec_ followed by bit k of
 * d (so with return addresses of its own: a walk of its own), and one of
 * three functions, d % 3: via_a, via_b or via_c.  tip calls isatty(100 +
 * the way), so that each call's line says which frame must follow tip.
 * With "found", the via_ functions call tip from a comparator of
 * lfind(3): traced too, the return slot of lfind's call holds the
 * interposer's trampoline while isatty is called (lfind's frame, unlike
 * qsort's, is its stack pointer plus a constant, as all the others: the
 * stack hints describe every frame).  Prints "PATHS ROUNDS".
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

#define LEVELS 13 /* frames of rec_0 and rec_1 */

static int rec_0(int level, int d, int way);
static int rec_1(int level, int d, int way);

/* Level level of the path of d: the next by bit level of d, else way way. */
#define REC(name, k)                                                    \
	static __attribute__((noinline)) int name(int level, int d, int way) \
	{                                                               \
		static int (*const ways[])(int) = { via_a, via_b, via_c }; \
		int r = level == LEVELS ? ways[way](way)                \
			: d >> level & 1 ? rec_1(level + 1, d, way)     \
					 : rec_0(level + 1, d, way);    \
                                                                        \
		__asm__ volatile("" ::: "memory");                      \
		return r + (k);                                         \
	}

REC(rec_0, 0)
REC(rec_1, 1)

int main(int argc, char **argv)
{
	int depths, rounds, d, i, sum = 0;

	if (argc < 3 || argc > 4 || (depths = atoi(argv[1])) < 1 ||
	    depths > 1 << LEVELS || (rounds = atoi(argv[2])) < 1)
		return 2;
	found = argc == 4 && strcmp(argv[3], "found") == 0;
	for (i = 0; i < rounds; i++)
		for (d = 0; d < depths; d++)
			sum += rec_0(0, d, d % 3);
	printf("%d %d\n", depths, rounds);
	return sum == 0 ? 3 : 0;
}
