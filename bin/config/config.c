/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.c: find and load YAML filters (-F, include, the default config,
 * the shipped prototypes) into one struct config, check it, look in it.
 *
 * Files load in the order they are named, and each file's keys in the
 * order they are written, so "later wins" means the same thing for rules,
 * prototypes, types, depth and strsize: an include takes effect where the
 * include key stands (usually first, so the including file's own rules
 * win).  Errors end the run before anything starts; each names the file,
 * line and column, and what to do.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "yaml-files.h"
#include "config-yaml.h"
#include "error.h"
#include "paths.h"
#include "shipped.h"
#include "xmalloc.h"

/* Deeper than any sensible set of filters including each other. */
#define INCLUDE_DEPTH_MAX 32

/* What a file may hold: a filter anything, a prototypes file less. */
/* What a file is loaded as: -F or an include, a default config, prototypes. */
enum load_kind { LOAD_FILTER, LOAD_DEFAULT, LOAD_PROTOTYPES };

/* One file being loaded, with the chain of files that included it. */
struct load {
	struct config *cfg;
	struct yreader r;
	const char *file;          /* its name in messages (in cfg->files) */
	dev_t dev;
	ino_t ino;
	const struct load *parent; /* the file whose include names this one */
	enum load_kind kind;
	unsigned level;
};

/* Make room for one more element of size elem in *array. */
static void *grow(void *array, size_t n, size_t *cap, size_t elem)
{
	if (n < *cap)
		return array;
	*cap = *cap ? *cap * 2 : 16;
	array = xrealloc(array, *cap * elem);
	return array;
}

/* "dir/name", malloc'd. */
static char *path_join(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/* Keep a copy of a file's name for the whole run; returns the copy. */
static const char *file_keep(struct config *cfg, const char *path)
{
	cfg->files = grow(cfg->files, cfg->nfiles, &cfg->files_cap,
			  sizeof(*cfg->files));
	cfg->files[cfg->nfiles] = xstrdup(path);
	return cfg->files[cfg->nfiles++];
}

/* ---- names and paths ---------------------------------------------------- */

/* Is arg a filter's name (looked up), rather than a path? */
static bool is_name(const char *arg)
{
	size_t len = strlen(arg);

	return !strchr(arg, '/') &&
	       !(len >= 5 && strcmp(arg + len - 5, ".yaml") == 0);
}

char *config_user_path(const char *rel)
{
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	return xasprintf("%s/.config/ltruss/%s", home, rel);
}

/* dir/NAME.yaml if it exists (malloc'd), else NULL. */
static char *filter_in(const char *dir, size_t dir_len, const char *name)
{
	struct stat st;
	char *p = xasprintf("%.*s/%s.yaml", (int)dir_len, dir, name);

	if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode))
		return p;
	free(p);
	return NULL;
}

/*
 * Look a filter's name up: in each directory of $LTRUSS_FILTER_PATH, in
 * ~/.config/ltruss/filters, then among the shipped filters.
 */
static char *filter_find(const char *name)
{
	const char *path = getenv("LTRUSS_FILTER_PATH"), *p, *colon;
	char *user, *found = NULL;

	for (p = path; p && *p && !found; p = colon + !!*colon) {
		colon = strchrnul(p, ':');
		if (colon > p)
			found = filter_in(p, (size_t)(colon - p), name);
	}
	user = config_user_path("filters");
	if (!found && user)
		found = filter_in(user, strlen(user), name);
	free(user);
	if (!found)
		found = filter_in(paths_filters_dir(),
				  strlen(paths_filters_dir()), name);
	return found;
}

/* Die: no filter of that name; at an include item, or for -F. */
static void __attribute__((noreturn))
no_filter(const struct yreader *at, const char *name)
{
	const char *env = getenv("LTRUSS_FILTER_PATH");
	char *user = config_user_path("filters"), **names;
	char where[1024] = "", shipped[512] = "";
	size_t i, n, len = 0;

	if (env && *env)
		len += (size_t)snprintf(where, sizeof(where),
					"LTRUSS_FILTER_PATH (%s), ", env);
	if (user && len < sizeof(where))
		len += (size_t)snprintf(where + len, sizeof(where) - len,
					"%s, ", user);
	if (len < sizeof(where))
		snprintf(where + len, sizeof(where) - len, "%s",
			 paths_filters_dir());
	free(user);
	names = yaml_files(paths_filters_dir(), &n);
	for (i = 0, len = 0; i < n && len + 64 < sizeof(shipped); i++)
		len += (size_t)snprintf(shipped + len, sizeof(shipped) - len,
					"%s%.*s", i ? ", " : " (shipped: ",
					(int)(strlen(names[i]) - 5), names[i]);
	if (n)
		snprintf(shipped + len, sizeof(shipped) - len, ")");
	yaml_files_free(names, n);
	if (at)
		yreader_die(at, "no filter named '%s' in %s; give a path to a .yaml file, or a filter's name%s",
			    name, where, shipped);
	error_msg_and_die("no filter named '%s' (-F) in %s; give a path to a .yaml file, or a filter's name%s",
			  name, where, shipped);
}

/* ---- loading a file ----------------------------------------------------- */

static void load_file(struct config *cfg, const char *path,
		      const struct load *parent, enum load_kind kind,
		      const char *role, const char *hint);

/* Die at a bad glob, saying what it is for. */
static void glob_check(const struct yreader *r, const char *glob,
		       const char *what)
{
	const char *err = selection_glob_check(glob, strlen(glob));

	if (err)
		yreader_die(r, "bad glob '%.128s' in %s: %s; fix the glob",
			    glob, what, err);
}

/* version: 1, the only one there is. */
static void key_version(struct load *ld)
{
	uint64_t v = yreader_uint(&ld->r, "'version'", 0, UINT64_MAX);

	if (v != 1)
		yreader_die(&ld->r, "unknown version %llu; this ltruss reads version 1 (or leave 'version' out)",
			    (unsigned long long)v);
}

/* include: [NAME or PATH, ...]: load each, here and now. */
static void key_include(struct load *ld)
{
	struct yreader *r = &ld->r;

	yreader_list(r, "'include'", "filter names or paths, such as [stdio, ./mine.yaml]");
	while (yreader_list_more(r)) {
		const char *name = yreader_string(r, "an 'include' entry",
						  "a filter name or path");
		char *path, *slash;

		if (is_name(name)) {
			path = filter_find(name);
			if (!path)
				no_filter(r, name);
		} else if (name[0] == '/' || !(slash = strrchr(ld->file, '/'))) {
			path = xstrdup(name);
		} else {
			/* Relative to the including file. */
			while (name[0] == '.' && name[1] == '/')
				name += 2;
			path = xasprintf("%.*s/%s", (int)(slash - ld->file),
					 ld->file, name);
		}
		load_file(ld->cfg, path, ld, LOAD_FILTER, NULL, NULL);
		free(path);
	}
}

/* depth: N, like -D (0: no limit). */
static void key_depth(struct load *ld)
{
	ld->cfg->depth = (unsigned)yreader_uint(&ld->r, "'depth'", 0,
						UINT32_MAX);
	ld->cfg->depth_set = true;
}

/* strsize: N, like -s. */
static void key_strsize(struct load *ld)
{
	ld->cfg->strsize = (unsigned)yreader_uint(&ld->r, "'strsize'", 1,
						  LTR_STRSIZE_MAX);
	ld->cfg->strsize_set = true;
}

/* from: [GLOB, ...], like --from. */
static void key_from(struct load *ld)
{
	struct yreader *r = &ld->r;
	const char *glob, *err;

	yreader_list(r, "'from'", "globs of calling objects, such as [a.out]");
	while (yreader_list_more(r)) {
		glob = yreader_string(r, "a 'from' entry", "a glob");
		glob_check(r, glob, "'from'");
		if ((err = selection_add_from(&ld->cfg->sel, glob)))
			yreader_die(r, "%s; use fewer 'from' globs", err);
	}
}

/* A trace rule's functions, kept until the rule's end (lib may follow). */
struct funcs {
	char **globs;
	size_t n, cap;
};

/* functions: [GLOB, "!GLOB", ...] */
static void rule_functions(struct load *ld, struct funcs *f)
{
	struct yreader *r = &ld->r;
	const char *glob;

	yreader_list(r, "'functions'", "function globs, such as [\"malloc\", \"!free\"]");
	while (yreader_list_more(r)) {
		glob = yreader_string(r, "a 'functions' entry", "a function glob");
		glob_check(r, glob + (glob[0] == '!'), "'functions'");
		f->globs = grow(f->globs, f->n, &f->cap, sizeof(*f->globs));
		f->globs[f->n++] = xstrdup(glob);
	}
	if (!f->n)
		yreader_die(r, "'functions' is empty; leave it out to trace every function of 'lib'");
}

/* One rule: {lib: GLOB, functions: [...], inner: BOOL, depth: N}. */
static void trace_rule(struct load *ld)
{
	static const char *const keys[] = { "lib", "functions", "inner",
					    "depth" };
	struct yreader *r = &ld->r;
	unsigned line = yreader_line(r), col = yreader_col(r);
	unsigned seen = 0, flags = 0, depth = 0;
	struct funcs f = { 0 };
	char *lib = NULL;
	const char *key, *err, *glob;
	size_t i;

	yreader_map(r, "a trace rule", "lib, functions, inner and depth, such as {lib: \"libc.so*\"}");
	while ((key = yreader_key(r))) {
		i = yreader_key_index(r, key, keys, 4, &seen, "a trace rule");
		yreader_next(r);
		switch (i) {
		case 0:
			glob = yreader_string(r, "'lib'", "a library glob, such as \"libc.so*\"");
			glob_check(r, glob + (glob[0] == '!'), "'lib'");
			lib = xstrdup(glob);
			break;
		case 1:
			rule_functions(ld, &f);
			break;
		case 2:
			flags = yreader_bool(r, "'inner'") ? LTR_RULE_INNER : 0;
			break;
		default:
			depth = (unsigned)yreader_uint(r, "'depth'", 0,
						       UINT32_MAX);
			break;
		}
	}
	if (!lib)
		error_at_and_die(ld->file, line, col,
				 "a trace rule needs 'lib', the library glob; add one, such as lib: \"libc.so*\"");
	if (!f.n) {
		f.globs = grow(f.globs, 0, &f.cap, sizeof(*f.globs));
		f.globs[f.n++] = xstrdup("*");
	}
	for (i = 0; i < f.n; i++) {
		bool lib_excluded = lib[0] == '!', excluded = f.globs[i][0] == '!';

		/*
		 * lib is freed before each error: the compiler may drop the
		 * last pointer to it at a call that does not return, and
		 * LeakSanitizer (maint/check-asan) then counts it lost.
		 */
		if (lib_excluded && excluded) {
			free(lib);
			error_at_and_die(ld->file, line, col,
					 "'%s' cannot be excluded from an excluded library; drop one of the '!'",
					 f.globs[i] + 1);
		}
		err = selection_add_rule(&ld->cfg->sel, lib + lib_excluded,
					 f.globs[i] + excluded,
					 flags | (lib_excluded || excluded ?
						  LTR_RULE_EXCLUDE : 0),
					 depth);
		if (err) {
			free(lib);
			error_at_and_die(ld->file, line, col,
					 "%s; trace fewer function globs", err);
		}
		free(f.globs[i]);
	}
	free(f.globs);
	free(lib);
}

/* trace: [RULE, ...]; any trace key is a selection, even an empty one. */
static void key_trace(struct load *ld)
{
	yreader_list(&ld->r, "'trace'", "rules, such as [{lib: \"libc.so*\", functions: [malloc]}]");
	ld->cfg->selected = true;
	while (yreader_list_more(&ld->r))
		trace_rule(ld);
}

/* prototypes: ["C declaration", ...] */
static void key_prototypes(struct load *ld)
{
	struct yreader *r = &ld->r;
	struct config *cfg = ld->cfg;

	yreader_list(r, "'prototypes'", "C declarations, such as [\"int close(int fd)\"]");
	while (yreader_list_more(r)) {
		const char *decl = yreader_string(r, "a prototype",
						  "a C declaration in quotes");
		unsigned col = yreader_col(r), errcol = 1;
		const char *err = "cannot parse it";
		struct proto *p;

		/* Columns count from the declaration's first character. */
		if (r->ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    r->ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
			col++;
		cfg->protos = grow(cfg->protos, cfg->nprotos, &cfg->protos_cap,
				   sizeof(*cfg->protos));
		p = &cfg->protos[cfg->nprotos];
		if (!proto_parse(decl, p, &errcol, &err))
			error_at_and_die(ld->file, yreader_line(r),
					 col + (errcol ? errcol - 1 : 0),
					 "bad prototype: %s; write it as the C header declares it",
					 err);
		p->file = ld->file;
		p->line = yreader_line(r);
		p->col = col;
		if (cfg->keep_decls)
			p->decl = xstrdup(decl);
		cfg->nprotos++;
	}
}

/* A map of NAME: integer, for a type's enum or flags. */
static void type_values(struct load *ld, const char *what,
			struct type_value **values, size_t *n)
{
	struct yreader *r = &ld->r;
	size_t cap = *n;
	const char *name;
	char *copy;

	yreader_map(r, what, "names to integers, such as {O_RDONLY: 0}");
	while ((name = yreader_key(r))) {
		copy = xstrdup(name);
		yreader_next(r);
		*values = grow(*values, *n, &cap, sizeof(**values));
		(*values)[*n].name = copy;
		(*values)[*n].value = yreader_int(r, "a value");
		(*n)++;
	}
}

/* Does v, sign-extended or not, fit in size bytes? */
static bool fits(uint64_t v, unsigned size)
{
	unsigned bits = size * 8;

	if (bits >= 64)
		return true;
	if ((int64_t)v < 0)
		return (int64_t)v >= -((int64_t)1 << (bits - 1));
	return (v >> bits) == 0;
}

/* Die unless every value of t fits its size. */
static void type_check_sizes(const struct named_type *t)
{
	const struct type_value *lists[] = { t->enums, t->flags };
	size_t counts[] = { t->nenums, t->nflags }, i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < counts[k]; i++)
			if (!fits(lists[k][i].value, t->size))
				error_at_and_die(t->file, t->line, t->col,
						 "%s = %lld does not fit in type '%s' of %u bytes; fix the value or 'size'",
						 lists[k][i].name,
						 (long long)lists[k][i].value,
						 t->name, t->size);
}

/* One type: {enum: {...}} or {flags: {...}, mask: M, enum: {...}, size: N}. */
static void type_body(struct load *ld, struct named_type *t)
{
	static const char *const keys[] = { "enum", "flags", "mask", "size" };
	struct yreader *r = &ld->r;
	unsigned seen = 0;
	const char *key;
	char what[160];

	snprintf(what, sizeof(what), "type '%s'", t->name);
	yreader_map(r, what, "enum, flags, mask and size, such as {enum: {A: 0, B: 1}}");
	while ((key = yreader_key(r))) {
		size_t i = yreader_key_index(r, key, keys, 4, &seen, what);

		yreader_next(r);
		if (i == 0) {
			type_values(ld, "'enum'", &t->enums, &t->nenums);
		} else if (i == 1) {
			type_values(ld, "'flags'", &t->flags, &t->nflags);
		} else if (i == 2) {
			t->mask = yreader_int(r, "'mask'");
		} else {
			t->size = (uint8_t)yreader_uint(r, "'size'", 1, 8);
			if (t->size & (t->size - 1))
				yreader_die(r, "'size' must be 1, 2, 4 or 8 (bytes)");
		}
	}
	if (!(seen & 3))
		error_at_and_die(t->file, t->line, t->col,
				 "type '%s' has neither 'enum' nor 'flags'; give its names and values",
				 t->name);
	if ((seen & 4) && !(seen & 2))
		error_at_and_die(t->file, t->line, t->col,
				 "type '%s' has a 'mask' but no 'flags'; the mask says which bits of the flags are the enum",
				 t->name);
	if ((seen & 3) == 3 && !(seen & 4))
		error_at_and_die(t->file, t->line, t->col,
				 "type '%s' has 'flags' and 'enum' but no 'mask'; add the bits the enum is in, such as mask: 3",
				 t->name);
	type_check_sizes(t);
}

/* Is s a C identifier? */
static bool is_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* types: {NAME: {...}, ...} */
static void key_types(struct load *ld)
{
	struct yreader *r = &ld->r;
	struct config *cfg = ld->cfg;
	struct named_type *t;
	const char *name;

	yreader_map(r, "'types'", "type names to their values, such as {mode: {enum: {A: 0}}}");
	while ((name = yreader_key(r))) {
		if (!is_identifier(name))
			yreader_die(r, "type name '%.64s' is not a C identifier; name it as the C header does",
				    name);
		cfg->types = grow(cfg->types, cfg->ntypes, &cfg->types_cap,
				  sizeof(*cfg->types));
		t = &cfg->types[cfg->ntypes++];
		memset(t, 0, sizeof(*t));
		t->name = xstrdup(name);
		t->size = 4;
		t->file = ld->file;
		t->line = yreader_line(r);
		t->col = yreader_col(r);
		yreader_next(r);
		type_body(ld, t);
	}
}

/* The keys of a file, in the order of the bits in proto_keys. */
static const char *const top_keys[] = {
	"version", "include", "depth", "strsize", "from", "trace",
	"prototypes", "types",
};
static void (*const top_handlers[])(struct load *) = {
	key_version, key_include, key_depth, key_strsize, key_from, key_trace,
	key_prototypes, key_types,
};
#define TOP_KEYS (sizeof(top_keys) / sizeof(top_keys[0]))
/* What a prototypes file may say: version, prototypes, types. */
static const unsigned proto_keys = 1u << 0 | 1u << 6 | 1u << 7;

/* The file's one document: a map of keys, or nothing at all. */
/*
 * A filter with nothing in it (an empty file, /dev/null, a pipe or FIFO
 * nobody wrote to) is a mistake: it must not fall back on the default
 * selection silently.  A default config may be empty.
 */
static void empty_filter(const struct load *ld)
{
	if (ld->kind == LOAD_FILTER)
		yreader_die(&ld->r, "the filter is empty; write its 'trace:' rules, or leave out -F to trace the default selection");
}

static void load_document(struct load *ld)
{
	const char *where = ld->kind == LOAD_PROTOTYPES ? "a prototypes file" :
							   "a filter";
	struct yreader *r = &ld->r;
	unsigned seen = 0;
	const char *key;
	size_t i;

	yreader_next(r); /* the stream's start */
	if (yreader_next(r) == YAML_STREAM_END_EVENT) {
		empty_filter(ld); /* an empty file, or only comments */
		return;
	}
	yreader_next(r);
	if (yreader_is_null(r))
		empty_filter(ld);
	if (r->ev.type == YAML_MAPPING_START_EVENT) {
		while ((key = yreader_key(r))) {
			i = yreader_key_index(r, key, top_keys, TOP_KEYS, &seen,
					      where);
			if (ld->kind == LOAD_PROTOTYPES &&
			    !(proto_keys & (1u << i)))
				yreader_die(r, "'%s' has no place in a prototypes file (only version, prototypes and types); move it to a filter",
					    key);
			yreader_next(r);
			top_handlers[i](ld);
		}
	} else if (!yreader_is_null(r)) {
		yreader_wrong(r, where, "a map of keys such as 'trace:' and 'prototypes:'");
	}
	yreader_next(r); /* the document's end */
	if (yreader_next(r) != YAML_STREAM_END_EVENT)
		yreader_die(r, "a second YAML document; keep one document in a file");
}

/* Die: the files of an include cycle, outermost first, ending at path. */
static void __attribute__((noreturn))
include_cycle(const struct load *parent, const char *path)
{
	char chain[2048] = "";
	const struct load *l;
	size_t len = 0;
	unsigned level;

	for (level = 0; level <= parent->level; level++) {
		for (l = parent; l->level != level; l = l->parent)
			;
		len += (size_t)snprintf(chain + len, sizeof(chain) - len,
					"%s -> ", l->file);
		if (len >= sizeof(chain))
			break;
	}
	if (len < sizeof(chain))
		snprintf(chain + len, sizeof(chain) - len, "%s", path);
	yreader_die(&parent->r, "include cycle: %s; remove one of these includes",
		    chain);
}

/*
 * Load the file at path.  parent is the file that includes it (errors
 * point at the include), or NULL: then role and hint word the error when
 * it cannot be read ("the filter", "check the path given to -F").
 */
static void load_file(struct config *cfg, const char *path,
		      const struct load *parent, enum load_kind kind,
		      const char *role, const char *hint)
{
	struct load ld = { .cfg = cfg, .parent = parent, .kind = kind };
	const struct load *p;
	struct stat st;

	if (stat(path, &st) < 0 || !yreader_open(&ld.r, path, path)) {
		if (parent)
			yreader_die(&parent->r, "cannot read '%s': %s; check the name",
				    path, strerror(errno));
		error_msg_and_die("cannot read %s '%s': %s; %s", role, path,
				  strerror(errno), hint);
	}
	ld.dev = st.st_dev;
	ld.ino = st.st_ino;
	for (p = parent; p; p = p->parent)
		if (p->dev == ld.dev && p->ino == ld.ino)
			include_cycle(parent, path);
	if (parent) {
		ld.level = parent->level + 1;
		if (ld.level > INCLUDE_DEPTH_MAX)
			yreader_die(&parent->r, "includes nest more than %d deep; include fewer levels",
				    INCLUDE_DEPTH_MAX);
	}
	ld.file = file_keep(cfg, path);
	ld.r.file = ld.file;
	load_document(&ld);
	yreader_close(&ld.r);
}

void config_load_filter(struct config *cfg, const char *name)
{
	char *path;

	if (!is_name(name)) {
		load_file(cfg, name, NULL, LOAD_FILTER, "the filter",
			  "check the path given to -F");
		return;
	}
	path = filter_find(name);
	if (!path)
		no_filter(NULL, name);
	load_file(cfg, path, NULL, LOAD_FILTER, "the filter",
		  "check its permissions");
	free(path);
}

void config_parse_shipped(struct config *cfg, const char *dir)
{
	char *protos = path_join(dir, "prototypes");
	const char *last[] = { "types.yaml", "annotations.yaml" };
	char **names, *path;
	size_t i, n;

	/*
	 * Missing data would trace every argument as a bare register without
	 * a word: each file is required, and an error names it.
	 */
	if (access(protos, R_OK | X_OK) < 0)
		error_msg_and_die("cannot read the shipped prototypes '%s': %s; reinstall ltruss, or run it from its build tree",
				  protos, strerror(errno));
	names = yaml_files(protos, &n);
	for (i = 0; i < n; i++) {
		path = path_join(protos, names[i]);
		load_file(cfg, path, NULL, LOAD_PROTOTYPES,
			  "the shipped prototypes", "reinstall ltruss");
		free(path);
	}
	yaml_files_free(names, n);
	free(protos);
	/* Then the named types, then the hand-written annotations, which win. */
	for (i = 0; i < 2; i++) {
		path = path_join(dir, last[i]);
		load_file(cfg, path, NULL, LOAD_PROTOTYPES,
			  "the shipped prototypes", "reinstall ltruss");
		free(path);
	}
}

void config_load_prototypes(struct config *cfg)
{
	char why[512];

	/* No tree with an interposer has these files either: say where we looked. */
	paths_require();
	cfg->shipped = shipped_open(paths_compiled(), paths_shipped_dir(), why,
				    sizeof(why));
	if (cfg->shipped)
		return;
	/* Parsed first: a source that is missing is the error to show. */
	config_parse_shipped(cfg, paths_shipped_dir());
	warning_msg("cannot use the compiled prototypes '%s' (%s): read their sources instead, which is slower; run make (or make install)",
		    paths_compiled(), why);
}

void config_parse_default(struct config *cfg, const char *path,
			  const char *role, const char *hint)
{
	load_file(cfg, path, NULL, LOAD_DEFAULT, role, hint);
}
