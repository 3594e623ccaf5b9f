/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c: the functions a selection resolves to for a command (--list).
 *
 * The command is not run.  Its loader, in trace mode, names the objects it
 * would load and their lookup order (deps.c); libelf reads each object's
 * dynamic symbols (dynsym.c).  The selection is then applied by the
 * engine the interposer applies it with at run time (common/select.c): a
 * library glob matches an object's short name ("libc"), soname, file name
 * or path, "a.out" the program; the last rule that matches a function
 * decides; a rule without "inner" does not select a library's calls to
 * itself.
 *
 * Without --from globs every object may call, so every exported function
 * of a matching library is listed.  With them (the default selection has
 * "from: a.out"), only what the from-objects really bind is listed: each
 * symbol they bind through a GOT slot (JUMP_SLOT, GLOB_DAT) is looked up
 * as the loader would, in load order, first definition of a matching
 * version wins, so `ltruss --list ls` shows what ls calls.  Functions
 * opened later with dlopen are not known without running the command.
 */
#include "config.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "common/select.h"
#include "deps.h"
#include "dynsym.h"
#include "error.h"
#include "format.h"
#include "list.h"
#include "patch-plan.h"
#include "target.h"
#include "json-string.h"
#include "xmalloc.h"

/* One object the command loads, with its names and symbols. */
struct object {
	const char *path;    /* the file, as the loader names it */
	char *short_name;    /* "libc", or "a.out" for the program */
	bool main;           /* the program itself */
	struct sel_names names; /* the above, as the engine matches them */
	bool *picked;        /* per symbol: selected */
	struct dynsym_file f;
};

/* One listed function. */
struct entry {
	size_t obj;
	const struct object *o;
	const struct dynsym *sym;
	bool proto;
};

/* Set o's short name (the engine's rule) and the names its globs match. */
static void name_object(struct object *o)
{
	size_t len;
	const char *name = sel_short_name(o->f.soname, o->path, o->main, &len);

	o->short_name = xstrndup(name, len);
	o->names = (struct sel_names){ .short_name = o->short_name,
				       .soname = o->f.soname,
				       .path = o->path, .main = o->main };
}

/* Is a call from caller (NULL: another object) to callee's name selected? */
static bool call_selected(const struct selection *sel,
			  const struct object *caller,
			  const struct object *callee, const char *name)
{
	return sel_selected(sel->rules, sel->nrules, name,
			    caller == callee ? SEL_SELF : 0, &callee->names);
}

/* How a definition fits a reference. */
enum fit { FIT_NO, FIT_IF_ONLY, FIT_YES };

/*
 * Does definition d of x satisfy a reference to version ver (NULL: none)?
 * The loader's rules: a versioned reference takes that version, or a
 * definition that has none; an unversioned one takes the base or oldest
 * version (index below 3), else the default version if it is the only one.
 */
static enum fit version_fits(const struct object *x, const struct dynsym *d,
			     const char *ver)
{
	if (!x->f.versioned)
		return FIT_YES;
	if (ver && d->version && strcmp(d->version, ver) == 0)
		return FIT_YES;
	if (ver) {
		bool unnamed = d->verndx == 0 ||
			       (d->verndx == 1 && !x->f.verdefs);

		return unnamed && !d->hidden ? FIT_YES : FIT_NO;
	}
	if (d->verndx < 3)
		return FIT_YES;
	return d->hidden ? FIT_NO : FIT_IF_ONLY;
}

/*
 * Find the definition a reference to name (version ver) binds to, as the
 * loader does: the first object in load order that defines it.  Returns
 * the object's index and sets *sym, or returns n when nothing defines it.
 */
static size_t lookup(const struct object *objs, size_t n, const char *name,
		     const char *ver, size_t *sym)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct dynsym_file *f = &objs[i].f;
		size_t only = 0, fits = 0;

		for (k = dynsym_find(f, name); k < f->ndefs; k++) {
			const struct dynsym *d = &f->syms[f->defs[k]];
			enum fit fit;

			if (strcmp(d->name, name) != 0)
				break;
			fit = version_fits(&objs[i], d, ver);
			if (fit == FIT_YES) {
				*sym = f->defs[k];
				return i;
			}
			if (fit == FIT_IF_ONLY && fits++ == 0)
				only = f->defs[k];
		}
		if (fits == 1) {
			*sym = only;
			return i;
		}
	}
	return n;
}

/* Is d a function (the only symbols the interposer redirects)? */
static bool is_function(const struct dynsym *d)
{
	return d->type == STT_FUNC || d->type == STT_GNU_IFUNC;
}

/* Mark the functions a from-object o binds that sel selects. */
static void pick_bound(const struct selection *sel, struct object *objs,
		       size_t n, const struct object *o)
{
	size_t j, to, sym;

	for (j = 0; j < o->f.nsyms; j++) {
		const struct dynsym *d = &o->f.syms[j];

		if (!d->bound || d->type == STT_TLS)
			continue;
		to = lookup(objs, n, d->name,
			    d->verndx >= 2 ? d->version : NULL, &sym);
		if (to < n && is_function(&objs[to].f.syms[sym]) &&
		    call_selected(sel, o, &objs[to], d->name))
			objs[to].picked[sym] = true;
	}
}

/* Mark the functions of objs that sel selects, per the block comment. */
static void pick(const struct selection *sel, struct object *objs, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct object *o = &objs[i];

		if (sel->nfrom) {
			if (sel_from_matches(sel->from, sel->nfrom, &o->names))
				pick_bound(sel, objs, n, o);
			continue;
		}
		for (j = 0; j < o->f.nsyms; j++) {
			const struct dynsym *d = &o->f.syms[j];

			if (d->defined && is_function(d) &&
			    call_selected(sel, NULL, o, d->name))
				o->picked[j] = true;
		}
	}
}

/* Order entries by load order, name, version, address. */
static int entry_order(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if ((c = strcmp(x->sym->name, y->sym->name)) != 0)
		return c;
	if (x->sym->version != y->sym->version) {
		if (!x->sym->version || !y->sym->version)
			return x->sym->version ? 1 : -1;
		if ((c = strcmp(x->sym->version, y->sym->version)) != 0)
			return c;
	}
	return (x->sym->value > y->sym->value) -
	       (x->sym->value < y->sym->value);
}

/* The VERSION column: "@@VER" (default), "@VER" (hidden) or "-". */
static void version_text(const struct dynsym *d, char *buf, size_t size)
{
	if (d->version)
		snprintf(buf, size, "%s%s", d->hidden ? "@" : "@@", d->version);
	else
		snprintf(buf, size, "-");
}

/* Print entries as aligned columns, then the count. */
static void print_text(FILE *out, const struct entry *e, size_t n)
{
	int wl = 3, ws = 6, wv = 7, wa = 7, len;
	size_t i, libs = 0;
	char ver[256], addr[32];

	for (i = 0; i < n; i++) {
		version_text(e[i].sym, ver, sizeof(ver));
		if ((len = (int)strlen(e[i].o->short_name)) > wl)
			wl = len;
		if ((len = (int)strlen(e[i].sym->name)) > ws)
			ws = len;
		if ((len = (int)strlen(ver)) > wv)
			wv = len;
		if ((len = snprintf(addr, sizeof(addr), "0x%llx",
				    (unsigned long long)e[i].sym->value)) > wa)
			wa = len;
		if (i == 0 || e[i].obj != e[i - 1].obj)
			libs++;
	}
	if (n)
		fprintf(out, "%-*s  %-*s  %-*s  %-*s  %s\n", wl, "LIB", ws,
			"SYMBOL", wv, "VERSION", wa, "ADDRESS", "PROTO");
	for (i = 0; i < n; i++) {
		version_text(e[i].sym, ver, sizeof(ver));
		snprintf(addr, sizeof(addr), "0x%llx",
			 (unsigned long long)e[i].sym->value);
		fprintf(out, "%-*s  %-*s  %-*s  %-*s  %s\n", wl,
			e[i].o->short_name, ws, e[i].sym->name, wv, ver, wa,
			addr, e[i].proto ? "yes" : "-");
	}
	fprintf(out, "%zu function%s in %zu librar%s\n", n, n == 1 ? "" : "s",
		libs, libs == 1 ? "y" : "ies");
}

/* Write s as a JSON string, or null. */
static void json_string_or_null(FILE *out, const char *s)
{
	if (s)
		json_write_string(out, s);
	else
		fputs("null", out);
}

/* Print entries as JSON Lines. */
static void print_json(FILE *out, const struct entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs("{\"lib\":", out);
		json_write_string(out, e[i].o->short_name);
		fputs(",\"soname\":", out);
		json_string_or_null(out, e[i].o->f.soname);
		fputs(",\"path\":", out);
		json_write_string(out, e[i].o->path);
		fputs(",\"symbol\":", out);
		json_write_string(out, e[i].sym->name);
		fputs(",\"version\":", out);
		json_string_or_null(out, e[i].sym->version);
		fprintf(out, ",\"hidden\":%s,\"address\":\"0x%llx\",\"prototype\":%s}\n",
			e[i].sym->hidden && e[i].sym->version ? "true" : "false",
			(unsigned long long)e[i].sym->value,
			e[i].proto ? "true" : "false");
	}
}

/* Where --list tells the fate of each function a '::' rule selects. */
struct patch_lines {
	FILE *out;
	bool json;
	bool header;
};

/* One function a '::' rule selects: patched, or refused and why. */
static void print_patch(void *ctx, const char *lib, const char *name,
			const char *why, unsigned len)
{
	struct patch_lines *pl = ctx;

	if (pl->json) {
		fputs("{\"lib\":", pl->out);
		json_write_string(pl->out, lib);
		fputs(",\"symbol\":", pl->out);
		json_write_string(pl->out, name);
		fprintf(pl->out, ",\"entry_patch\":\"%s\",\"why\":",
			why ? "refused" : "patched");
		json_string_or_null(pl->out, why);
		fputs("}\n", pl->out);
		return;
	}
	if (!pl->header)
		fputs("entry patching (the calls '::' selects inside an object):\n",
		      pl->out);
	pl->header = true;
	if (why)
		fprintf(pl->out, "%s::%s  refused: %s\n", lib, name, why);
	else
		fprintf(pl->out, "%s::%s  patched (%u bytes moved)\n", lib, name,
			len);
}

/* Warn about each library glob of sel that matches no object. */
static void warn_unmatched(const struct selection *sel,
			   const struct object *objs, size_t n,
			   const char *command)
{
	size_t i, j, k;

	for (i = 0; i < sel->nrules; i++) {
		const struct ltr_rule *r = &sel->rules[i];
		bool seen = false;

		if (r->flags & LTR_RULE_EXCLUDE)
			continue;
		for (k = 0; k < i && !seen; k++)
			seen = !(sel->rules[k].flags & LTR_RULE_EXCLUDE) &&
			       strcmp(sel->rules[k].lib, r->lib) == 0;
		for (j = 0; j < n && !seen; j++)
			seen = sel_lib_matches(r->lib, &objs[j].names);
		if (!seen)
			warning_msg("no library that '%s' loads at start matches '%s'",
				    command, r->lib);
	}
}

/* Read the objects the program loads: the program first, then its libraries. */
static size_t load_objects(const struct target *t, struct object **objsp,
			   struct dep **depsp, size_t *ndeps)
{
	struct object *objs;
	size_t n = 0, i;

	*ndeps = deps_list(t->loader, t->elf, depsp);
	objs = xcalloc(*ndeps + 1, sizeof(*objs));
	for (i = 0; i <= *ndeps; i++) {
		struct object *o = &objs[n];
		const char *err;

		o->main = i == 0;
		o->path = o->main ? t->elf : (*depsp)[i - 1].path;
		if (!o->path) {
			warning_msg("'%s' needs %s, which the loader does not find: the program would not start",
				    t->elf, (*depsp)[i - 1].name);
			continue;
		}
		if ((err = dynsym_read(o->path, &o->f)) != NULL) {
			warning_msg("cannot read the symbols of '%s': %s; its functions are not listed",
				    o->path, err);
			dynsym_free(&o->f);
		}
		o->picked = xcalloc(o->f.nsyms + 1, sizeof(*o->picked));
		name_object(o);
		n++;
	}
	*objsp = objs;
	return n;
}

int list_functions(FILE *out, const char *command, const struct selection *sel,
		   bool json, list_has_proto_fn *has_proto, void *ctx)
{
	struct object *objs;
	struct entry *e = NULL;
	struct dep *deps;
	struct target t;
	size_t n, ndeps, i, j, ne = 0, cap = 0;

	target_locate(command, &t);
	n = load_objects(&t, &objs, &deps, &ndeps);
	warn_unmatched(sel, objs, n, command);
	pick(sel, objs, n);
	for (i = 0; i < n; i++) {
		for (j = 0; j < objs[i].f.nsyms; j++) {
			const struct dynsym *d = &objs[i].f.syms[j];

			if (!objs[i].picked[j])
				continue;
			if (ne == cap) {
				cap = cap ? cap * 2 : 256;
				e = xrealloc(e, cap * sizeof(*e));
			}
			e[ne].obj = i;
			e[ne].o = &objs[i];
			e[ne].sym = d;
			e[ne].proto = has_proto && has_proto(d->name, ctx);
			ne++;
		}
	}
	if (ne) /* e is NULL when nothing matched */
		qsort(e, ne, sizeof(*e), entry_order);
	if (json)
		print_json(out, e, ne);
	else
		print_text(out, e, ne);
	free(e);
	{
		struct patch_lines pl = { out, json, false };
		struct patch_report rep = { print_patch, &pl };

		patch_plan(NULL, command, sel, &rep);
	}
	for (i = 0; i < n; i++) {
		dynsym_free(&objs[i].f);
		free(objs[i].picked);
		free(objs[i].short_name);
	}
	free(objs);
	deps_free(deps, ndeps);
	free(t.path);
	free(t.elf);
	free(t.loader);
	return 0;
}
