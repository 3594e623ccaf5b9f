/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printfs.c: N printf calls (default 1000), each with a string argument. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i;

	for (i = 0; i < n; i++)
		printf("line %d of %s\n", i, "printfs");
	return 0;
}
