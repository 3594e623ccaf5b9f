/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * relayout.c: objects opened and closed in turn, each one's through()
 * called many times (tests/stacks.bats).
 *
 * Usage: stacks-relayout ROUNDS LIBRARY...
 *
 * Opens each LIBRARY in turn, calls its through(k) ROUNDS times, and
 * closes it before the next: the loader gives the next one the addresses
 * the last one had, when they are the same size.  Prints "LIBRARY
 * ADDRESS" for each, through's address.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rounds, i, k, sum = 0;
	int (*through)(int);
	void *h;

	if (argc < 3 || (rounds = atoi(argv[1])) < 1)
		return 2;
	for (k = 2; k < argc; k++) {
		h = dlopen(argv[k], RTLD_NOW);
		if (!h || !(through = (int (*)(int))dlsym(h, "through"))) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		printf("%s %p\n", argv[k], (void *)through);
		for (i = 0; i < rounds; i++)
			sum += through(k);
		dlclose(h);
	}
	return sum == -1 ? 3 : 0;
}
