/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seqthreads.c: N threads (argv[1]) started one after another, each making
 * one traced call; they all stay alive until the last one has made it (a
 * pool growing), then end.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../behaviour/libbhv.h"

static pthread_rwlock_t hold = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long sum;

/* One call of bhv_add3, added to sum; then wait for the others. */
static void *worker(void *arg)
{
	long one = bhv_add3((long)arg, 1, -(long)arg);

	pthread_mutex_lock(&lock);
	sum += one;
	pthread_mutex_unlock(&lock);
	pthread_rwlock_rdlock(&hold);
	pthread_rwlock_unlock(&hold);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, i;
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	pthread_rwlock_wrlock(&hold);
	for (i = 0; i < n; i++)
		if (!th || pthread_create(&th[i], &attr, worker, (void *)i) != 0)
			return 1;
	pthread_rwlock_unlock(&hold);
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%ld threads, sum %ld\n", n, sum);
	return 0;
}
