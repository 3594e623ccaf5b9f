/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * busythreads.c: argv[1] threads (default 4) that start together and make
 * argv[2] traced calls each (default 100000), fix_add(i, t) in thread t:
 * several rings busy at once, each thread's calls telling it apart.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../binding/libfix.h"

static pthread_barrier_t start;
static long calls;

/* Wait for every thread, then make the calls; returns their sum. */
static void *run(void *arg)
{
	int t = (int)(long)arg;
	long i, sum = 0;

	pthread_barrier_wait(&start);
	for (i = 0; i < calls; i++)
		sum += fix_add((int)i, t);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t *t;
	long total = 0;
	void *ret;

	calls = argc > 2 ? atol(argv[2]) : 100000;
	if (n < 1 || calls < 0)
		return 2;
	t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 1;
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, run, (void *)(long)i) != 0)
			return 1;
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &ret);
		total += (long)ret;
	}
	printf("%ld\n", total);
	free(t);
	return 0;
}
