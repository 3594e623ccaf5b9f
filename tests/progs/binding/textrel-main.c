/* SPDX-License-Identifier: GPL-2.0-or-later */
/* textrel-main.c: call the library with text relocations. */
#include <stdio.h>

int textrel_call(int a, int b);

int main(void)
{
	printf("textrel %d\n", textrel_call(2, 3));
	return 0;
}
