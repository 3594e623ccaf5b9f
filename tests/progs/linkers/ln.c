/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ln.c: calls libln.so (or liblnxx.so) a known number of times: ln_add
 * 3 times, ln_greet twice, ln_apply once.  Built as "ln", linked with the
 * library at start, and with -DLN_DLOPEN as "ln-dl", which dlopens the
 * library named by its first argument (beside the program) and calls the
 * same functions through dlsym.  Compiled as C++ ("lnxx") it also throws
 * and catches an exception, with its own static copy of the unwinder.
 */
#include <stdio.h>
#include <string.h>
#ifdef LN_DLOPEN
#include <dlfcn.h>
#endif

#include "ln.h"

int main(int argc, char **argv)
{
	int (*add)(int, int) = NULL;
	void (*greet)(const char *) = NULL;
	int (*apply)(int) = NULL;
	int i, sum = 0;

#ifdef LN_DLOPEN
	char path[4096];
	const char *slash = strrchr(argv[0], '/');
	void *h;

	if (argc < 2 || !slash)
		return 2;
	snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - argv[0]),
		 argv[0], argv[1]);
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	add = (int (*)(int, int))dlsym(h, "ln_add");
	greet = (void (*)(const char *))dlsym(h, "ln_greet");
	apply = (int (*)(int))dlsym(h, "ln_apply");
	if (!add || !greet || !apply)
		return 1;
#else
	(void)argc;
	(void)argv;
	add = ln_add;
	greet = ln_greet;
	apply = ln_apply;
#endif
	for (i = 0; i < 3; i++)
		sum += add(i, 11);
	greet("lld");
	greet("patchelf");
#ifdef __cplusplus
	try {
		throw sum;
	} catch (int v) {
		sum = v + 1000;
	}
#endif
	printf("sum %d apply %d\n", sum, apply(20));
	return 0;
}
