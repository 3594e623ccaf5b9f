/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selection.c: turn -u and --from arguments into ordered selection rules. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "selection.h"

const char *selection_glob_check(const char *glob, size_t len)
{
	size_t i;

	if (len == 0)
		return "empty name";
	if (len >= LTR_GLOB_MAX)
		return "name longer than 127 characters";
	for (i = 0; i < len; i++) {
		if (glob[i] == '\\' && i + 1 < len) {
			i++;
		} else if (glob[i] == '[') {
			size_t j = i + 1;

			if (j < len && (glob[j] == '!' || glob[j] == '^'))
				j++;
			if (j < len && glob[j] == ']')
				j++;
			while (j < len && glob[j] != ']')
				j++;
			if (j >= len)
				return "unterminated '[' in glob";
			i = j;
		}
	}
	return NULL;
}

/* Append one rule; lib and func are not NUL-terminated (with lengths). */
static const char *rule_add(struct selection *sel, const char *lib,
			    size_t lib_len, const char *func, size_t func_len,
			    unsigned flags, unsigned depth)
{
	struct ltr_rule *r;
	const char *err;

	if ((err = selection_glob_check(lib, lib_len)) != NULL)
		return err;
	if ((err = selection_glob_check(func, func_len)) != NULL)
		return err;
	if (sel->nrules >= LTR_MAX_RULES)
		return "too many selection rules (at most 256)";
	r = &sel->rules[sel->nrules++];
	memset(r, 0, sizeof(*r));
	r->flags = flags;
	r->depth = depth;
	/* "main" is the truss spelling of the program itself. */
	if (lib_len == 4 && memcmp(lib, "main", 4) == 0) {
		lib = "a.out";
		lib_len = 5;
	}
	memcpy(r->lib, lib, lib_len);
	memcpy(r->func, func, func_len);
	return NULL;
}

const char *selection_add_u(struct selection *sel, const char *arg)
{
	bool lib_excluded = false;
	unsigned inner = 0;
	const char *colon, *p;
	size_t lib_len;

	if (*arg == '!') {
		lib_excluded = true;
		arg++;
	}
	colon = strchr(arg, ':');
	lib_len = colon ? (size_t)(colon - arg) : strlen(arg);
	if (lib_len == 0)
		return "missing library name before ':'";
	if (!colon || colon[1] == '\0')
		return rule_add(sel, arg, lib_len, "*", 1,
				lib_excluded ? LTR_RULE_EXCLUDE : 0, 0);
	p = colon + 1;
	if (*p == ':') {
		inner = LTR_RULE_INNER;
		p++;
	}
	if (*p == '\0')
		return rule_add(sel, arg, lib_len, "*", 1,
				inner | (lib_excluded ? LTR_RULE_EXCLUDE : 0), 0);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		unsigned flags = inner;
		const char *err;

		if (*p == '!') {
			if (lib_excluded)
				return "a function cannot be excluded from an excluded library";
			flags |= LTR_RULE_EXCLUDE;
			p++;
			len--;
		} else if (lib_excluded) {
			flags |= LTR_RULE_EXCLUDE;
		}
		if (len == 0)
			return "empty function name in list";
		err = rule_add(sel, arg, lib_len, p, len, flags, 0);
		if (err)
			return err;
		if (!comma)
			return NULL;
		p = comma + 1;
	}
}

const char *selection_add_from(struct selection *sel, const char *glob)
{
	size_t len = strlen(glob);
	const char *err = selection_glob_check(glob, len);

	if (err)
		return err;
	if (sel->nfrom >= LTR_MAX_FROM)
		return "too many --from globs (at most 32)";
	if (strcmp(glob, "main") == 0)
		glob = "a.out";
	strcpy(sel->from[sel->nfrom++], glob);
	return NULL;
}

const char *selection_add_rule(struct selection *sel, const char *lib,
			       const char *func, unsigned flags, unsigned depth)
{
	return rule_add(sel, lib, strlen(lib), func, strlen(func), flags,
			depth);
}
