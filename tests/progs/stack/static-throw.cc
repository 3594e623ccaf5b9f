// SPDX-License-Identifier: GPL-2.0-or-later
// static-throw.cc: built with -static-libgcc -static-libstdc++ (its own
// unwinder): a callback throws through a traced call, caught in main.
#include <stdio.h>

#include <stdexcept>

extern "C" {
#include "../behaviour/libbhv.h"
}

// bhv_apply's callback: throws for odd x.
static long thrower(long x)
{
	if (x % 2)
		throw std::runtime_error("odd");
	return x;
}

int main()
{
	long caught = 0, sum = 0, i;

	for (i = 0; i < 10; i++) {
		try {
			sum += bhv_apply(thrower, i);
		} catch (std::exception &e) {
			caught++;
		}
	}
	printf("caught %ld sum %ld\n", caught, sum);
	return 0;
}
