/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ptrid.c: function-pointer identity.  The addresses of fix_add, free and
 * _exit (which the interposer hooks) reach the program by every path:
 * code (a GLOB_DAT slot in a PIE), a data table (a data relocation),
 * dlsym; they must all compare equal, as a destructor table's lookup
 * expects, and dladdr must name the library that defines them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfix.h"

/* Filled in by the loader (data relocations), before main runs. */
int (*add_table[])(int, int) = { fix_add };
void (*destructors[])(void *) = { free };
void (*exits[])(int) = { _exit };

/* Print what dladdr says of f, and whether its symbol is f itself. */
static void where(const char *what, void *f)
{
	Dl_info info;
	const char *base;

	if (!dladdr(f, &info) || !info.dli_fname) {
		printf("%s: dladdr failed\n", what);
		return;
	}
	base = strrchr(info.dli_fname, '/');
	printf("%s: in %s, symbol %s, exact %d\n", what,
	       base ? base + 1 : info.dli_fname,
	       info.dli_sname ? info.dli_sname : "?", info.dli_saddr == f);
}

int main(void)
{
	int (*add)(int, int) = fix_add;
	void (*fr)(void *) = free;
	void (*ex)(int) = _exit;
	void *p = malloc(16);

	printf("table == code: %d\n", add_table[0] == add);
	printf("dlsym == code: %d\n", dlsym(RTLD_DEFAULT, "fix_add") == (void *)add);
	printf("destructor == free: %d\n", destructors[0] == fr);
	printf("dlsym free == free: %d\n", dlsym(RTLD_DEFAULT, "free") == (void *)fr);
	where("fix_add", (void *)add);
	printf("exit table == _exit: %d\n", exits[0] == ex);
	printf("dlsym _exit == _exit: %d\n", dlsym(RTLD_DEFAULT, "_exit") == (void *)ex);
	where("free", (void *)fr);
	where("_exit", (void *)ex);
	printf("calls: %d %d\n", add_table[0](2, 3), add(4, 5));
	destructors[0](p);
	return 0;
}
