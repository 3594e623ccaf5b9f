/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thread.c: a thread whose start routine calls a library function through
 * a static function; its stack ends at the start routine (tests/stacks.bats).
 */
#include <pthread.h>
#include <stdio.h>

static __attribute__((noinline)) int report(const char *s)
{
	int r = puts(s);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

static void *worker(void *arg)
{
	long r = report(arg);

	__asm__ volatile("" ::: "memory");
	return (void *)r;
}

int main(void)
{
	pthread_t t;
	void *r;

	if (pthread_create(&t, NULL, worker, "from the thread") != 0)
		return 1;
	pthread_join(t, &r);
	return r == NULL;
}
