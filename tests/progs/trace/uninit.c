/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uninit.c: one error memcheck reports, a branch on an uninitialised
 * stack variable, after a traced call: what tests/valgrind.bats shows it
 * would see in the traced process.  (On the stack, not the heap: see
 * valgrind.bats for why memcheck does not track the heap there.)
 */
#include <stdio.h>

#include "../binding/libfix.h"

int main(void)
{
	volatile int unset;
	int r = fix_add(1, 2);

	if (unset == 42)
		r++;
	printf("%d\n", r);
	return 0;
}
