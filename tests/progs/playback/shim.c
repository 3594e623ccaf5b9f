/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim.c: LD_PRELOAD'ed into a playback, a sqlite3 that returns something
 * else: sqlite3_column_int of column 0 is 1000 more than the real one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

int sqlite3_column_int(void *stmt, int i)
{
	int (*real)(void *, int) =
		(int (*)(void *, int))dlsym(RTLD_NEXT, "sqlite3_column_int");

	return real(stmt, i) + (i == 0 ? 1000 : 0);
}
