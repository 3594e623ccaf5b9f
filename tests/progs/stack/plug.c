/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plug.c: call libplug.so (its own static C++ runtime), linked at start,
 * or loaded with dlopen when built with PLUG_DLOPEN; argument "host" also
 * runs the throw through libplughost, and "cycle" (with dlopen) loads and
 * unloads libplugx.so (the same, its runtime hidden) 40 times instead.
 * Calls libbhv itself too.
 */
#include <stdio.h>
#include <string.h>
#ifdef PLUG_DLOPEN
#include <dlfcn.h>
#endif

#include "../behaviour/libbhv.h"
#include "libplug.h"

typedef long (*plug_fn)(long n, long *caught);

/* The plugin's function name. */
static plug_fn plug(const char *name)
{
#ifdef PLUG_DLOPEN
	static void *h;

	if (!h && !(h = dlopen("libplug.so", RTLD_NOW))) {
		printf("dlopen failed: %s\n", dlerror());
		return NULL;
	}
	return (plug_fn)dlsym(h, name);
#else
	return strcmp(name, "plug_outer") == 0 ? plug_outer
	     : strcmp(name, "plug_roundtrip") == 0 ? plug_roundtrip
						    : plug_via_host;
#endif
}

#ifdef PLUG_DLOPEN
/* Load, use and unload libplugx.so 40 times: the sum of what it returned. */
static long cycle(void)
{
	long caught, sum = 0, i;
	plug_fn f;
	void *h;

	for (i = 0; i < 40; i++) {
		if (!(h = dlopen("libplugx.so", RTLD_NOW)) ||
		    !(f = (plug_fn)dlsym(h, "plug_roundtrip"))) {
			printf("dlopen failed: %s\n", dlerror());
			return -1;
		}
		sum += f(10, &caught) + caught;
		dlclose(h);
	}
	return sum;
}
#endif

int main(int argc, char **argv)
{
	static const char *const names[] = { "plug_outer", "plug_roundtrip",
					     "plug_via_host" };
	long caught, sum, i, n = argc > 1 && strcmp(argv[1], "host") == 0 ? 3 : 2;
	plug_fn f;

#ifdef PLUG_DLOPEN
	if (argc > 1 && strcmp(argv[1], "cycle") == 0) {
		printf("cycle: %ld\n", cycle());
		n = 0;
	}
#endif
	for (i = 0; i < n; i++) {
		if (!(f = plug(names[i])))
			return 1;
		sum = f(10, &caught);
		printf("%s: caught %ld sum %ld\n", names[i], caught, sum);
	}
	printf("main: %ld\n", bhv_add3(1, 2, 3) + bhv_add3(4, 5, 6));
	return 0;
}
