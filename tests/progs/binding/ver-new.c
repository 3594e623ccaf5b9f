/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ver-new.c: a program bound to the default version, fix_ver@@VER_2. */
#include <stdio.h>

#include "libfix.h"

int main(void)
{
	printf("ver %d\n", fix_ver());
	return 0;
}
