/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.h: the selection engine, shared by ltruss and the interposer:
 * library short names, a library glob against an object's names, and the
 * walk that finds the rule that decides (the last that matches).
 */
#ifndef LTRUSS_COMMON_SELECT_H
#define LTRUSS_COMMON_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/session.h"
#include "glob.h"

/* The names of an object that a library glob is matched against. */
struct sel_names {
	const char *short_name; /* "libc" (sel_short_name); the program: "a.out" */
	const char *soname;     /* DT_SONAME, or NULL */
	const char *path;       /* its file, or NULL or "" (the vDSO, the program) */
	bool main;              /* the program itself */
};

/*
 * The short name of an object: "a.out" for the program, else its soname
 * (or, without one, its path) from the last '/' up to ".so" ("libc" for
 * libc.so.6), "?" if that is empty.  Returns where it starts, in one of
 * the names or a constant, and sets *len: it is never cut.
 */
const char *sel_short_name(const char *soname, const char *path, bool main,
			   size_t *len);

/*
 * Does glob match one of o's names: the short name ("a.out" for the
 * program), the soname, the file name or the path (FNM_PATHNAME)?  The
 * program matches "a.out" and its soname only: the loader gives it no
 * path at run time.
 */
bool sel_lib_matches(const char *glob, const struct sel_names *o);

/* Does any of the n globs match o?  (--from: no glob matches everything) */
bool sel_from_matches(const char (*globs)[LTR_GLOB_MAX], size_t n,
		      const struct sel_names *o);

/* Does a rule of the n that includes (no '!') possibly select functions of o? */
bool sel_lib_wanted(const struct ltr_rule *rules, size_t n,
		    const struct sel_names *o);

/* The last index i below n for which match(i, ctx) holds, or n: the one that decides. */
size_t sel_last(size_t n, bool (*match)(size_t i, void *ctx), void *ctx);

/* How sel_rule_for walks the rules. */
#define SEL_SELF 0x1u     /* a library's call to itself: only '::' rules include */
#define SEL_INCLUDES 0x2u /* only the rules that include */

/* Does rule i's library glob match the callee?  (A caller may cache the answers.) */
typedef bool sel_lib_fn(const struct ltr_rule *rule, size_t i, void *ctx);

/*
 * The rule that decides for function name in the callee: the last of the
 * n rules whose function glob matches name and whose library glob
 * lib_matches says matches, walked as how says (SEL_*).  Returns its
 * index, or n if none matches (the call is not selected).
 */
size_t sel_rule_for(const struct ltr_rule *rules, size_t n, const char *name,
		    unsigned how, sel_lib_fn *lib_matches, void *ctx);

/* sel_rule_for with the library globs matched against the callee's names. */
size_t sel_rule_of(const struct ltr_rule *rules, size_t n, const char *name,
		   unsigned how, const struct sel_names *callee);

/* Is the call to name in callee selected: does a rule decide, and include it? */
bool sel_selected(const struct ltr_rule *rules, size_t n, const char *name,
		  unsigned how, const struct sel_names *callee);

#endif
