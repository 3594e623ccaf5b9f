/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calls.c: call the fixture library every way a binding can happen; built
 * lazy, -z now, PIE, non-PIE, -fno-plt and with IBT (.plt.sec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfix.h"

int main(int argc, char **argv)
{
	int (*fp)(int, int) = fix_add; /* GLOB_DAT in a PIE, canonical PLT otherwise */
	int n = argc > 1 ? atoi(argv[1]) : 1;
	int i, sum = 0;
	char buf[32];

	for (i = 0; i < n; i++)
		sum += fix_add(2, 3);
	printf("add %d\n", sum);
	printf("pointer %d\n", fp(40, 2));
	printf("twice %d\n", fix_twice(21));
	printf("pick %d\n", fix_pick(7));
	memcpy(buf, "ifunc", 6);
	printf("strlen %zu %s\n", strlen(buf), buf);
	return 0;
}
