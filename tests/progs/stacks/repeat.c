/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repeat.c: one traced call made again and again from the same place,
 * under callers that differ (tests/stacks.bats: -k keeps the walk of a
 * stack seen before, and must never give it to a stack it is not).
 *
 * Usage: stacks-repeat ROUNDS [RUN]
 *
 * Each round calls leaf() five ways, in turn, from the same call site of
 * main (a table of functions): through via_a, through via_b (a function
 * of the same frame: leaf runs at the same stack pointer, with the same
 * return address, under another caller), through deeper and via_a (the
 * same return addresses as the first, one frame more), directly, and
 * under DOWN frames of down (kilobytes of stack, deeper than a small -k
 * shows: the copy may stop where ltruss stops reading).  leaf calls isatty(100 + the way), so
 * that each call's line says which frames must follow it.  With RUN,
 * each way RUN times in a row (1 by default): a stack the same as the
 * call's before, then one that is not under the same return address.
 * Prints "ROUNDS".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The traced call, from a frame of its own. */
static __attribute__((noinline)) int leaf(int way)
{
	int r = isatty(100 + way);

	__asm__ volatile("" ::: "memory");
	return r + way;
}

/* Way 1 (and 3, under deeper). */
static __attribute__((noinline)) int via_a(int way)
{
	int r = leaf(way);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* Way 2: via_a's frame, another function (not folded into via_a). */
static __attribute__((noinline)) int via_b(int way)
{
	int r = leaf(way);

	__asm__ volatile("" ::: "memory");
	return r + 2;
}

/* Way 3: via_a one frame deeper. */
static __attribute__((noinline)) int deeper(int way)
{
	int r = via_a(way);

	__asm__ volatile("" ::: "memory");
	return r + 3;
}

#define DOWN 4

/* Way 5: leaf under n frames of down, of some 1.4 KiB each. */
static __attribute__((noinline)) int down(int n)
{
	char pad[1400];
	int r;

	__asm__ volatile("" : : "r"(pad) : "memory");
	r = n > 1 ? down(n - 1) : leaf(5);
	__asm__ volatile("" : : "r"(pad) : "memory");
	return r + n;
}

/* Way 5, from main's table. */
static __attribute__((noinline)) int way_down(int way)
{
	int r = down(DOWN);

	__asm__ volatile("" ::: "memory");
	return r + way;
}

int main(int argc, char **argv)
{
	static int (*const ways[])(int) = { via_a, via_b, deeper, leaf,
					    way_down };
	int (*volatile way)(int);
	int rounds, run = 1, i, k, j, sum = 0;

	if (argc < 2 || argc > 3 || (rounds = atoi(argv[1])) < 1 ||
	    (argc == 3 && (run = atoi(argv[2])) < 1))
		return 2;
	for (i = 0; i < rounds; i++) {
		for (k = 0; k < 5; k++) {
			way = ways[k];
			for (j = 0; j < run; j++)
				sum += way(k + 1);
		}
	}
	printf("%d\n", rounds);
	return sum == 0 ? 3 : 0;
}
