/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctor.c: a -fno-plt plugin whose constructor calls libfix through a GOT
 * slot, before dlopen returns and before anything can dlsym into it.
 */
#include "libfix.h"

int ctor_result;
int ctor_run(int x);

/* Runs inside dlopen, right after the loader relocated the plugin. */
__attribute__((constructor)) static void ctor_init(void)
{
	ctor_result = fix_add(40, 2);
}

int ctor_run(int x)
{
	return fix_add(x, 1);
}
