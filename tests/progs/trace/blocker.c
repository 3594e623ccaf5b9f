/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blocker.c: the main thread blocks in usleep(400 ms) while a second thread,
 * after 150 ms, makes three getppid() calls: interleaved trace lines.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Wait without a traced call, then make three traced ones. */
static void *worker(void *arg)
{
	struct timespec ts = { 0, 150000000 };
	int i;

	nanosleep(&ts, NULL);
	for (i = 0; i < 3; i++)
		getppid();
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	usleep(400000);
	pthread_join(t, NULL);
	puts("done");
	return 0;
}
