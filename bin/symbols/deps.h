/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deps.h: the shared objects a program loads at start, asked of its loader. */
#ifndef LTRUSS_DEPS_H
#define LTRUSS_DEPS_H

#include <stddef.h>

/* One object the loader would load, in load (and symbol lookup) order. */
struct dep {
	char *name; /* as needed ("libc.so.6"), or the path */
	char *path; /* the file the loader found, or NULL: not found */
};

/*
 * List the objects that loader would load for the program elf, without
 * running the program.  Returns how many, in *deps (malloc'd); the vDSO
 * (no file) is left out.  Dies with one error line if the loader fails.
 */
size_t deps_list(const char *loader, const char *elf, struct dep **deps);

/* Free what deps_list returned. */
void deps_free(struct dep *deps, size_t n);

#endif
