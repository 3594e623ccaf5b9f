/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heapfix.c: known allocations for --heap (tests/heap.bats), one mode a run:
 *   basic    99 blocks of 10000 kept (leak_a), 5 of 1000000 (peak_b) freed,
 *            a realloc chain kept (grow), aligned blocks kept (aligned),
 *            a reallocarray freed, free(NULL)
 *   threads  two threads allocate blocks the other one frees
 *   crash    3 blocks of 1234 kept, then a SIGSEGV
 *   fork     a child frees a block its parent allocated, and leaks one
 *   exec     1 block of 4321 kept, then the program again, basic
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static void *keep[256];
static unsigned nkeep;

/* Keep p, so that it is still allocated at exit. */
static NOINLINE void hold(void *p)
{
	keep[nkeep++] = p;
	__asm__ volatile("" : : "r"(p) : "memory");
}

NOINLINE void leak_a(void)
{
	hold(malloc(10000));
}

NOINLINE void *peak_b(void)
{
	void *p = calloc(1000, 1000);

	/* Not a tail call: peak_b's frame is there when calloc runs. */
	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

NOINLINE void grow(void)
{
	char *p = realloc(NULL, 100);

	p = realloc(p, 1000);
	p = realloc(p, 100000);
	hold(p);
}

NOINLINE void aligned(void)
{
	void *q = NULL;

	hold(memalign(64, 1000));
	if (posix_memalign(&q, 64, 2000) == 0)
		hold(q);
	hold(aligned_alloc(64, 4096));
	hold(valloc(3000));
	free(reallocarray(NULL, 10, 30));
	free(NULL);
}

static int basic(void)
{
	void *big[5];
	int i;

	for (i = 0; i < 99; i++)
		leak_a();
	for (i = 0; i < 5; i++)
		big[i] = peak_b();
	for (i = 0; i < 5; i++)
		free(big[i]);
	grow();
	aligned();
	return 0;
}

/*
 * threads: each of two threads allocates ROUNDS blocks and hands each to
 * the other through a queue, which frees it; each also keeps 10 blocks
 * of 300 bytes.  Addresses come back fast: what a thread frees, the
 * other's next allocation may get.
 */
#define ROUNDS 2000
struct queue {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	void *slots[64];
	unsigned head, tail;
};
static struct queue queues[2] = {
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { 0 }, 0, 0 },
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { 0 }, 0, 0 },
};

static void put(struct queue *q, void *p)
{
	pthread_mutex_lock(&q->lock);
	while (q->tail - q->head == 64)
		pthread_cond_wait(&q->cond, &q->lock);
	q->slots[q->tail++ % 64] = p;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* The next block of q, or NULL when there is none yet. */
static void *take(struct queue *q)
{
	void *p = NULL;

	pthread_mutex_lock(&q->lock);
	if (q->head != q->tail) {
		p = q->slots[q->head++ % 64];
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	return p;
}

static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;

NOINLINE void *exchange(void *arg)
{
	unsigned me = (unsigned)(uintptr_t)arg, sent = 0, freed = 0;
	void *p;
	int i;

	for (i = 0; i < 10; i++) {
		pthread_mutex_lock(&keep_lock);
		hold(malloc(300));
		pthread_mutex_unlock(&keep_lock);
	}
	while (sent < ROUNDS || freed < ROUNDS) {
		if (sent < ROUNDS) {
			put(&queues[me], malloc(64 + me));
			sent++;
		}
		while ((p = take(&queues[!me])) != NULL) {
			free(p);
			freed++;
		}
	}
	return NULL;
}

static int threads(void)
{
	pthread_t t[2];
	uintptr_t i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, exchange, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}

NOINLINE void crash_leak(void)
{
	hold(malloc(1234));
}

static int crash(void)
{
	int i;

	for (i = 0; i < 3; i++)
		crash_leak();
	raise(SIGSEGV);
	return 1;
}

NOINLINE void child_leak(void)
{
	hold(malloc(555));
}

static int forks(void)
{
	void *shared = malloc(777);
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		free(shared); /* allocated by the parent: never seen in the child */
		child_leak();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	free(shared);
	return 0;
}

/* Keep a block, then run this program again in basic mode. */
static int exec_basic(const char *self)
{
	hold(malloc(4321));
	execl(self, self, "basic", (char *)NULL);
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";

	if (strcmp(mode, "threads") == 0)
		return threads();
	if (strcmp(mode, "crash") == 0)
		return crash();
	if (strcmp(mode, "fork") == 0)
		return forks();
	if (strcmp(mode, "exec") == 0)
		return exec_basic(argv[0]);
	return basic();
}
