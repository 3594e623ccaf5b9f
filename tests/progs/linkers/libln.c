/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libln.c: a library linked by every linker and rewritten by patchelf
 * (tests/progs/linkers/build): its functions call libc and libdep.so,
 * through the PLT and through a pointer (a GLOB_DAT slot).
 */
#include <stdio.h>
#include <string.h>

#include "ln.h"

int dep_twice(int v);

int ln_add(int a, int b)
{
	return dep_twice(a) + b;
}

/* Print a greeting with libc's snprintf and puts. */
void ln_greet(const char *who)
{
	char line[64];

	snprintf(line, sizeof(line), "hello, %s (%zu)", who, strlen(who));
	puts(line);
}

/* Call dep_twice through a pointer: the slot a linker fills with GLOB_DAT. */
int ln_apply(int v)
{
	int (*volatile f)(int) = dep_twice;

	return f(v) + 1;
}
