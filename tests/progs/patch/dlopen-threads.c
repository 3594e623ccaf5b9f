/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlopen-threads.c: 4 threads call the program's own function work() in
 * a loop while the main thread opens libpatch.so with dlopen and calls
 * it; prints how often each was entered.  Usage: patch-dlopen [ROUNDS]
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long n_work[4];
static int stop;

/* The program's own function the threads call. */
__attribute__((noinline)) static unsigned long work(unsigned long *count,
						     unsigned long x)
{
	__atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
	return x * 3 + 1;
}

/* A thread: call work until told to stop, at least a few times. */
static void *worker(void *arg)
{
	unsigned long *count = arg, x = 0;

	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE) || *count < 100)
		x = work(count, x) & 0xffff;
	return (void *)x;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3, i;
	unsigned (*helper_calls)(void), (*twice_calls)(void);
	int (*twice)(int);
	pthread_t t[4];
	long sum = 0;
	void *lib;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, &n_work[i]);
	lib = dlopen("libpatch.so", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	twice = (int (*)(int))dlsym(lib, "patch_twice");
	helper_calls = (unsigned (*)(void))dlsym(lib, "patch_helper_calls");
	twice_calls = (unsigned (*)(void))dlsym(lib, "patch_twice_calls");
	for (i = 0; i < rounds; i++)
		sum += twice(i);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("sum %ld\n", sum);
	printf("work %lu\n", n_work[0] + n_work[1] + n_work[2] + n_work[3]);
	printf("patch_helper %u\npatch_twice %u\n", helper_calls(),
	       twice_calls());
	return 0;
}
