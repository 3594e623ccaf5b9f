/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlcycle.c: load the -fno-plt plugin, call it at once through dlsym and
 * unload it, CYCLES times (default 1).  Its calls into libfix go through
 * GLOB_DAT slots that must be patched before the first call, also when
 * nothing is bound lazily (LD_BIND_NOW), and every cycle needs stubs anew.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 1, i, wrong = 0;

	for (i = 0; i < cycles; i++) {
		void *h = dlopen("libplugin.so", RTLD_NOW);
		int (*run)(int);

		if (!h) {
			printf("dlopen failed: %s\n", dlerror());
			return 1;
		}
		run = (int (*)(int))dlsym(h, "plugin_run");
		if (!run)
			return 1;
		wrong += run(1) != 101;
		wrong += run(2) != 102;
		dlclose(h);
	}
	printf("%d cycles, %d wrong results\n", cycles, wrong);
	return 0;
}
