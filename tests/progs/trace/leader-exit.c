/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leader-exit.c: the main thread calls pthread_exit() while another
 * thread runs on, makes traced calls (getppid) and ends the process with
 * exit(7).  The leader is a zombie all that while: ltruss must not take
 * it for the process's end.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* Outlive the leader, then end the process. */
static void *worker(void *arg)
{
	int i;

	for (i = 0; i < 5; i++) {
		usleep(100000);
		getppid();
	}
	exit(7);
}

int main(void)
{
	pthread_t t;

	getppid();
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		return 1;
	pthread_exit(NULL);
}
