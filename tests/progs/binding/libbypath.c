/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbypath.c: a library without a soname, so programs name it by path. */

/* The sum of a and b. */
int bypath_add(int a, int b)
{
	return a + b;
}
