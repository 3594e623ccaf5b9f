/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.c: decide which calls are traced, from the rules ltruss compiled.
 *
 * A rule names a library glob and a function glob.  A library glob matches
 * an object's short name ("libc"), soname ("libc.so.6"), file name or path;
 * "a.out" is the program itself.  Rules apply in order and the last one
 * that matches a call decides, as truss -u does.  A rule without "inner"
 * ('::') does not select the calls a library makes to itself.
 */
#include "interposer.h"

/* Does glob match one of obj's names? */
static bool lib_matches(const char *glob, const struct ltr_object *obj)
{
	const char *base = obj->path, *p;

	if (obj->flags & LTR_OBJ_MAIN) {
		if (ltr_glob_match(glob, "a.out", false))
			return true;
	} else if (ltr_glob_match(glob, obj->short_name, false)) {
		return true;
	}
	if (obj->soname && ltr_glob_match(glob, obj->soname, false))
		return true;
	for (p = obj->path; *p; p++)
		if (*p == '/')
			base = p + 1;
	if (*base && ltr_glob_match(glob, base, false))
		return true;
	return *obj->path && ltr_glob_match(glob, obj->path, true);
}

bool ltr_select_lib(const struct ltr_object *obj)
{
	uint32_t i;

	for (i = 0; i < ltr_session->nrules; i++) {
		const struct ltr_rule *r = &ltr_session->rules[i];

		if (!(r->flags & LTR_RULE_EXCLUDE) && lib_matches(r->lib, obj))
			return true;
	}
	return false;
}

bool ltr_select_from(const struct ltr_object *obj)
{
	uint32_t i;

	if (ltr_session->nfrom == 0)
		return true;
	for (i = 0; i < ltr_session->nfrom && i < LTR_MAX_FROM; i++)
		if (lib_matches(ltr_session->from[i], obj))
			return true;
	return false;
}

bool ltr_select_call(const struct ltr_object *caller,
		     const struct ltr_object *callee, const char *name)
{
	bool selected = false;
	uint32_t i;

	if (!(caller->flags & LTR_OBJ_FROM) || !(callee->flags & LTR_OBJ_TO))
		return false;
	for (i = 0; i < ltr_session->nrules && i < LTR_MAX_RULES; i++) {
		const struct ltr_rule *r = &ltr_session->rules[i];
		bool exclude = r->flags & LTR_RULE_EXCLUDE;

		if (caller == callee && !exclude && !(r->flags & LTR_RULE_INNER))
			continue;
		if (ltr_glob_match(r->func, name, false) && lib_matches(r->lib, callee))
			selected = !exclude;
	}
	return selected;
}

uint32_t ltr_select_depth(const struct ltr_object *callee, const char *name)
{
	uint32_t i, depth = 0;

	for (i = 0; i < ltr_session->nrules && i < LTR_MAX_RULES; i++) {
		const struct ltr_rule *r = &ltr_session->rules[i];

		if (ltr_glob_match(r->func, name, false) && lib_matches(r->lib, callee))
			depth = r->flags & LTR_RULE_EXCLUDE ? depth : r->depth;
	}
	return depth;
}
