/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backtrace.c: glibc's backtrace() from a callback of a traced call; the
 * frames it finds (the objects they are in) must be the same traced.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <string.h>

#include "../behaviour/libbhv.h"

/* Print the objects of the frames above us. */
static long walk(long x)
{
	void *frames[64];
	int n = backtrace(frames, 64), i;
	Dl_info info;

	printf("%ld: %d frames:", x, n);
	for (i = 0; i < n; i++) {
		const char *name = dladdr(frames[i], &info) && info.dli_fname
					   ? info.dli_fname : "?";

		printf(" %s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	}
	printf("\n");
	return n;
}

int main(void)
{
	walk(1);
	bhv_apply(walk, 2);
	return bhv_apply(walk, 3) > 0 ? 0 : 1;
}
