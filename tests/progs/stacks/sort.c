/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sort.c: a qsort comparator that calls a library function (strcmp),
 * so that its stack runs through libc's sorting code (tests/stacks.bats).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __attribute__((noinline)) int by_name(const void *a, const void *b)
{
	int r = strcmp(*(char *const *)a, *(char *const *)b);

	__asm__ volatile("" ::: "memory");
	return r < 0 ? -1 : r > 0;
}

int main(void)
{
	const char *names[] = { "pear", "apple", "fig", "plum" };
	size_t i;

	qsort(names, 4, sizeof(names[0]), by_name);
	for (i = 0; i < 4; i++)
		puts(names[i]);
	return 0;
}
