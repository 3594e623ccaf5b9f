/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap-kinds.c: the allocator functions --heap traces, as one table: the
 * selection it adds and the kind of each traced function both come from it.
 *
 * They are selected with '::' (entry patching): the C library allocates
 * for the program inside strdup, fopen or getline by direct calls that
 * no PLT slot sees, and the program frees those blocks itself; libstdc++
 * likewise calls operator new for the program from its own code.  An
 * allocator function called by another (operator new calling malloc,
 * realloc calling malloc) is then traced nested in it, and heap.c counts
 * only the outermost one.
 */
#include "config.h"

#include <fnmatch.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "heap-kinds.h"

/* Which libraries hold which of the functions below. */
enum heap_family { HEAP_C, HEAP_CXX };

static const struct {
	const char *glob; /* the symbol */
	enum heap_kind kind;
	enum heap_family family;
} kinds[] = {
	{ "malloc", HEAP_MALLOC, HEAP_C },
	{ "calloc", HEAP_CALLOC, HEAP_C },
	{ "realloc", HEAP_REALLOC, HEAP_C },
	{ "reallocarray", HEAP_REALLOCARRAY, HEAP_C },
	{ "free", HEAP_FREE, HEAP_C },
	{ "posix_memalign", HEAP_POSIX_MEMALIGN, HEAP_C },
	{ "aligned_alloc", HEAP_ALIGNED, HEAP_C },
	{ "memalign", HEAP_ALIGNED, HEAP_C },
	{ "valloc", HEAP_MALLOC, HEAP_C },
	{ "pvalloc", HEAP_MALLOC, HEAP_C },
	/* operator new and new[], with nothrow_t and align_val_t or not. */
	{ "_Znwm*", HEAP_MALLOC, HEAP_CXX },
	{ "_Znam*", HEAP_MALLOC, HEAP_CXX },
	/* operator delete and delete[], sized, aligned or not. */
	{ "_ZdlPv*", HEAP_FREE, HEAP_CXX },
	{ "_ZdaPv*", HEAP_FREE, HEAP_CXX },
};

/* The libraries of each family: glibc, a replacement allocator, libstdc++. */
static const struct {
	const char *lib;
	enum heap_family family;
} libs[] = {
	{ "libc", HEAP_C },
	{ "lib*malloc*", HEAP_C },
	{ "libstdc++", HEAP_CXX },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

enum heap_kind heap_kind_of(const char *raw)
{
	size_t i;

	for (i = 0; i < N(kinds); i++)
		if (fnmatch(kinds[i].glob, raw, 0) == 0)
			return kinds[i].kind;
	return HEAP_NONE;
}

const char *heap_kinds_select(struct selection *sel)
{
	char rule[512];
	const char *err;
	size_t i, k;
	int n;

	for (i = 0; i < N(libs); i++) {
		n = snprintf(rule, sizeof(rule), "%s::", libs[i].lib);
		for (k = 0; k < N(kinds); k++)
			if (kinds[k].family == libs[i].family)
				n += snprintf(rule + n, sizeof(rule) - (size_t)n,
					      "%s%s", rule[n - 1] == ':' ? "" : ",",
					      kinds[k].glob);
		if ((err = selection_add_u(sel, rule)))
			return err;
	}
	return NULL;
}
