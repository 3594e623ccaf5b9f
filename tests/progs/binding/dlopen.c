/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlopen.c: load plugin/libplugin.so by bare name, found through this
 * program's RUNPATH $ORIGIN/plugin, and call it and libfix through dlsym.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libplugin.so", RTLD_NOW);
	int (*run)(int);
	int (*add)(int, int);
	void *(*address)(void);

	if (!h) {
		printf("dlopen failed: %s\n", dlerror());
		return 1;
	}
	run = (int (*)(int))dlsym(h, "plugin_run");
	add = (int (*)(int, int))dlsym(h, "fix_add");
	address = (void *(*)(void))dlsym(h, "plugin_add_address");
	if (!run || !add || !address) {
		printf("dlsym failed\n");
		return 1;
	}
	printf("plugin %d\n", run(5));
	printf("dlsym add %d\n", add(6, 7));
	printf("same pointer %d\n", (void *)add == address());
	dlclose(h);
	return 0;
}
