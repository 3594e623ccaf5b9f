/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tls-dlopen.c: a program linked with a library of initial-exec TLS that
 * dlopens another one (plugin/libtls-plugin.so, beside it), as a program
 * with jemalloc loading a plugin does; prints both sizes, or dlerror().
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int tls_start(int seed);

int main(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	int (*plugin)(int);
	void *h;

	if (n <= 0)
		return 2;
	path[n] = '\0';
	strcpy(strrchr(path, '/') + 1, "plugin/libtls-plugin.so");
	printf("linked at start: %d bytes\n", tls_start(1));
	fflush(stdout);
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	plugin = (int (*)(int))dlsym(h, "tls_plugin");
	printf("dlopened: %d bytes\n", plugin(2));
	return 0;
}
