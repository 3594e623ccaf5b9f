/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * turns.c: argv[1] threads (default 4) that take turns, argv[2] turns each
 * (default 200), making argv[3] traced calls a turn (default 100),
 * fix_add(i, t) in thread t: several rings hold events at once, yet the
 * order of the calls is the program's whatever the timing, so two traces
 * of it are the same lines (the turns pass by semaphores, untraced).
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#include "../binding/libfix.h"

#define MAX_THREADS 64

static sem_t turn[MAX_THREADS];
static int threads;
static long turns, calls;

/* Make this thread's calls in its turns; returns their sum. */
static void *run(void *arg)
{
	int t = (int)(long)arg;
	long k, i, sum = 0;

	for (k = 0; k < turns; k++) {
		sem_wait(&turn[t]);
		for (i = 0; i < calls; i++)
			sum += fix_add((int)(k * calls + i), t);
		sem_post(&turn[(t + 1) % threads]);
	}
	return (void *)sum;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	long total = 0;
	void *ret;
	int i;

	threads = argc > 1 ? atoi(argv[1]) : 4;
	turns = argc > 2 ? atol(argv[2]) : 200;
	calls = argc > 3 ? atol(argv[3]) : 100;
	if (threads < 1 || threads > MAX_THREADS || turns < 0 || calls < 0)
		return 2;
	for (i = 0; i < threads; i++)
		sem_init(&turn[i], 0, 0);
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, run, (void *)(long)i) != 0)
			return 1;
	sem_post(&turn[0]);
	for (i = 0; i < threads; i++) {
		pthread_join(t[i], &ret);
		total += (long)ret;
	}
	printf("%ld\n", total);
	return 0;
}
