/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads.c: 8 threads make 10000 traced calls each to the same function;
 * with the argument "nested", 2000 rounds each of calls inside calls, of
 * several functions, some failing: bhv_apply calls back into the program,
 * which calls close(-1) (EBADF) and bhv_add3; qsort calls bhv_cmp_long
 * (a recording of it spans many blocks, for --read's narrowed counts).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libbhv.h"

#define NTHREADS 8
#define NCALLS 10000
#define ROUNDS 2000

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

/* bhv_apply's callback: a failing call and a traced one, a level down. */
static long inner(long x)
{
	if (close(-1) == 0)
		return -1;
	return bhv_add3(x, 1, 2);
}

/* ROUNDS rounds of nested calls; the sum of what they return. */
static void *nested(void *arg)
{
	long t = (long)arg, sum = 0, i, k, a[6];

	for (i = 0; i < ROUNDS; i++) {
		sum += bhv_apply(inner, i + t);
		for (k = 0; k < 6; k++)
			a[k] = (i * 7 + k * 5 + t) % 13;
		qsort(a, 6, sizeof(a[0]), bhv_cmp_long);
		sum += a[0];
	}
	sums[t] = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*run)(void *) = argc > 1 && strcmp(argv[1], "nested") == 0
				       ? nested
				       : worker;
	pthread_t th[NTHREADS];
	long t, total = 0;

	for (t = 0; t < NTHREADS; t++)
		if (pthread_create(&th[t], NULL, run, (void *)t) != 0)
			return 1;
	for (t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		printf("thread %ld: %ld\n", t, sums[t]);
		total += sums[t];
	}
	printf("total: %ld\n", total);
	return 0;
}
