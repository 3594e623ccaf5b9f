/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * default-test.c: TAP unit tests of the compiled default config
 * (bin/config/config-default.c): the table made from conf/ltruss.yaml at
 * build time loads exactly what parsing the file loads, alone and beside
 * what a command line gave; a file that differs, a FIFO, or rules that
 * would not fit leave the config as it was, for the parser.
 *
 * Needs LTRUSS_TOP_SRCDIR (make check sets it) and a scratch directory
 * for its edited copies: TMPDIR, else /tmp.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bin/config/conf.h"
#include "bin/config/config-default.h"
#include "bin/config/default-table.h"
#include "bin/config/selection.h"
#include "bin/util/xmalloc.h"
#include "tests/unit/tap.h"


/*
 * Did a and b load the same: rules, from globs, flags, depth, strsize,
 * nothing else?  (A from glob is a string: what follows its NUL is not
 * cleared, as the selection's arrays are not at start-up.)
 */
static bool same_config(const struct config *a, const struct config *b)
{
	size_t i;

	if (a->sel.nrules != b->sel.nrules || a->sel.nfrom != b->sel.nfrom ||
	    memcmp(a->sel.rules, b->sel.rules,
		   a->sel.nrules * sizeof(a->sel.rules[0])) != 0)
		return false;
	for (i = 0; i < a->sel.nfrom; i++)
		if (strcmp(a->sel.from[i], b->sel.from[i]) != 0)
			return false;
	return a->selected == b->selected && a->depth == b->depth &&
	       a->selected == b->selected && a->depth == b->depth &&
	       a->depth_set == b->depth_set && a->strsize == b->strsize &&
	       a->strsize_set == b->strsize_set &&
	       a->nprotos == b->nprotos && a->ntypes == b->ntypes;
}

/* What a command line gives before the default loads: --from, -D. */
static void command_line(struct config *cfg)
{
	selection_add_from(&cfg->sel, "libfix*");
	cfg->depth = 3;
	cfg->depth_set = true;
}

/* The table against the parser on path, from an empty config or after prep. */
static void test_same(const char *path, void (*prep)(struct config *),
		      const char *what)
{
	static struct config compiled, parsed;
	bool used;

	config_init(&compiled);
	config_init(&parsed);
	if (prep) {
		prep(&compiled);
		prep(&parsed);
	}
	used = config_default_compiled(&compiled, path, &default_table);
	config_parse_default(&parsed, path, "the default config", "fix it");
	tap(used && same_config(&compiled, &parsed), what);
	config_free(&compiled);
	config_free(&parsed);
}

/* The table is refused for path: the config is left as it was. */
static void test_refused(const char *path, void (*prep)(struct config *),
			 const char *what)
{
	static struct config cfg, before;

	config_init(&cfg);
	config_init(&before);
	if (prep) {
		prep(&cfg);
		prep(&before);
	}
	tap(!config_default_compiled(&cfg, path, &default_table) &&
		    same_config(&cfg, &before),
	    what);
	config_free(&cfg);
	config_free(&before);
}

/* Write text, then more, to path. */
static void write_file(const char *path, const char *text, size_t n,
		       const char *more)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, n, f) != n || fputs(more, f) < 0 ||
	    fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* 32 --from globs: the default's own does not fit beside them. */
static void many_from(struct config *cfg)
{
	char glob[16];
	int i;

	for (i = 0; i < LTR_MAX_FROM; i++) {
		snprintf(glob, sizeof(glob), "lib%d", i);
		selection_add_from(&cfg->sel, glob);
	}
}

int main(void)
{
	const char *top = getenv("LTRUSS_TOP_SRCDIR"), *tmp = getenv("TMPDIR");
	char *src, *dir, *edited, *fifo;

	if (!top) {
		printf("Bail out! LTRUSS_TOP_SRCDIR is not set\n");
		return 1;
	}
	src = xasprintf("%s/conf/ltruss.yaml", top);
	dir = xasprintf("%s/default-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a directory in %s\n", dir);
		return 1;
	}
	tap(default_table.text != NULL, "conf/ltruss.yaml is compiled in");
	test_same(src, NULL, "the table loads what parsing conf/ltruss.yaml loads");
	test_same(src, command_line,
		  "after --from and -D too (the rules and globs appended to theirs)");
	tap(default_table.nrules > 0 && default_table.selected,
	    "the table selects something (its rules are not empty)");
	edited = xasprintf("%s/ltruss.yaml", dir);
	write_file(edited, default_table.text, default_table.size,
		   "# edited\n");
	test_refused(edited, NULL, "a file with one more line is not the table's");
	write_file(edited, default_table.text, default_table.size - 1, "");
	test_refused(edited, NULL, "a file with one byte less is not the table's");
	write_file(edited, default_table.text, default_table.size, "");
	test_same(edited, NULL, "a copy of the text elsewhere is the table's");
	test_refused(src, many_from,
		     "rules that would not fit are left to the parser (and its error)");
	unlink(edited);
	test_refused(edited, NULL, "a missing file is left to the parser");
	fifo = xasprintf("%s/fifo.yaml", dir);
	if (mkfifo(fifo, 0600) == 0) {
		test_refused(fifo, NULL, "a FIFO is left to the parser, not read (nor waited for)");
		unlink(fifo);
	} else {
		tap(false, "mkfifo for the FIFO case");
	}
	rmdir(dir);
	free(fifo);
	free(edited);
	free(dir);
	free(src);
	printf("1..%u\n", tap_tests);
	return tap_failures ? 1 : 0;
}
