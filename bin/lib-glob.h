/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib-glob.h: a -u or --from library glob against an object's names, as lib/select.c matches them. */
#ifndef LTRUSS_LIB_GLOB_H
#define LTRUSS_LIB_GLOB_H

#include <stdbool.h>

/* The names a library glob is matched against. */
struct lib_names {
	const char *short_name; /* "libc"; "a.out" for the program */
	const char *soname;     /* DT_SONAME, or NULL */
	const char *path;       /* its file, or NULL (the program has none) */
	bool main;              /* the program itself */
};

/*
 * Does glob match one of o's names: the short name, the soname, the file
 * name or the path (FNM_PATHNAME)?  The program matches "a.out" and its
 * soname only: the loader gives it no path at run time.
 */
bool lib_glob_match(const char *glob, const struct lib_names *o);

/* The short name of an object (lib/objects.c's rule), allocated. */
char *lib_short_name(const char *soname, const char *path, bool main);

#endif
