/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * manythreads.c: argv[1] threads, each making 1000 traced calls; all of
 * them have made their first call before any goes on, so none can take
 * over the slot of a finished one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../binding/libfix.h"

static pthread_barrier_t all_alive, all_called;

/* Wait until every thread exists, call once, wait for all, call the rest. */
static void *run(void *arg)
{
	long i, sum;

	pthread_barrier_wait(&all_alive);
	sum = fix_add(1, 0);
	pthread_barrier_wait(&all_called);
	for (i = 1; i < 1000; i++)
		sum += fix_add(1, 0);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 600;
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	pthread_attr_t attr;
	long total = 0;
	void *ret;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_barrier_init(&all_alive, NULL, (unsigned)n);
	pthread_barrier_init(&all_called, NULL, (unsigned)n);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], &attr, run, NULL) != 0)
			return 1;
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &ret);
		total += (long)ret;
	}
	printf("%ld\n", total);
	return 0;
}
