/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select.c: decide which calls are traced, from the rules ltruss compiled,
 * with the selection engine ltruss itself uses (common/select.c, where
 * the rules are explained).  It runs when a function is bound (la_symbind64,
 * GOT patching) and when an object is opened, never at a call.
 */
#include "../common/select.h"
#include "interposer.h"
#include "objects.h"

/* The names obj is matched by. */
static struct sel_names names_of(const struct ltr_object *obj)
{
	return (struct sel_names){ .short_name = obj->short_name,
				   .soname = obj->soname,
				   .path = obj->path,
				   .main = obj->flags & LTR_OBJ_MAIN };
}

/* The session's rules, as many as there are room for. */
static size_t nrules(void)
{
	uint32_t n = ltr_session->nrules;

	return n < LTR_MAX_RULES ? n : LTR_MAX_RULES;
}

bool ltr_select_lib(const struct ltr_object *obj)
{
	struct sel_names o = names_of(obj);

	return sel_lib_wanted(ltr_session->rules, nrules(), &o);
}

bool ltr_select_from(const struct ltr_object *obj)
{
	struct sel_names o = names_of(obj);
	uint32_t n = ltr_session->nfrom;

	return sel_from_matches(ltr_session->from,
				n < LTR_MAX_FROM ? n : LTR_MAX_FROM, &o);
}

const struct ltr_rule *ltr_select_call(const struct ltr_object *caller,
				       const struct ltr_object *callee,
				       const char *name)
{
	struct sel_names o = names_of(callee);
	size_t n = nrules(), i;

	if (!(caller->flags & LTR_OBJ_FROM) || !(callee->flags & LTR_OBJ_TO))
		return NULL;
	i = sel_rule_of(ltr_session->rules, n, name,
			caller == callee ? SEL_SELF : 0, &o);
	return i < n && !(ltr_session->rules[i].flags & LTR_RULE_EXCLUDE) ?
		       &ltr_session->rules[i] : NULL;
}

const struct ltr_rule *ltr_select_rule(const struct ltr_object *callee,
				       const char *name)
{
	struct sel_names o = names_of(callee);
	size_t n = nrules(), i;

	i = sel_rule_of(ltr_session->rules, n, name, SEL_INCLUDES, &o);
	return i < n ? &ltr_session->rules[i] : NULL;
}

bool ltr_select_inner(const struct ltr_object *obj)
{
	struct sel_names o = names_of(obj);
	size_t n = nrules(), i;

	if (ltr_session->nfrom)
		return false;
	for (i = 0; i < n; i++) {
		const struct ltr_rule *r = &ltr_session->rules[i];

		if ((r->flags & LTR_RULE_INNER) && !(r->flags & LTR_RULE_EXCLUDE) &&
		    sel_lib_matches(r->lib, &o))
			return true;
	}
	return false;
}
