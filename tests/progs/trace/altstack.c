/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * altstack.c: a thread blocks in a traced pause(); a signal handler running
 * on an alternate stack mapped just above that thread's stack makes a
 * traced call; pause returns to the thread, which must go on.  With the
 * argument "autodisarm" the alternate stack is SS_AUTODISARM: while the
 * handler runs on it, the kernel no longer says it is on one.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK (1 << 20)
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1u << 31) /* linux/signal.h: glibc does not define it */
#endif

static char *stacks; /* the thread's stack, then the alternate stack */
static int ss_flags;

/* The handler's traced call, on the alternate stack. */
static void handler(int sig)
{
	getpid();
}

/* Block in pause() with the handler on the alternate stack above us. */
static void *thread(void *arg)
{
	stack_t ss = { .ss_sp = stacks + STACK, .ss_size = STACK,
		       .ss_flags = ss_flags };

	sigaltstack(&ss, NULL);
	pause();
	return (void *)42;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	pthread_attr_t attr;
	pthread_t t;
	void *ret;

	if (argc > 1 && strcmp(argv[1], "autodisarm") == 0)
		ss_flags = SS_AUTODISARM;
	stacks = mmap(NULL, 2 * STACK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stacks == MAP_FAILED)
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, stacks, STACK);
	pthread_create(&t, &attr, thread, NULL);
	usleep(100000);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, &ret);
	printf("thread returned %ld\n", (long)ret);
	return 0;
}
