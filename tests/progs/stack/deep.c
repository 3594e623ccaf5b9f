/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deep.c: recursion N traced calls deep (bhv_apply calling back into itself). */
#include <stdio.h>
#include <stdlib.h>

#include "../behaviour/libbhv.h"

/* One level: a traced call that calls back one level less deep. */
static long deeper(long x)
{
	return x > 1 ? bhv_apply(deeper, x - 1) : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;

	printf("depth %ld: %ld\n", n, bhv_apply(deeper, n));
	return 0;
}
