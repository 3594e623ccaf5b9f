/* SPDX-License-Identifier: GPL-2.0-or-later */
/* threads.c: 8 threads make 10000 traced calls each to the same function. */
#include <pthread.h>
#include <stdio.h>

#include "libbhv.h"

#define NTHREADS 8
#define NCALLS 10000

static long sums[NTHREADS];

/* Sum bhv_add3(i, t, 1) over the thread's calls. */
static void *worker(void *arg)
{
	long t = (long)arg, sum = 0, i;

	for (i = 0; i < NCALLS; i++)
		sum += bhv_add3(i, t, 1);
	sums[t] = sum;
	return NULL;
}

int main(void)
{
	pthread_t th[NTHREADS];
	long t, total = 0;

	for (t = 0; t < NTHREADS; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)t) != 0)
			return 1;
	for (t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		printf("thread %ld: %ld\n", t, sums[t]);
		total += sums[t];
	}
	printf("total: %ld\n", total);
	return 0;
}
