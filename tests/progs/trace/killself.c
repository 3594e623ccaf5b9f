/* SPDX-License-Identifier: GPL-2.0-or-later */
/* killself.c: N traced calls (argv[1]), then SIGKILL to itself, mid-trace. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "../binding/libfix.h"

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	volatile int sum = 0;

	for (i = 0; i < n; i++)
		sum += fix_add((int)i, 1);
	kill(getpid(), SIGKILL);
	return sum;
}
