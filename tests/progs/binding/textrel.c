/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * textrel.c: a library with text relocations (non-PIC code): fix_add's
 * address is an R_X86_64_64 relocation inside its code, which the loader
 * writes while the code is writable and then protects again.  The
 * program calls it.
 */
#include "libfix.h"

int textrel_call(int a, int b);

int textrel_call(int a, int b)
{
	int (*volatile f)(int, int) = fix_add;

	return f(a, b);
}
