/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlswap.c: load libswapa.so, call it, unload it, then load libswapb.so
 * (the same code, other names) where libswapa.so was, and call it.  With
 * a directory argument it writes DIR/started and waits for DIR/go before
 * the first load, then writes DIR/loaded after the last call, so that a
 * test may stop ltruss in between: it then names the frames of calls made
 * in libswapa.so after libswapb.so took its addresses.  Prints whether B
 * landed where A was (the test needs it to).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The start of the loaded object whose file name ends in arg. */
struct found {
	const char *name;
	uintptr_t start;
};

/* dl_iterate_phdr callback: the lowest segment address of f->name. */
static int object_start(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct found *f = arg;
	const char *name = strrchr(info->dlpi_name, '/');
	int i;

	(void)size;
	if (!name || strcmp(name + 1, f->name) != 0)
		return 0;
	f->start = UINTPTR_MAX;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    info->dlpi_addr + info->dlpi_phdr[i].p_vaddr < f->start)
			f->start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	return 1;
}

/* Load name, call its function run 3 times, unload it: its start, or 0. */
static uintptr_t cycle(const char *name, const char *run, int *sum)
{
	struct found f = { name, 0 };
	void *h = dlopen(name, RTLD_NOW);
	int (*fn)(int), i;

	if (!h || !(fn = (int (*)(int))dlsym(h, run)))
		return 0;
	for (i = 1; i <= 3; i++)
		*sum += fn(i);
	dl_iterate_phdr(object_start, &f);
	dlclose(h);
	return f.start;
}

/* Create DIR/name. */
static void touch(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	close(open(path, O_WRONLY | O_CREAT, 0644));
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : NULL;
	char go[4096];
	uintptr_t a, b;
	int sum = 0;

	if (dir) {
		snprintf(go, sizeof(go), "%s/go", dir);
		touch(dir, "started");
		while (access(go, F_OK) != 0)
			usleep(10000);
	}
	a = cycle("libswapa.so", "swapa_run", &sum);
	b = cycle("libswapb.so", "swapb_run", &sum);
	if (dir)
		touch(dir, "loaded");
	printf("sum %d, %s\n", sum,
	       !a || !b ? "a load failed"
	       : a == b ? "same addresses" : "other addresses");
	return 0;
}
