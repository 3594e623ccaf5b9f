/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loop.c: call a one-line library function N times (argv[1]), from T threads (argv[2]). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int bench_nop(int x);

static long calls;

/* One thread's share of the loop. */
static void *run(void *arg)
{
	long i, sum = 0;

	for (i = 0; i < calls; i++)
		sum += bench_nop((int)i);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int t, threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];
	long total = 0;
	void *ret;

	if (threads < 1 || threads > 64)
		threads = 1;
	calls = n / threads;
	if (threads == 1) {
		/* On the main thread, where every tracer looks. */
		printf("%ld\n", (long)run(NULL));
		return 0;
	}
	for (t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, run, NULL);
	for (t = 0; t < threads; t++) {
		pthread_join(tid[t], &ret);
		total += (long)ret;
	}
	printf("%ld\n", total);
	return 0;
}
