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
 * only the outermost one.  The rules of the functions that free ask for
 * no stack copy (LTR_RULE_NOSTACK): only allocations' stacks are shown.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdbool.h>
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

/*
 * Add the rule "LIB::F,G..." of lib i for the functions that free (frees)
 * or the others; the frees' stacks are never shown, so not copied either.
 */
static const char *select_lib(struct selection *sel, size_t i, bool frees)
{
	size_t k, first = sel->nrules;
	const char *err;
	char rule[512];
	int n;

	n = snprintf(rule, sizeof(rule), "%s::", libs[i].lib);
	for (k = 0; k < N(kinds); k++)
		if (kinds[k].family == libs[i].family &&
		    (kinds[k].kind == HEAP_FREE) == frees)
			n += snprintf(rule + n, sizeof(rule) - (size_t)n, "%s%s",
				      rule[n - 1] == ':' ? "" : ",",
				      kinds[k].glob);
	if ((err = selection_add_u(sel, rule)))
		return err;
	for (k = first; frees && k < sel->nrules; k++)
		sel->rules[k].flags |= LTR_RULE_NOSTACK;
	return NULL;
}

const char *heap_kinds_select(struct selection *sel)
{
	const char *err;
	size_t i;

	for (i = 0; i < N(libs); i++)
		if ((err = select_lib(sel, i, false)) ||
		    (err = select_lib(sel, i, true)))
			return err;
	return NULL;
}
