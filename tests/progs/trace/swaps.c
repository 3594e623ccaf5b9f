/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * swaps.c: N strcmp calls (default 1000) on argv[2] and argv[3], their
 * order swapped at each call, as a sort compares a line with the next
 * ones; prints how many compared less.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, less = 0;
	const char *a = argc > 2 ? argv[2] : "a", *b = argc > 3 ? argv[3] : "b";

	for (i = 0; i < n; i++)
		less += i % 2 ? strcmp(a, b) < 0 : strcmp(b, a) < 0;
	printf("%d\n", less);
	return 0;
}
