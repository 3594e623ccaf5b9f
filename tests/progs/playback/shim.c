/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shim.c: LD_PRELOAD'ed into a playback, a sqlite3 that returns something
 * else: sqlite3_column_int of column 0 is 1000 more than the real one,
 * zlib compresses at level 1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

int sqlite3_column_int(void *stmt, int i)
{
	int (*real)(void *, int) =
		(int (*)(void *, int))dlsym(RTLD_NEXT, "sqlite3_column_int");

	return real(stmt, i) + (i == 0 ? 1000 : 0);
}

/* zlib's deflateInit_ at level 1, whatever the program asked: other bytes. */
int deflateInit_(void *strm, int level, const char *version, int size)
{
	int (*real)(void *, int, const char *, int) =
		(int (*)(void *, int, const char *, int))dlsym(RTLD_NEXT,
							       "deflateInit_");

	(void)level;
	return real(strm, 1, version, size);
}
