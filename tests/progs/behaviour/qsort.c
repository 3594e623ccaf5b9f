/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qsort.c: libc's qsort calling back into the program and into a library comparator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libbhv.h"

#define NLONGS 64

static int str_compares;

/* Compare two strings through a traced strcmp call, counting the calls. */
static int cmp_str(const void *a, const void *b)
{
	str_compares++;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *words[] = { "pear", "apple", "fig", "kiwi", "banana",
				"cherry", "date", "grape" };
	size_t nwords = sizeof(words) / sizeof(words[0]), i;
	long longs[NLONGS];

	for (i = 0; i < NLONGS; i++)
		longs[i] = (long)((i * 7919) % 101) - 50;
	qsort(words, nwords, sizeof(words[0]), cmp_str);
	qsort(longs, NLONGS, sizeof(longs[0]), bhv_cmp_long);
	for (i = 0; i < nwords; i++)
		printf("%s%c", words[i], i + 1 < nwords ? ' ' : '\n');
	for (i = 0; i < NLONGS; i++)
		printf("%ld%c", longs[i], i + 1 < NLONGS ? ' ' : '\n');
	printf("string comparisons: %d\n", str_compares);
	return 0;
}
