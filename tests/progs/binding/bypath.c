/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bypath.c: a program whose DT_NEEDED names its library by path
 * ("tests/progs/bin/libbypath.so", relative to the build directory, as
 * the linker was given it): run it from there.
 */
#include <stdio.h>

int bypath_add(int a, int b);

int main(void)
{
	printf("%d\n", bypath_add(2, 3));
	return 0;
}
