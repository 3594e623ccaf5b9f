/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dlctor.c: load plugin/libctor.so, whose constructor calls libfix, and call it. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libctor.so", RTLD_NOW);
	int *result, (*run)(int);

	if (!h) {
		printf("dlopen failed: %s\n", dlerror());
		return 1;
	}
	result = (int *)dlsym(h, "ctor_result");
	run = (int (*)(int))dlsym(h, "ctor_run");
	if (!result || !run)
		return 1;
	printf("constructor %d, run %d\n", *result, run(1));
	dlclose(h);
	return 0;
}
