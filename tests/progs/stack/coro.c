/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * coro.c: two generator coroutines resumed in turn, each suspended inside
 * traced calls (a direct coro_yield, and one from a callback of bhv_apply).
 * "coro near" runs them from a thread whose stack is mapped right next to
 * the coroutines' stacks; "coro" from the main thread, stacks from malloc.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../behaviour/libbhv.h"
#include "libcoro.h"

#define STACK (256 * 1024)
#define ROUNDS 50

/* bhv_apply's callback: suspend the coroutine inside the traced call. */
static long yield_inside(long x)
{
	return coro_yield(x * 10) + x;
}

/* A generator: yields 2 values a round, from inside traced calls. */
static void generator(long base)
{
	long i, sum = 0;

	for (i = 0; i < ROUNDS; i++) {
		sum += coro_yield(base + i);
		sum += bhv_apply(yield_inside, base + i);
	}
	printf("generator %ld: sum %ld\n", base, sum);
}

/* Resume both coroutines until both end; stacks[0..1] are theirs. */
static void *run(void *stacks)
{
	struct coro *c[2];
	long total = 0, v;
	int i, live = 2;

	for (i = 0; i < 2; i++)
		c[i] = coro_new(generator, 1000 * (i + 1),
				(char *)stacks + i * STACK, STACK);
	while (live) {
		for (i = 0; i < 2; i++) {
			if (coro_done(c[i]))
				continue;
			v = coro_resume(c[i]);
			if (coro_done(c[i]))
				live--;
			else
				total = bhv_add3(total, v, 1);
		}
	}
	printf("total %ld\n", total);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t t;
	char *map;

	if (argc < 2 || strcmp(argv[1], "near") != 0) {
		run(malloc(2 * STACK));
		return 0;
	}
	/* Two coroutine stacks, then the thread's stack, one mapping. */
	map = mmap(NULL, 3 * STACK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, map + 2 * STACK, STACK);
	pthread_create(&t, &attr, run, map);
	pthread_join(t, NULL);
	return 0;
}
