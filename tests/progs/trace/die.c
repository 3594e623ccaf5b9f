/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * die.c: N traced calls (argv[1]), then end the way argv[2] says: kill
 * (SIGKILL to itself), segv, abort, thread-exit (_exit from a second
 * thread), running (exit while 4 threads are still making traced calls).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../binding/libfix.h"

static volatile int sink;

/* Call fix_add forever (the process exits under it). */
static void *spin(void *arg)
{
	for (;;)
		sink += fix_add(1, 1);
	return arg;
}

/* _exit from a thread other than main. */
static void *quit(void *arg)
{
	_exit(7);
	return arg;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	const char *how = argc > 2 ? argv[2] : "kill";
	pthread_t t;

	for (i = 0; i < n; i++)
		sink += fix_add((int)i, 1);
	if (strcmp(how, "segv") == 0)
		*(volatile int *)16 = 1;
	else if (strcmp(how, "abort") == 0)
		abort();
	else if (strcmp(how, "thread-exit") == 0) {
		pthread_create(&t, NULL, quit, NULL);
		pause();
	} else if (strcmp(how, "running") == 0) {
		for (i = 0; i < 4; i++)
			pthread_create(&t, NULL, spin, NULL);
		usleep(50000);
		exit(3);
	}
	kill(getpid(), SIGKILL);
	return 0;
}
