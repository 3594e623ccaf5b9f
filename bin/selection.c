/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selection.c: turn -u and --from arguments into ordered selection rules. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "selection.h"

/* Check that glob is usable: not empty, short enough, brackets closed. */
static const char *glob_check(const char *glob, size_t len)
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
			    unsigned flags)
{
	struct ltr_rule *r;
	const char *err;

	if ((err = glob_check(lib, lib_len)) != NULL)
		return err;
	if ((err = glob_check(func, func_len)) != NULL)
		return err;
	if (sel->nrules >= LTR_MAX_RULES)
		return "too many selection rules (at most 256)";
	r = &sel->rules[sel->nrules++];
	memset(r, 0, sizeof(*r));
	r->flags = flags;
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
				lib_excluded ? LTR_RULE_EXCLUDE : 0);
	p = colon + 1;
	if (*p == ':') {
		inner = LTR_RULE_INNER;
		p++;
	}
	if (*p == '\0')
		return rule_add(sel, arg, lib_len, "*", 1,
				inner | (lib_excluded ? LTR_RULE_EXCLUDE : 0));
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
		err = rule_add(sel, arg, lib_len, p, len, flags);
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
	const char *err = glob_check(glob, len);

	if (err)
		return err;
	if (sel->nfrom >= LTR_MAX_FROM)
		return "too many --from globs (at most 32)";
	if (strcmp(glob, "main") == 0)
		glob = "a.out";
	strcpy(sel->from[sel->nfrom++], glob);
	return NULL;
}

/*
 * The default selection (until conf/ltruss.yaml takes over): every call the
 * program itself makes into any library, except a few that programs call
 * so often, or so invisibly, that they drown out what the program asks for.
 */
void selection_default(struct selection *sel)
{
	static const char *const noisy[] = {
		"__errno_location",	/* every errno access */
		"__ctype_b_loc",	/* every isalpha() and friends */
		"__ctype_tolower_loc", "__ctype_toupper_loc",
		"__ctype_get_mb_cur_max",
		"__stack_chk_fail",	/* never returns; noise when it does */
		"__tls_get_addr",	/* every dynamic TLS access */
	};
	size_t i;

	selection_add_u(sel, "*");
	for (i = 0; i < sizeof(noisy) / sizeof(noisy[0]); i++) {
		char arg[LTR_GLOB_MAX + 8] = "*:!";

		strcat(arg, noisy[i]);
		selection_add_u(sel, arg);
	}
	selection_add_from(sel, "a.out");
}
