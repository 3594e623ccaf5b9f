/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype-test.c: TAP unit tests of the prototype parser, from a file of
 * cases. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/config/prototype.h"

/*
 * The cases file (tests/unit/prototype-cases.txt) holds one case a line:
 *
 *   DECLARATION => RENDERING      parses, and renders as shown (see render())
 *   DECLARATION => error COL: MSG fails at column COL with message MSG
 *   DECLARATION => @ R A1 A2...   parses; ret_col is R, args' cols A1...
 *   %prototypes FILE              every prototype of a shipped YAML file
 *                                 parses and uses no named type
 *   %annotations FILE TYPES       every prototype of FILE parses and its
 *                                 named types are declared in TYPES
 *
 * Paths are relative to the source tree ($LTRUSS_TOP_SRCDIR, or ".").
 * With --parse, the program reads declarations on stdin instead and prints
 * "ok RENDERING" or "error COL: MSG" for each (maint/gen-prototypes uses it).
 */

#define LINE_MAX_LEN 4096

static unsigned test_number;

/* Print one TAP result, with diagnostics on failure. */
static void tap_result(bool ok, const char *what, const char *got,
		       const char *expected)
{
	printf("%s %u - %s\n", ok ? "ok" : "not ok", ++test_number, what);
	if (!ok)
		printf("#      got: %s\n# expected: %s\n", got, expected);
}

/* Append to a string buffer, cutting at its size. */
static void buf_add(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		snprintf(buf + len, size - len, "%s", s);
}

/* One type and name: "char *name", "int n", "void (*name)()" or "int". */
static void render_typed(char *buf, size_t size, const struct ptype *t,
			 const char *name)
{
	char type[64], rest[64];
	char *paren;

	ptype_name(t, type, sizeof(type));
	paren = strstr(type, "*)");
	if (name && paren) {
		snprintf(rest, sizeof(rest), "%s", paren + 1);
		paren[1] = '\0';
		buf_add(buf, size, type);
		buf_add(buf, size, name);
		buf_add(buf, size, rest);
		return;
	}
	buf_add(buf, size, type);
	if (name) {
		if (type[strlen(type) - 1] != '*')
			buf_add(buf, size, " ");
		buf_add(buf, size, name);
	}
}

/*
 * A parsed declaration, spelled back with ptype_name() and every
 * annotation: "[errno:-1/32] int open(char *path, open_flags flags, ...)".
 */
static void render(const struct proto *p, char *buf, size_t size)
{
	static const char *const errs[] = {
	    [LTR_ERR_MINUS1_32] = "[errno:-1/32] ",
	    [LTR_ERR_MINUS1_64] = "[errno:-1/64] ",
	    [LTR_ERR_NULL] = "[errno:null] ",
	    [LTR_ERR_ERRNUM] = "[errnum] ",
	    [LTR_ERR_NEG32] = "[errno:neg] ",
	};
	char word[32];
	size_t i;

	buf[0] = '\0';
	if (p->err != LTR_ERR_NONE)
		buf_add(buf, size, errs[p->err]);
	render_typed(buf, size, &p->ret, NULL);
	if (buf[strlen(buf) - 1] != '*')
		buf_add(buf, size, " ");
	buf_add(buf, size, p->name);
	buf_add(buf, size, "(");
	for (i = 0; i < p->nargs; i++) {
		const struct parg *a = &p->args[i];

		if (i > 0)
			buf_add(buf, size, ", ");
		if (a->format)
			buf_add(buf, size, "[format] ");
		if (a->out == OUT_PLAIN)
			buf_add(buf, size, "[out] ");
		if (a->out == OUT_RET)
			buf_add(buf, size, "[out:ret] ");
		if (a->out == OUT_ARG) {
			snprintf(word, sizeof(word), "[out:arg%u] ",
				 a->out_arg);
			buf_add(buf, size, word);
		}
		if (a->st.size) {
			unsigned k;

			snprintf(word, sizeof(word), "[struct:%u", a->st.size);
			buf_add(buf, size, word);
			for (k = 0; k < a->st.nin; k++) {
				snprintf(word, sizeof(word), ",in:%u/%u",
					 a->st.in[k].ptr, a->st.in[k].len);
				buf_add(buf, size, word);
			}
			for (k = 0; k < a->st.nout; k++) {
				snprintf(word, sizeof(word), ",out:%u/%u",
					 a->st.out[k].ptr, a->st.out[k].len);
				buf_add(buf, size, word);
			}
			buf_add(buf, size, "] ");
		}
		if (a->in == IN_ARG) {
			snprintf(word, sizeof(word), "[in:arg%u] ", a->in_arg);
			buf_add(buf, size, word);
		}
		if (a->if_arg) {
			snprintf(word, sizeof(word), "[if:arg%u:%s] ",
				 a->if_arg, a->if_names);
			buf_add(buf, size, word);
		}
		render_typed(buf, size, &a->type, a->name);
	}
	if (p->variadic)
		buf_add(buf, size, ", ...");
	if (p->nargs == 0)
		buf_add(buf, size, "void");
	buf_add(buf, size, ")");
}

/* The columns of a declaration: "@ RET A1 A2...". */
static void render_cols(const struct proto *p, char *buf, size_t size)
{
	char word[16];
	size_t i;

	snprintf(buf, size, "@ %u", p->ret_col);
	for (i = 0; i < p->nargs; i++) {
		snprintf(word, sizeof(word), " %u", p->args[i].col);
		buf_add(buf, size, word);
	}
}

/* Parse decl and describe the outcome in the form the expectation uses. */
static void outcome(const char *decl, const char *expected, char *buf,
		    size_t size)
{
	struct proto p = {.file = NULL};
	const char *err;
	unsigned col;

	if (!proto_parse(decl, &p, &col, &err)) {
		snprintf(buf, size, "error %u: %s", col, err);
		return;
	}
	if (expected[0] == '@')
		render_cols(&p, buf, size);
	else
		render(&p, buf, size);
	proto_free(&p);
	if (p.name || p.nargs)
		snprintf(buf, size, "proto_free left something behind");
}

/* Strip trailing white space (and the newline) in place. */
static char *rstrip(char *s)
{
	size_t n = strlen(s);

	while (n > 0 &&
	       (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* Open a file of the source tree. */
static FILE *src_open(const char *path, char *full, size_t size)
{
	const char *top = getenv("LTRUSS_TOP_SRCDIR");

	snprintf(full, size, "%s/%s", top && *top ? top : ".", path);
	return fopen(full, "r");
}

/* The declaration of a YAML line '  - "DECL"', or NULL. */
static char *yaml_prototype(char *line)
{
	char *s = line, *end;

	while (*s == ' ')
		s++;
	if (s[0] != '-' || s[1] != ' ')
		return NULL;
	s += 2;
	while (*s == ' ')
		s++;
	end = s + strlen(s);
	if (*s != '"' || end - s < 2 || end[-1] != '"')
		return NULL;
	end[-1] = '\0';
	return s + 1;
}

/* Whether TYPES (a types.yaml) declares the type name under "types:". */
static bool type_declared(const char *types, const char *name)
{
	char full[1024], line[LINE_MAX_LEN];
	bool in_types = false, found = false;
	size_t n = strlen(name);
	FILE *f = src_open(types, full, sizeof(full));

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		rstrip(line);
		if (line[0] != ' ' && line[0] != '#' && line[0] != '\0')
			in_types = strcmp(line, "types:") == 0;
		else if (in_types && strncmp(line, "  ", 2) == 0 &&
			 line[2] != ' ' && strncmp(line + 2, name, n) == 0 &&
			 strcmp(line + 2 + n, ":") == 0)
			found = true;
	}
	fclose(f);
	return found;
}

/* Why proto p of a shipped file is not fine (named types), or NULL. */
static const char *named_problem(const struct proto *p, const char *types)
{
	static char why[256];
	const struct ptype *t;
	size_t i;

	for (i = 0; i <= p->nargs; i++) {
		t = i < p->nargs ? &p->args[i].type : &p->ret;
		if (t->kind != CT_NAMED)
			continue;
		if (types && type_declared(types, t->named))
			continue;
		snprintf(why, sizeof(why), "named type %s%s%s", t->named,
			 types ? " not declared in " : " (not allowed)",
			 types ? types : "");
		return why;
	}
	return NULL;
}

/* One case for a whole YAML file of prototypes. */
static void check_yaml(const char *path, const char *types)
{
	char full[1024], line[LINE_MAX_LEN], what[1200], got[LINE_MAX_LEN];
	unsigned lineno = 0, count = 0;
	const char *err, *why;
	struct proto p;
	bool ok = true;
	unsigned col;
	char *decl;
	FILE *f = src_open(path, full, sizeof(full));

	snprintf(got, sizeof(got), "all parse");
	if (!f) {
		snprintf(got, sizeof(got), "cannot open %s", full);
		ok = false;
	}
	while (f && fgets(line, sizeof(line), f)) {
		lineno++;
		if (!(decl = yaml_prototype(rstrip(line))))
			continue;
		count++;
		memset(&p, 0, sizeof(p));
		if (!proto_parse(decl, &p, &col, &err)) {
			snprintf(got, sizeof(got), "%s:%u: column %u: %s", path,
				 lineno, col, err);
			ok = false;
			break;
		}
		why = named_problem(&p, types);
		if (why) {
			snprintf(got, sizeof(got), "%s:%u: %s", path, lineno,
				 why);
			ok = false;
		}
		proto_free(&p);
		if (!ok)
			break;
	}
	if (f)
		fclose(f);
	if (ok && count == 0) {
		snprintf(got, sizeof(got), "no prototypes in %s", path);
		ok = false;
	}
	snprintf(what, sizeof(what), "%s: %u prototypes parse%s", path, count,
		 types ? ", their named types are declared"
		       : ", no named types");
	tap_result(ok, what, got, "all parse");
}

/* Run the case of one line of the cases file. */
static void run_case(char *line, const char *file, unsigned lineno)
{
	char got[LINE_MAX_LEN], what[LINE_MAX_LEN + 32];
	char *arrow, *expected, *arg2;

	if (strncmp(line, "%prototypes ", 12) == 0) {
		check_yaml(line + 12, NULL);
		return;
	}
	if (strncmp(line, "%annotations ", 13) == 0) {
		arg2 = strchr(line + 13, ' ');
		if (arg2)
			*arg2++ = '\0';
		check_yaml(line + 13, arg2);
		return;
	}
	arrow = strstr(line, " => ");
	if (!arrow) {
		snprintf(what, sizeof(what), "%s:%u: a case", file, lineno);
		tap_result(false, what, line, "DECLARATION => EXPECTED");
		return;
	}
	*arrow = '\0';
	expected = arrow + 4;
	while (*expected == ' ')
		expected++;
	rstrip(line);
	outcome(line, expected, got, sizeof(got));
	snprintf(what, sizeof(what), "%s", line);
	tap_result(strcmp(got, expected) == 0, what, got, expected);
}

/* ptype_name() cuts at the buffer's size and always terminates it. */
static void check_name_truncation(void)
{
	struct ptype t = {
	    .kind = CT_POINTER, .size = 8, .target = CT_UINT, .target_size = 8};
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	ptype_name(&t, buf, sizeof(buf));
	tap_result(strcmp(buf, "unsigne") == 0,
		   "ptype_name cuts \"unsigned long *\" to its buffer", buf,
		   "unsigne");
}

/* --parse: one outcome line for each declaration on stdin. */
static int parse_stdin(void)
{
	char line[LINE_MAX_LEN], got[LINE_MAX_LEN];

	while (fgets(line, sizeof(line), stdin)) {
		outcome(rstrip(line), "", got, sizeof(got));
		printf("%s%s\n", strncmp(got, "error ", 6) ? "ok " : "", got);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *cases = "tests/unit/prototype-cases.txt";
	char full[1024], line[LINE_MAX_LEN];
	unsigned lineno = 0;
	FILE *f;

	if (argc > 1 && strcmp(argv[1], "--parse") == 0)
		return parse_stdin();
	if (argc > 1)
		cases = argv[1];
	f = src_open(cases, full, sizeof(full));
	if (!f) {
		printf("Bail out! cannot open %s\n", full);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		rstrip(line);
		if (line[0] == '\0' || line[0] == '#')
			continue;
		run_case(line, cases, lineno);
	}
	fclose(f);
	check_name_truncation();
	printf("1..%u\n", test_number);
	/* Failures are in the TAP lines; a status would count them twice. */
	return 0;
}
