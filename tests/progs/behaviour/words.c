/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * words.c: traced calls whose argument and return words change from one
 * call to the next as a program's do: they repeat, grow by one, shrink a
 * little, jump by any amount (up to all 64 bits), fall to 0; some calls
 * one level down (bhv_apply calling back into bhv_add3), some seen on
 * entry only (setjmp and longjmp, whose value changes too).  Usage:
 * bhv-words [ROUNDS] (2000 by default); prints the sum of the results.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "libbhv.h"

static jmp_buf env;

/* A deterministic pseudo-random number (a 64-bit LCG, its high bits mixed down). */
static uint64_t rnd(void)
{
	static uint64_t x = 1;

	x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x ^ (x >> 29);
}

/* The next value of a word: the same, one more, a little less, a jump, 0. */
static long next_word(long w)
{
	switch (rnd() % 7) {
	case 0:
	case 1:
		return w;
	case 2:
		return w + 1;
	case 3:
		return w - (long)(rnd() % 300);
	case 4:
		return w + (long)(rnd() >> (rnd() % 64));
	case 5:
		return (long)rnd();
	default:
		return 0;
	}
}

/* One call deeper: bhv_add3 called from inside bhv_apply. */
static long add_under(long x)
{
	return bhv_add3(x, -x, x / 3);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	volatile long i, a = 0, b = 0, c = 0;
	volatile unsigned long sum = 0;
	int v;

	for (i = 0; i < rounds; i++) {
		a = next_word(a);
		b = next_word(b);
		c = next_word(c);
		sum += (unsigned long)bhv_add3(a, b, c);
		if (i % 5 == 0)
			sum += (unsigned long)bhv_apply(add_under, a);
		if (i % 7 == 0) {
			v = setjmp(env);
			if (!v)
				longjmp(env, (int)(b & 0x7fffffff) | 1);
			sum += (unsigned long)v;
		}
	}
	printf("sum: %lu\n", sum);
	return 0;
}
