/* SPDX-License-Identifier: GPL-2.0-or-later */
/* caller.c: calls into libfix from main and from a static, unexported function. */
#include <stdio.h>

#include "../binding/libfix.h"

/* Not exported: only the program's .symtab names it. */
static int __attribute__((noinline)) helper(int x)
{
	return fix_add(x, 1) * 2;
}

int main(void)
{
	int a = fix_add(1, 2);

	printf("%d %d\n", a, helper(a));
	return 0;
}
