/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdep.c: the dependency of libln.so, renamed by patchelf --replace-needed. */

/* Twice v: libln calls it through its PLT. */
int dep_twice(int v)
{
	return 2 * v;
}
