/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnocfi.c: a function built without unwind tables (no .eh_frame entry)
 * that calls a library function: a stack through it cannot be followed
 * further, and must say so (tests/stacks.bats).
 */
#include <stdio.h>

int nocfi_call(const char *s)
{
	int r = puts(s);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}
