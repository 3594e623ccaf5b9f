/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-select.c: libFuzzer harness for the -u and --from parsers
 * (bin/config/selection.c).
 *
 * An input is a list of arguments, one a line: "--from=GLOB" is a --from
 * glob, any other line a -u argument, all added to one selection as the
 * command line would.  Besides the sanitizers, it checks what the
 * interposer relies on: every rule's globs are non-empty, NUL-terminated
 * within LTR_GLOB_MAX and pass selection_glob_check(), and the selection
 * engine's matcher (common/glob.c, what the interposer and ltruss match
 * them with) answers as fnmatch() does, in reasonable time.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/config/selection.h"
#include "common/glob.h"
#include "tests/fuzz/fuzz.h"

/* The longest -u argument tried: longer than any glob, plus a list. */
#define ARG_MAX_LEN 4096

static struct selection sel;

/* Die loudly: a parser promise was broken. */
static void __attribute__((noreturn)) broken(const char *what, const char *glob)
{
	fprintf(stderr, "fuzz: %s: '%.*s'\n", what, LTR_GLOB_MAX, glob);
	abort();
}

/* Check one glob the parser accepted. */
static void glob_verify(const char *glob, size_t size)
{
	static const char *const names[] = {
		"a.out", "libc", "libc.so.6", "malloc", "/usr/lib/libz.so.1",
		"sqlite3_open_v2_with_a_rather_long_name_to_match_stars",
	};
	size_t len = strnlen(glob, size), i;

	if (len == size)
		broken("glob not NUL-terminated", glob);
	if (len == 0)
		broken("empty glob", glob);
	if (selection_glob_check(glob, len))
		broken("an accepted glob fails selection_glob_check", glob);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((fnmatch(glob, names[i], i == 4 ? FNM_PATHNAME : 0) == 0) !=
		    sel_glob_match(glob, names[i], i == 4))
			broken("the engine and fnmatch disagree", glob);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	char arg[ARG_MAX_LEN + 1];
	size_t i, len;

	memset(&sel, 0, sizeof(sel));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		len = (size_t)((nl ? nl : end) - p);
		if (len > ARG_MAX_LEN)
			len = ARG_MAX_LEN;
		/* An argument ends at a NUL, as in argv. */
		memcpy(arg, p, len);
		arg[len] = '\0';
		if (strncmp(arg, "--from=", 7) == 0)
			selection_add_from(&sel, arg + 7);
		else
			selection_add_u(&sel, arg);
		if (sel.nrules > LTR_MAX_RULES || sel.nfrom > LTR_MAX_FROM)
			broken("too many rules or --from globs", arg);
		p = nl ? nl + 1 : end;
	}
	for (i = 0; i < sel.nrules; i++) {
		glob_verify(sel.rules[i].lib, sizeof(sel.rules[i].lib));
		glob_verify(sel.rules[i].func, sizeof(sel.rules[i].func));
		if (sel.rules[i].flags & ~(unsigned)(LTR_RULE_INNER |
						     LTR_RULE_EXCLUDE))
			broken("unknown rule flags", sel.rules[i].func);
	}
	for (i = 0; i < sel.nfrom; i++)
		glob_verify(sel.from[i], sizeof(sel.from[i]));
	return 0;
}
