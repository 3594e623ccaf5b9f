/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ver-old.c: a program bound to fix_ver@VER_1 while the library's default is VER_2. */
#include <stdio.h>

int fix_ver(void);
__asm__(".symver fix_ver, fix_ver@VER_1");

int main(void)
{
	printf("ver %d\n", fix_ver());
	return 0;
}
