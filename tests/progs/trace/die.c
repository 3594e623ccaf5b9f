/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * die.c: N traced calls (argv[1]), then end the way argv[2] says: kill
 * (SIGKILL to itself), segv, abort, thread-exit (_exit from a second
 * thread), running (exit while 4 threads are still making traced calls),
 * wait (create the file argv[3], then wait for a signal to end it), count
 * (create argv[3], wait for SIGINT and 300 ms more, print how many came),
 * terms (create argv[3]; with argv[4] "group" send SIGTERM to its process
 * group with kill(0), with "pgid" with kill(-pgid); wait for SIGTERM and
 * 300 ms more, print how many came: a second one is a "force quit", exit 3).
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

static volatile int sink;
static volatile sig_atomic_t interrupts;

/* Count a SIGINT. */
static void on_interrupt(int sig)
{
	interrupts++;
}

/* Count a SIGTERM: a second one forces the program out, as servers do. */
static void on_term(int sig)
{
	static const char msg[] = "force quit\n";

	if (++interrupts < 2)
		return;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(4);
	_exit(3);
}

/* Create the file path: the program is ready for its signal. */
static int ready(const char *path)
{
	return path && close(open(path, O_WRONLY | O_CREAT, 0600)) == 0;
}

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
	} else if (strcmp(how, "wait") == 0) {
		if (!ready(argv[3]))
			return 1;
		for (;;)
			pause();
	} else if (strcmp(how, "count") == 0 || strcmp(how, "terms") == 0) {
		bool terms = strcmp(how, "terms") == 0;
		const char *send = argc > 4 ? argv[4] : "";
		struct sigaction sa = { .sa_handler = terms ? on_term
							    : on_interrupt };
		struct timespec tick = { 0, 10000000 }, more = { 0, 300000000 };

		sigaction(terms ? SIGTERM : SIGINT, &sa, NULL);
		if (!ready(argv[3]))
			return 1;
		if (strcmp(send, "group") == 0)
			kill(0, SIGTERM);
		else if (strcmp(send, "pgid") == 0)
			kill(-getpgrp(), SIGTERM);
		while (!interrupts)
			nanosleep(&tick, NULL);
		/* Long enough for a second one, had it been sent twice. */
		while (nanosleep(&more, &more) < 0)
			;
		printf("%s %d\n", terms ? "sigterms" : "interrupts",
		       (int)interrupts);
		return 0;
	}
	kill(getpid(), SIGKILL);
	return 0;
}
