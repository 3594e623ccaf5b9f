/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * until.c: call fix_add, fix_pick and fix_twice (which calls fix_add) about
 * every half millisecond until the file argv[1] exists, then print how many
 * rounds it made: a program that runs while a console looks at it.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 500000 };
	long rounds = 0, sum = 0;

	if (argc < 2)
		return 2;
	while (access(argv[1], F_OK) != 0) {
		sum += fix_add((int)(rounds & 0xff), 1);
		sum += fix_pick((int)(rounds & 0xff));
		sum += fix_twice(1);
		rounds++;
		nanosleep(&pause, NULL);
	}
	printf("rounds %ld sum %ld\n", rounds, sum);
	return 0;
}
