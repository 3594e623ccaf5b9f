/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtld-next.c: a program that wraps fix_add and reaches the library's through dlsym(RTLD_NEXT). */
#include <dlfcn.h>
#include <stdio.h>

int fix_add(int a, int b);

/* The program's own fix_add, in front of the library's. */
int fix_add(int a, int b)
{
	static int (*next)(int, int);

	if (!next)
		next = (int (*)(int, int))dlsym(RTLD_NEXT, "fix_add");
	return next(a, b) + 1000;
}

int main(void)
{
	printf("wrapped %d\n", fix_add(1, 2));
	return 0;
}
