/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlspawn.c: dlopen plugin/libspawner.so (a -fno-plt plugin) and have it
 * start argv[1] with posix_spawn: with -f, the child is traced whichever
 * way the plugin's call is bound.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h = dlopen("libspawner.so", RTLD_NOW);
	int (*run)(const char *);

	if (!h || argc < 2) {
		printf("dlopen failed: %s\n", h ? "no program" : dlerror());
		return 1;
	}
	run = (int (*)(const char *))dlsym(h, "spawner_run");
	if (!run) {
		printf("dlsym failed\n");
		return 1;
	}
	fflush(stdout);
	printf("child status %d\n", run(argv[1]));
	return 0;
}
