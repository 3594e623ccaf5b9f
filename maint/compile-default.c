/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compile-default.c: compile the default config into the table ltruss
 * uses instead of parsing it (bin/config/config-default.c), at build
 * time, with ltruss's own loader, so that a mistake in it is the same
 * error, at the same file:line:column, as ltruss would give, and the
 * table holds what parsing the file leaves, whatever the file says.
 *
 * Usage: compile-default YAML OUT.c
 *   OUT.c defines default_table (bin/config/default-table.h).  A config
 *   with prototypes, types or includes, whose meaning lies partly in
 *   other files, gets a table without text: ltruss then always parses it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/config/conf.h"
#include "bin/util/error.h"
#include "bin/util/xmalloc.h"

/* The whole file at path, malloc'd, its size in *size; dies if unreadable. */
static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *text = xmalloc(cap);

	if (!f)
		error_msg_and_die("cannot read '%s': %s", path, strerror(errno));
	while ((got = fread(text + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			text = xrealloc(text, cap *= 2);
	}
	if (ferror(f))
		error_msg_and_die("cannot read '%s': %s", path, strerror(errno));
	fclose(f);
	*size = n;
	return text;
}

/* n bytes of s as a C string literal's contents: printable ASCII as is, octal else. */
static void put_bytes(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\' || c == '?')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c >= ' ' && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\%03o", c); /* three digits: never run on */
	}
}

/* A NUL-terminated string as a C string literal. */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	put_bytes(out, s, strlen(s));
	fputc('"', out);
}

/* The text, a literal a line, so that the table reads like its source. */
static void put_text(FILE *out, const char *text, size_t size)
{
	size_t i = 0, end;

	while (i < size) {
		for (end = i; end < size && text[end] != '\n'; end++)
			;
		end += end < size; /* with its newline */
		fputs("\t\t\"", out);
		put_bytes(out, text + i, end - i);
		fputs("\"\n", out);
		i = end;
	}
	if (!size)
		fputs("\t\t\"\"\n", out);
}

int main(int argc, char **argv)
{
	const char *src, *why = NULL;
	struct config cfg;
	size_t size, i;
	char *text;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: %s YAML OUT.c\n", argv[0]);
		return EXIT_LTRUSS_ERROR;
	}
	src = argv[1];
	config_init(&cfg);
	config_parse_default(&cfg, src, "the default config", "fix it");
	text = slurp(src, &size);
	if (cfg.nprotos || cfg.ntypes)
		why = "it has prototypes or types";
	else if (cfg.nfiles != 1)
		why = "it includes other files";
	if (why)
		fprintf(stderr, "%s: warning: %s is not compiled in: %s; ltruss will parse it at every start\n",
			argv[0], src, why);
	out = fopen(argv[2], "w");
	if (!out)
		error_msg_and_die("cannot write '%s': %s", argv[2], strerror(errno));
	fprintf(out, "/* Made by maint/compile-default from %s: do not edit. */\n", src);
	fputs("#include \"config.h\"\n\n#include \"default-table.h\"\n\n", out);
	fputs("static const struct ltr_rule rules[] = {\n", out);
	for (i = 0; i < cfg.sel.nrules; i++) {
		const struct ltr_rule *r = &cfg.sel.rules[i];

		fprintf(out, "\t{ .flags = %#x, .depth = %u, .lib = ", r->flags,
			r->depth);
		put_string(out, r->lib);
		fputs(", .func = ", out);
		put_string(out, r->func);
		fputs(" },\n", out);
	}
	/* An empty initializer list is not C99: one unused entry then. */
	fputs(cfg.sel.nrules ? "};\n\n" : "\t{ 0 },\n};\n\n", out);
	fputs("static const char from[][LTR_GLOB_MAX] = {\n", out);
	for (i = 0; i < cfg.sel.nfrom; i++) {
		fputc('\t', out);
		put_string(out, cfg.sel.from[i]);
		fputs(",\n", out);
	}
	fputs(cfg.sel.nfrom ? "};\n\n" : "\t\"\",\n};\n\n", out);
	fputs("const struct default_table default_table = {\n\t.text =", out);
	if (why) {
		fputs(" NULL,\n", out);
	} else {
		fputc('\n', out);
		put_text(out, text, size);
		fputs("\t,\n", out);
	}
	fprintf(out, "\t.size = %zu,\n\t.selected = %s,\n", why ? 0 : size,
		cfg.selected ? "true" : "false");
	fprintf(out, "\t.depth_set = %s, .depth = %u,\n",
		cfg.depth_set ? "true" : "false", cfg.depth);
	fprintf(out, "\t.strsize_set = %s, .strsize = %u,\n",
		cfg.strsize_set ? "true" : "false", cfg.strsize);
	fprintf(out, "\t.nrules = %zu, .rules = rules,\n", cfg.sel.nrules);
	fprintf(out, "\t.nfrom = %zu, .from = from,\n};\n", cfg.sel.nfrom);
	if (fclose(out) != 0)
		error_msg_and_die("cannot write '%s': %s", argv[2], strerror(errno));
	free(text);
	config_free(&cfg);
	return 0;
}
