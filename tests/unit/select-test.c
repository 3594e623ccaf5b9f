/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * select-test.c: TAP unit tests of the selection engine (common/): its
 * globs against fnmatch(3) (named cases, then some hundred thousand
 * generated ones), short names, library globs and the last-match walk.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "common/select.h"
#include "tests/unit/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))


/* Does sel_glob_match agree with fnmatch on glob and s?  Says so when not. */
static bool glob_agrees(const char *glob, const char *s, bool pathname)
{
	bool want = fnmatch(glob, s, pathname ? FNM_PATHNAME : 0) == 0;
	bool got = sel_glob_match(glob, s, pathname);

	if (got != want)
		printf("# '%s' against '%s'%s: fnmatch %d, engine %d\n", glob, s,
		       pathname ? " (FNM_PATHNAME)" : "", want, got);
	return got == want;
}

/* The named globs, each against every name, with and without FNM_PATHNAME. */
static void test_glob_cases(void)
{
	static const char *const globs[] = {
		"*", "libc", "lib*", "lib?", "l*c", "*.so*", "*.so.[0-9]",
		"lib[a-c]*", "lib[!a-c]*", "lib[^c]", "[[:alpha:]]*", "*[[:digit:]]",
		"[[:alnum:]_]*", "[[:upper:]]*", "[[:punct:]]*", "[[:space:]]*",
		"[[:xdigit:]]*", "[[:print:]]*", "[[:graph:]]*", "[[:cntrl:]]*",
		"[[:blank:]]*", "[[:lower:]]*", "[[:nope:]]*", "[]]*", "[!]]*",
		"[ac[:a&c:]zmmz]*", "[a[:nope:]l]*", "[!a[:nope:]]*", "[[:z:]]*",
		"[[:y:]]*", "[[::]]*", "[[:alpha]]*", "[[:al-pha:]]*",
		"[[=.[tz]*", "[[=a]*", "[[=ab=]]*", "[[=]=]]*", "[[.a]*", "[[.ab.]]*",
		"[b[.ab.]]*", "[b[.a]]*", "[[.a.]-c]*", "[a-[.c.]]*", "[ba-[:alpha:]]*",
		"[ba-[=c=]]*", "[ba-[.c]]*", "[a-[=c=]]*", "[a-[:b'i:]*", "[[",
		"*[--from.1\x8e\\]-[:b'ii:]", "[[=]=]]*", "[a[=x", "[[[=xy]",
		"[a-]*", "[-a]*", "[", "[abc", "lib\\c", "\\*", "a\\", "*\\/*",
		"[.a.]*", "[=l=]*", "[[.-.]]*", "/usr/lib/*", "/usr/*/libc.so.6",
		"/*/libc.so.6", "*/libc.so.6", "/usr/lib/*/lib?.so.6", "*?/lib*",
		"*?", "**", "*a*b*", "a*?b", "?*?", "[/]*", "*[/]*", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"a.out", "a.?ut", "*_*_*",
	};
	static const char *const names[] = {
		"", "a", "libc", "libm", "libcc", "libc.so.6", "libz.so.1",
		"Lib", "]x", "-", "a.out", "lib\\c", "*", "a\\", "x/y",
		"/usr/lib/libz.so.1", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/libc.so.6", "ab", "aab", "axxb", "a b", "a\tb", "_", "a_b_c",
		"\x7f", "9", "F", "sqlite3_open_v2_with_a_rather_long_name",
		"[]", "[", "libz", "z", ":",
	};
	char what[256];
	size_t g, n;
	bool ok;

	for (g = 0; g < N(globs); g++) {
		ok = true;
		for (n = 0; n < N(names); n++)
			ok &= glob_agrees(globs[g], names[n], false) &
			      glob_agrees(globs[g], names[n], true);
		snprintf(what, sizeof(what), "glob '%s' matches as fnmatch does",
			 globs[g]);
		tap(ok, what);
	}
}

/* The next number of a fixed sequence (so every run tries the same cases). */
static unsigned next_random(void)
{
	static unsigned long long x = 88172645463325252ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (unsigned)(x >> 16);
}

/* Fill s with up to max characters of alphabet, NUL-terminated. */
static void random_string(char *s, size_t max, const char *alphabet)
{
	size_t len = next_random() % (max + 1), i, k = strlen(alphabet);

	for (i = 0; i < len; i++)
		s[i] = alphabet[next_random() % k];
	s[len] = '\0';
}

/* Generated globs and names of a small alphabet, so that they meet often. */
static void test_glob_generated(void)
{
	char glob[16], s[16], what[64];
	unsigned i, tried = 0, bad = 0;

	for (i = 0; i < 100000; i++) {
		random_string(glob, 8, "ab*?[]!^-\\/:");
		random_string(s, 7, "ab/-]\\:");
		tried++;
		if (!glob_agrees(glob, s, i & 1) && ++bad > 20)
			break;
		/* Classes, real or not, among other items. */
		random_string(glob, 12, "[[[:]]]!-azypunctlowerdigit*?");
		random_string(s, 4, "az[]:-!p0 ");
		tried++;
		if (!glob_agrees(glob, s, i & 1) && ++bad > 20)
			break;
		/* Collating symbols, equivalence classes, ranges. */
		random_string(glob, 10, "[[[.=:]]]-ab\\*!");
		random_string(s, 3, "ab[]-.=:");
		tried++;
		if (!glob_agrees(glob, s, i & 1) && ++bad > 20)
			break;
		/* Bytes past ASCII in ranges; "[:" not a class, skipped after a match. */
		random_string(glob, 10, "[]-\x80\xfe\x01" "a[:b'i:]*\\");
		random_string(s, 3, "a\x80\xff\x01:]['");
		tried++;
		if (!glob_agrees(glob, s, i & 1) && ++bad > 20)
			break;
	}
	snprintf(what, sizeof(what), "%u generated globs match as fnmatch does",
		 tried);
	tap(bad == 0, what);
}

/* Short names: whole, however long. */
static void test_short_names(void)
{
	static const struct {
		const char *soname, *path;
		bool main;
		const char *want;
	} cases[] = {
		{ "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", false, "libc" },
		{ NULL, "/usr/lib/libfoo.so", false, "libfoo" },
		{ NULL, "/opt/x/libbar.so.1.2", false, "libbar" },
		{ "libsoname.so", "/x/libpath.so", false, "libsoname" },
		{ "ld-linux-x86-64.so.2", NULL, false, "ld-linux-x86-64" },
		{ NULL, "linux-vdso.so.1", false, "linux-vdso" },
		{ NULL, "/usr/lib/plugin", false, "plugin" },
		{ NULL, "/usr/lib/libx.sox", false, "libx.sox" },
		{ NULL, "/usr/lib/.so", false, "?" },
		{ NULL, "", false, "?" },
		{ NULL, NULL, false, "?" },
		{ "libc.so.6", "", true, "a.out" },
		{ "libltruss_fixture_whose_short_name_runs_past_sixty_three_bytes_long.so",
		  NULL, false,
		  "libltruss_fixture_whose_short_name_runs_past_sixty_three_bytes_long" },
	};
	char got[128], what[512];
	const char *name;
	size_t i, len;

	for (i = 0; i < N(cases); i++) {
		name = sel_short_name(cases[i].soname, cases[i].path,
				      cases[i].main, &len);
		snprintf(got, sizeof(got), "%.*s", (int)len, name);
		snprintf(what, sizeof(what), "short name of %s %s is %s (got %s)",
			 cases[i].soname ? cases[i].soname : "(no soname)",
			 cases[i].path ? cases[i].path : "(no path)",
			 cases[i].want, got);
		tap(strcmp(got, cases[i].want) == 0, what);
	}
}

/* Library globs against the names of libc and of the program. */
static void test_lib_matches(void)
{
	static const struct sel_names libc = {
		"libc", "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", false
	};
	static const struct sel_names prog = { "a.out", NULL, "/usr/bin/ls", true };
	static const struct {
		const char *glob;
		bool libc, prog;
	} cases[] = {
		{ "libc", true, false },    { "libc.so.6", true, false },
		{ "libc.so*", true, false }, { "/lib/*/libc.so.6", true, false },
		{ "/lib/*", false, false }, { "*", true, true },
		{ "a.out", false, true },   { "ls", false, false },
		{ "/usr/bin/ls", false, false }, { "lib?", true, false },
	};
	char what[128];
	size_t i;

	for (i = 0; i < N(cases); i++) {
		snprintf(what, sizeof(what), "library glob '%s': libc %d, the program %d",
			 cases[i].glob, cases[i].libc, cases[i].prog);
		tap(sel_lib_matches(cases[i].glob, &libc) == cases[i].libc &&
			    sel_lib_matches(cases[i].glob, &prog) == cases[i].prog,
		    what);
	}
}

/* The last-match walk: which rule decides, as SEL_* says to walk. */
static void test_walk(void)
{
	static const struct ltr_rule rules[] = {
		{ 0, 0, "libc", "str*" },
		{ LTR_RULE_EXCLUDE, 0, "libc", "strlen" },
		{ LTR_RULE_INNER, 3, "libc", "strcpy" },
		{ 0, 5, "lib?", "strcpy" },
		{ 0, 0, "libm", "*" },
	};
	static const struct sel_names libc = { "libc", "libc.so.6", NULL, false };
	static const struct {
		const char *name;
		unsigned how;
		size_t want;
	} cases[] = {
		{ "strcmp", 0, 0 },        { "strlen", 0, 1 },
		{ "strlen", SEL_INCLUDES, 0 }, { "strcpy", 0, 3 },
		{ "strcpy", SEL_SELF, 2 }, { "strlen", SEL_SELF, 1 },
		{ "strcmp", SEL_SELF, N(rules) }, { "malloc", 0, N(rules) },
	};
	char what[128];
	size_t i, got;

	for (i = 0; i < N(cases); i++) {
		got = sel_rule_of(rules, N(rules), cases[i].name, cases[i].how, &libc);
		snprintf(what, sizeof(what), "libc:%s walked 0x%x: rule %zu decides (got %zu)",
			 cases[i].name, cases[i].how, cases[i].want, got);
		tap(got == cases[i].want, what);
	}
	tap(sel_selected(rules, N(rules), "strcmp", 0, &libc) &&
		    !sel_selected(rules, N(rules), "strlen", 0, &libc) &&
		    !sel_selected(rules, N(rules), "malloc", 0, &libc),
	    "selected: strcmp, not strlen ('!'), not malloc (no rule)");
	tap(sel_lib_wanted(rules, N(rules), &libc) &&
		    !sel_lib_wanted(rules + 1, 1, &libc),
	    "a library is wanted by a rule that includes, not by one that excludes");
	tap(sel_from_matches(NULL, 0, &libc), "no --from glob: every object calls");
}

int main(void)
{
	test_glob_cases();
	test_glob_generated();
	test_short_names();
	test_lib_matches();
	test_walk();
	printf("1..%u\n", tap_tests);
	return tap_failures ? 1 : 0;
}
