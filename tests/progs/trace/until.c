/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * until.c: call fix_add, fix_pick and fix_twice (which calls fix_add) about
 * every half millisecond until the file argv[1] exists, then print how many
 * rounds it made: a program that runs while a console looks at it.  Once
 * the file argv[2] (if given) exists, it also calls fix_ver, bound (lazily)
 * only then, and prints how many times it did.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 500000 };
	long rounds = 0, sum = 0, late = 0;

	if (argc < 2)
		return 2;
	while (access(argv[1], F_OK) != 0) {
		sum += fix_add((int)(rounds & 0xff), 1);
		sum += fix_pick((int)(rounds & 0xff));
		sum += fix_twice(1);
		if (argc > 2 && (late || access(argv[2], F_OK) == 0)) {
			sum += fix_ver();
			late++;
		}
		rounds++;
		nanosleep(&pause, NULL);
	}
	printf("rounds %ld sum %ld\n", rounds, sum);
	if (argc > 2)
		printf("late %ld\n", late);
	return 0;
}
