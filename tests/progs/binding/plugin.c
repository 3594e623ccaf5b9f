/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin.c: a library loaded with dlopen; built -fno-plt, it calls libfix through GOT slots. */
#include "libfix.h"

int plugin_run(int x);
void *plugin_add_address(void);

int plugin_run(int x)
{
	return fix_add(x, 100);
}

/* fix_add's address as this library sees it (its GLOB_DAT slot). */
void *plugin_add_address(void)
{
	return (void *)fix_add;
}
