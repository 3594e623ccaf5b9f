/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config-default.c: the default config, from the form compiled into
 * ltruss when the file holds the text it was compiled from.
 *
 * A run that selects nothing (ltruss ls) loads the default config while
 * the command waits for its session: parsing its 30 lines of YAML took
 * 125 000 instructions, and libyaml, loaded for it alone, the loader's
 * mapping and relocation before main.  maint/compile-default parses
 * conf/ltruss.yaml at build time with this loader and writes what it
 * leaves in a struct config (its rules, from globs, depth and strsize)
 * into bin/config/default-table.c, with the text itself.  At start-up the
 * file (the user's, else the installed one) is read, four system calls,
 * and when it holds exactly that text the table is copied in: the same
 * config, never parsed, and libyaml never loaded (yaml-lazy.c).  Any
 * other file, an edited one, one that cannot be read, or a table that
 * would not fit beside what the command line gave, is parsed as before,
 * with the same errors at the same file:line:column.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "config-default.h"
#include "default-table.h"
#include "paths.h"

/* Does the file at path hold exactly the size bytes of text? */
static bool same_text(const char *path, const char *text, size_t size)
{
	/* Not blocked by a FIFO, which is left to the parser (no writer: empty). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	char buf[4096];
	struct stat st;
	size_t done = 0;
	ssize_t n;
	bool same;

	if (fd < 0)
		return false;
	same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (size_t)st.st_size == size && size < sizeof(buf);
	/* One byte more than the text: a file that grew is not it. */
	while (same && (n = read(fd, buf + done, sizeof(buf) - done)) > 0)
		done += (size_t)n;
	close(fd);
	return same && done == size && memcmp(buf, text, size) == 0;
}

bool config_default_compiled(struct config *cfg, const char *path,
			     const struct default_table *t)
{
	struct selection *sel = &cfg->sel;
	size_t i;

	/* What would not fit is parsed: its error names the file. */
	if (!t->text || sel->nrules + t->nrules > LTR_MAX_RULES ||
	    sel->nfrom + t->nfrom > LTR_MAX_FROM ||
	    !same_text(path, t->text, t->size))
		return false;
	memcpy(&sel->rules[sel->nrules], t->rules,
	       t->nrules * sizeof(*t->rules));
	sel->nrules += t->nrules;
	for (i = 0; i < t->nfrom; i++)
		memcpy(sel->from[sel->nfrom++], t->from[i], LTR_GLOB_MAX);
	if (t->selected)
		cfg->selected = true;
	if (t->depth_set) {
		cfg->depth = t->depth;
		cfg->depth_set = true;
	}
	if (t->strsize_set) {
		cfg->strsize = t->strsize;
		cfg->strsize_set = true;
	}
	return true;
}

/* The default config at path, compiled or parsed. */
static void load(struct config *cfg, const char *path, const char *role,
		 const char *hint)
{
	if (!config_default_compiled(cfg, path, &default_table))
		config_parse_default(cfg, path, role, hint);
}

void config_load_default(struct config *cfg)
{
	unsigned depth = cfg->depth, strsize = cfg->strsize;
	bool depth_set = cfg->depth_set, strsize_set = cfg->strsize_set;
	size_t nfrom = cfg->sel.nfrom;
	char *user = config_user_path("ltruss.yaml");
	struct stat st;

	if (user && stat(user, &st) == 0)
		load(cfg, user, "your default config",
		     "fix it, or remove it to use the installed one");
	else
		load(cfg, paths_default_config(), "the default config",
		     "reinstall ltruss, or say what to trace with -u or -F");
	free(user);
	if (depth_set)
		cfg->depth = depth;
	if (strsize_set)
		cfg->strsize = strsize;
	/* --from narrows the default: it replaces the default's "from". */
	if (nfrom)
		cfg->sel.nfrom = nfrom;
}
