/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pthread-exit.c: worker threads end with pthread_exit called inside a traced call. */
#include <pthread.h>
#include <stdio.h>

#include "libbhv.h"

#define NTHREADS 4

/* A cleanup handler that runs while the thread unwinds out of the call. */
static void cleanup(void *arg)
{
	printf("cleanup %ld\n", (long)arg);
}

/* Make a traced call, then leave the thread from inside another. */
static void *worker(void *arg)
{
	long t = (long)arg;

	pthread_cleanup_push(cleanup, arg);
	bhv_thread_exit(bhv_add3(t, 0x40, 0));
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void)
{
	pthread_t th;
	void *ret;
	long t;

	/* One worker at a time, so that the output has a fixed order. */
	for (t = 1; t <= NTHREADS; t++) {
		if (pthread_create(&th, NULL, worker, (void *)t) != 0)
			return 1;
		pthread_join(th, &ret);
		printf("thread %ld returned %#lx\n", t, (long)ret);
		fflush(stdout);
	}
	printf("main: %ld\n", bhv_add3(1, 2, 3));
	return 5;
}
