/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trickle.c: call fix_add about every argv[2] microseconds (busy-waiting,
 * so that no sleep rounds it up) until the file argv[1] exists, then print
 * how many calls it made: a program whose calls never stop long.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

/* CLOCK_MONOTONIC in microseconds. */
static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	long long every = argc > 2 ? atoll(argv[2]) : 20, next = now_us();
	long calls = 0, sum = 0;

	if (argc < 2)
		return 2;
	while (calls % 64 || access(argv[1], F_OK) != 0) {
		sum += fix_add((int)(calls & 0xff), 1);
		calls++;
		next += every;
		while (now_us() < next)
			;
	}
	printf("calls %ld sum %ld\n", calls, sum);
	return 0;
}
