/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dlcycle.c: load the -fno-plt plugin, call it at once through dlsym and
 * unload it, CYCLES times (default 1).  Its calls into libfix go through
 * GLOB_DAT slots that must be patched before the first call, also when
 * nothing is bound lazily (LD_BIND_NOW), and every cycle needs stubs anew.
 * With a second argument "move", the addresses the plugin took are
 * reserved after each cycle, so that no later load lands where an
 * earlier one was.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The address range of the loaded plugin's segments. */
struct range {
	uintptr_t start, end;
};

/* dl_iterate_phdr callback: the range of the object named libplugin.so. */
static int plugin_range(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct range *r = arg;
	const char *name = strrchr(info->dlpi_name, '/');
	int i;

	(void)size;
	if (!name || strcmp(name, "/libplugin.so") != 0)
		return 0;
	r->start = UINTPTR_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < r->start)
			r->start = lo;
		if (hi > r->end)
			r->end = hi;
	}
	return 1;
}

/* Keep the plugin's addresses (range r) from being taken again. */
static int reserve(struct range r)
{
	uintptr_t page = 4096, start = r.start & ~(page - 1);
	size_t len = ((r.end + page - 1) & ~(page - 1)) - start;

	return mmap((void *)start, len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
		    0) == MAP_FAILED ? -1 : 0;
}

int main(int argc, char **argv)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 1, i, wrong = 0;
	int move = argc > 2 && strcmp(argv[2], "move") == 0;

	for (i = 0; i < cycles; i++) {
		void *h = dlopen("libplugin.so", RTLD_NOW);
		int (*run)(int);
		struct range r = { 0, 0 };

		if (!h) {
			printf("dlopen failed: %s\n", dlerror());
			return 1;
		}
		run = (int (*)(int))dlsym(h, "plugin_run");
		if (!run)
			return 1;
		wrong += run(1) != 101;
		wrong += run(2) != 102;
		if (move)
			dl_iterate_phdr(plugin_range, &r);
		dlclose(h);
		if (move && (!r.end || reserve(r) < 0)) {
			printf("cannot reserve the plugin's addresses\n");
			return 1;
		}
	}
	printf("%d cycles, %d wrong results\n", cycles, wrong);
	return 0;
}
