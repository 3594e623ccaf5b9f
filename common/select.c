/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.c: the selection engine, the one place that says which calls a
 * selection names, for the interposer (lib/select.c, at bind time), --list
 * (bin/list.c), --read narrowing (bin/tracefile/narrow.c) and the console's enable
 * and disable (bin/events/toggles.c, which walks its own rules with sel_last).
 *
 * A rule names a library glob and a function glob.  A library glob
 * matches an object's short name ("libc"), soname ("libc.so.6"), file name
 * or path; "a.out" is the program itself.  Rules apply in order and the
 * last one that matches a call decides, as truss -u does: the walk goes
 * backwards and stops at the first match.  A rule without "inner" ('::')
 * does not select the calls a library makes to itself.
 *
 * It links into both programs, so it calls nothing, not even libc: the
 * interposer builds it with -fno-builtin and general registers only, and
 * its symbols are hidden there (sel_ names, like the other subsystems of
 * ltruss; none is exported: tests/select.bats).
 */
#include "select.h"

/* The start of the last '/'-separated part of s. */
static const char *base_of(const char *s)
{
	const char *base = s;

	for (; *s; s++)
		if (*s == '/')
			base = s + 1;
	return base;
}

const char *sel_short_name(const char *soname, const char *path, bool main,
			   size_t *len)
{
	const char *name = soname ? soname : path ? path : "";
	const char *base, *p;

	if (main) {
		*len = 5;
		return "a.out";
	}
	base = base_of(name);
	for (p = base; *p; p++)
		if (p[0] == '.' && p[1] == 's' && p[2] == 'o' &&
		    (p[3] == '\0' || p[3] == '.'))
			break;
	*len = (size_t)(p - base);
	if (*len == 0) {
		*len = 1;
		return "?";
	}
	return base;
}

bool sel_lib_matches(const char *glob, const struct sel_names *o)
{
	const char *base;

	if (sel_glob_match(glob, o->main ? "a.out" : o->short_name, false))
		return true;
	if (o->soname && sel_glob_match(glob, o->soname, false))
		return true;
	if (o->main || !o->path || !*o->path)
		return false;
	base = base_of(o->path);
	return (*base && sel_glob_match(glob, base, false)) ||
	       sel_glob_match(glob, o->path, true);
}

bool sel_from_matches(const char (*globs)[LTR_GLOB_MAX], size_t n,
		      const struct sel_names *o)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (sel_lib_matches(globs[i], o))
			return true;
	return false;
}

bool sel_lib_wanted(const struct ltr_rule *rules, size_t n,
		    const struct sel_names *o)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(rules[i].flags & LTR_RULE_EXCLUDE) &&
		    sel_lib_matches(rules[i].lib, o))
			return true;
	return false;
}

size_t sel_last(size_t n, bool (*match)(size_t i, void *ctx), void *ctx)
{
	size_t i;

	for (i = n; i-- > 0;)
		if (match(i, ctx))
			return i;
	return n;
}

/* What sel_rule_for's walk asks of each rule. */
struct rule_walk {
	const struct ltr_rule *rules;
	const char *name;
	unsigned how;
	sel_lib_fn *lib_matches;
	void *ctx;
};

/* Does rule i match the walk's call (the function glob first: it is the cheaper)? */
static bool rule_matches(size_t i, void *ctx)
{
	const struct rule_walk *w = ctx;
	const struct ltr_rule *r = &w->rules[i];
	bool exclude = r->flags & LTR_RULE_EXCLUDE;

	if (exclude && (w->how & SEL_INCLUDES))
		return false;
	if (!exclude && (w->how & SEL_SELF) && !(r->flags & LTR_RULE_INNER))
		return false;
	return sel_glob_match(r->func, w->name, false) &&
	       w->lib_matches(r, i, w->ctx);
}

size_t sel_rule_for(const struct ltr_rule *rules, size_t n, const char *name,
		    unsigned how, sel_lib_fn *lib_matches, void *ctx)
{
	struct rule_walk w = { rules, name, how, lib_matches, ctx };

	return sel_last(n, rule_matches, &w);
}

/* Does rule's library glob match the object ctx names? */
static bool names_match(const struct ltr_rule *rule, size_t i, void *ctx)
{
	(void)i;
	return sel_lib_matches(rule->lib, ctx);
}

size_t sel_rule_of(const struct ltr_rule *rules, size_t n, const char *name,
		   unsigned how, const struct sel_names *callee)
{
	return sel_rule_for(rules, n, name, how, names_match, (void *)callee);
}

bool sel_selected(const struct ltr_rule *rules, size_t n, const char *name,
		  unsigned how, const struct sel_names *callee)
{
	size_t i = sel_rule_of(rules, n, name, how, callee);

	return i < n && !(rules[i].flags & LTR_RULE_EXCLUDE);
}
