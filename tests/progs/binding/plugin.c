/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin.c: a library loaded with dlopen; built -fno-plt, it calls libfix through GOT slots. */
#include "libfix.h"

int plugin_run(int x);
void *plugin_add_address(void);

/* Not a tail call: stacks of fix_add show a frame in this library. */
int plugin_run(int x)
{
	int sum = fix_add(x, 100);

	__asm__ volatile("" ::: "memory");
	return sum;
}

/* fix_add's address as this library sees it (its GLOB_DAT slot). */
void *plugin_add_address(void)
{
	return (void *)fix_add;
}
