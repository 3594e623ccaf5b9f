/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spin.c: argv[1] threads each calling fix_add argv[2] times; prints the sum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../binding/libfix.h"

static long calls;

/* One thread's share. */
static void *run(void *arg)
{
	long i, sum = 0;

	for (i = 0; i < calls; i++)
		sum += fix_add((int)(i & 0xffff), 1);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int t, n = argc > 1 ? atoi(argv[1]) : 8;
	pthread_t tid[256];
	long total = 0;
	void *ret;

	calls = argc > 2 ? atol(argv[2]) : 1000;
	if (n < 1 || n > 256)
		n = 8;
	for (t = 0; t < n; t++)
		pthread_create(&tid[t], NULL, run, NULL);
	for (t = 0; t < n; t++) {
		pthread_join(tid[t], &ret);
		total += (long)ret;
	}
	printf("%ld\n", total);
	return 0;
}
