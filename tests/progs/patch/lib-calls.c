/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib-calls.c: calls libpatch's functions from outside (PLT, a pointer to
 * its hidden helper) and makes it call them inside; prints the library's
 * own counts.  Usage: patch-lib [N]
 */
#include <stdio.h>
#include <stdlib.h>

#include "libpatch.h"

int main(int argc, char **argv)
{
	int (*helper)(int) = patch_helper_ptr();
	int n = argc > 1 ? atoi(argv[1]) : 4;
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += patch_twice(i) + helper(i);
	printf("sum %ld\n", sum);
	printf("patch_helper %u\npatch_twice %u\n", patch_helper_calls(),
	       patch_twice_calls());
	return 0;
}
