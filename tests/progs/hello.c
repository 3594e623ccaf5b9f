/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hello.c: the smallest program, linked statically for the refusal test. */
#include <stdio.h>

int main(void)
{
	puts("hello");
	return 0;
}
