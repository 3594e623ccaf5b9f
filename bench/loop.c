/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.c: call a one-line library function N times (argv[1]), from T
 * threads (argv[2]), through D levels of the program's own functions
 * (argv[3], default 0: straight from the loop).  With D > 0 each traced
 * call is followed by D returns of the program's, which a tracer that
 * upsets the CPU's return predictor makes mispredict.  With BENCH_LOOP_CPU
 * in the environment it also prints to stderr the CPU time the loop took
 * in this process ("loop-cpu-ns N"): the program's own cost, start-up
 * left out, the tracer's threads (in ltruss's process) not counted.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int bench_nop(int x);

static long calls;
static int levels;

/* bench_nop(x), called d levels down. */
__attribute__((noinline)) static long down(int d, long x)
{
	long r;

	if (d == 0)
		return bench_nop((int)x);
	r = down(d - 1, x);
	/* Not a tail call: each level returns. */
	__asm__ volatile("" : "+r"(r));
	return r;
}

/* One thread's share of the loop. */
static void *run(void *arg)
{
	long i, sum = 0;

	if (levels)
		for (i = 0; i < calls; i++)
			sum += down(levels, i);
	else
		for (i = 0; i < calls; i++)
			sum += bench_nop((int)i);
	return (void *)sum;
}

/* CPU time of this process so far, in nanoseconds. */
static long long cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Print the loop's CPU time (since t0) when BENCH_LOOP_CPU asks. */
static void report_cpu(long long t0)
{
	if (getenv("BENCH_LOOP_CPU"))
		fprintf(stderr, "loop-cpu-ns %lld\n", cpu_ns() - t0);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int t, threads = argc > 2 ? atoi(argv[2]) : 1;
	pthread_t tid[64];
	long total = 0;
	void *ret;
	long long t0 = cpu_ns();

	levels = argc > 3 ? atoi(argv[3]) : 0;
	if (threads < 1 || threads > 64)
		threads = 1;
	calls = n / threads;
	if (threads == 1) {
		/* On the main thread, where every tracer looks. */
		total = (long)run(NULL);
		report_cpu(t0);
		printf("%ld\n", total);
		return 0;
	}
	for (t = 0; t < threads; t++)
		pthread_create(&tid[t], NULL, run, NULL);
	for (t = 0; t < threads; t++) {
		pthread_join(tid[t], &ret);
		total += (long)ret;
	}
	report_cpu(t0);
	printf("%ld\n", total);
	return 0;
}
