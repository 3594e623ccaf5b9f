/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slow.c: N traced calls (argv[1]) spread over about argv[2] ms, then write
 * "done N" to the file argv[3]: a program that outlives a killed ltruss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../binding/libfix.h"

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	long ms = argc > 2 ? atol(argv[2]) : 100;
	struct timespec pause = { 0, 1000000 };
	long sum = 0;
	FILE *f;

	for (i = 0; i < n; i++) {
		sum += fix_add((int)i, 1);
		if (ms && i % (n / ms + 1) == 0)
			nanosleep(&pause, NULL);
	}
	f = fopen(argc > 3 ? argv[3] : "slow.out", "w");
	if (!f)
		return 1;
	fprintf(f, "done %ld\n", sum);
	return fclose(f) != 0;
}
