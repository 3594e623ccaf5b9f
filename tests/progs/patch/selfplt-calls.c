/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * selfplt-calls.c: calls libpatch's selfplt_leaf N times itself and
 * selfplt_twice N times (which calls it twice); prints the library's own
 * count.  Usage: patch-selfplt [N]
 */
#include <stdio.h>
#include <stdlib.h>

#include "selfplt.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, i;
	long sum = 0;

	for (i = 0; i < n; i++)
		sum += selfplt_leaf(i) + selfplt_twice(i);
	printf("sum %ld\nselfplt_leaf %u\n", sum, selfplt_leaf_calls());
	return 0;
}
