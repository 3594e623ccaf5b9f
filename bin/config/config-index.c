/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config-index.c: a loaded config's prototypes and types by name: the
 * check that every type a prototype names exists, the lookups, and
 * making and freeing it all.
 *
 * Thousands of prototypes are loaded on every run and looked up once per
 * traced function, so config_check() builds an open-addressing hash of
 * each; a name's slot holds its last definition (later wins).  Before the
 * index exists, or after more was loaded, the lookups scan backwards.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "error.h"
#include "shipped.h"
#include "xmalloc.h"

/* One hash table: slots hold an element index + 1, 0 = empty. */
struct name_hash {
	uint32_t *slots;
	size_t mask;   /* slots - 1, a power of two minus one */
	size_t count;  /* elements indexed */
};

struct config_index {
	struct name_hash protos, types;
};

/* What the lookups use before config_check() built the index. */
static const struct name_hash no_hash;

/* The name of element i of an array of structs with a char * name. */
static const char *name_at(const void *base, size_t stride, size_t off,
			   size_t i)
{
	return *(char *const *)((const char *)base + i * stride + off);
}

/* Index n elements by name; a later one of a name takes the slot. */
static void hash_build(struct name_hash *h, const void *base, size_t n,
		       size_t stride, size_t off)
{
	size_t size = 16, i, j;

	while (size < 2 * n)
		size *= 2;
	free(h->slots);
	h->slots = xcalloc(size, sizeof(*h->slots));
	h->mask = size - 1;
	h->count = n;
	for (i = 0; i < n; i++) {
		const char *name = name_at(base, stride, off, i);

		for (j = ltr_name_hash(name) & h->mask; h->slots[j];
		     j = (j + 1) & h->mask)
			if (strcmp(name_at(base, stride, off,
					   h->slots[j] - 1), name) == 0)
				break;
		h->slots[j] = (uint32_t)(i + 1);
	}
}

/* The index of the last element called name, or -1. */
static long hash_find(const struct name_hash *h, const void *base, size_t n,
		      size_t stride, size_t off, const char *name)
{
	size_t j;

	if (h->slots && h->count == n) {
		for (j = ltr_name_hash(name) & h->mask; h->slots[j];
		     j = (j + 1) & h->mask)
			if (strcmp(name_at(base, stride, off, h->slots[j] - 1),
				   name) == 0)
				return (long)h->slots[j] - 1;
		return -1;
	}
	for (j = n; j > 0; j--)
		if (strcmp(name_at(base, stride, off, j - 1), name) == 0)
			return (long)j - 1;
	return -1;
}

const struct proto *config_find_proto(const struct config *cfg,
				      const char *name)
{
	long i = hash_find(cfg->index ? &cfg->index->protos : &no_hash,
			   cfg->protos, cfg->nprotos, sizeof(*cfg->protos),
			   offsetof(struct proto, name), name);

	if (i >= 0)
		return &cfg->protos[i];
	return cfg->shipped ? shipped_find_proto(cfg->shipped, name) : NULL;
}

const struct named_type *config_find_type(const struct config *cfg,
					  const char *name)
{
	long i = hash_find(cfg->index ? &cfg->index->types : &no_hash,
			   cfg->types, cfg->ntypes, sizeof(*cfg->types),
			   offsetof(struct named_type, name), name);

	if (i >= 0)
		return &cfg->types[i];
	return cfg->shipped ? shipped_find_type(cfg->shipped, name) : NULL;
}

/* The value of the name (an enum or a flag) of type t, or false. */
bool config_type_value(const struct named_type *t, const char *name,
		       size_t len, uint64_t *value)
{
	size_t i;

	for (i = 0; i < t->nenums + t->nflags; i++) {
		const struct type_value *v = i < t->nenums
						     ? &t->enums[i]
						     : &t->flags[i - t->nenums];

		if (strlen(v->name) == len && memcmp(v->name, name, len) == 0) {
			*value = v->value;
			return true;
		}
	}
	return false;
}

/* Is t a named type or a pointer to one? */
static bool type_is_named(const struct ptype *t)
{
	return (t->kind == CT_NAMED ||
		(t->kind == CT_POINTER && t->target == CT_NAMED)) && t->named;
}

/*
 * The next name of an [if:argN:A|B] list at *s (its length in *len), or
 * NULL at the end; *s moves past it.
 */
static const char *if_next(const char **s, size_t *len)
{
	const char *name = *s, *bar;

	if (!*name)
		return NULL;
	bar = strchr(name, '|');
	*len = bar ? (size_t)(bar - name) : strlen(name);
	*s = bar ? bar + 1 : name + *len;
	return name;
}

/* a's [if:] names' values in t, zero-extended as compared, into a->if_values. */
static void if_resolve(const struct named_type *t, struct parg *a)
{
	const char *s = a->if_names, *name;
	size_t n = 1, len;
	uint64_t v;

	for (name = s; *name; name++)
		n += *name == '|';
	free(a->if_values);
	a->if_values = xcalloc(n, sizeof(*a->if_values));
	a->if_nvalues = 0;
	while ((name = if_next(&s, &len)) != NULL) {
		if (!config_type_value(t, name, len, &v))
			continue;
		if (t->size < 8)
			v &= (1ull << (8 * t->size)) - 1;
		a->if_values[a->if_nvalues++] = v;
	}
}

/* config_find_type() as proto_resolve() asks it: ctx is the config. */
static const struct named_type *config_type_lookup(const char *name,
						   const void *ctx)
{
	return config_find_type(ctx, name);
}

void config_resolve(const struct config *cfg, struct proto *p)
{
	proto_resolve(p, config_type_lookup, cfg);
}

/* config_resolve() as the shipped table calls it back (shipped_resolve()). */
static void shipped_proto_resolve(struct proto *p, const void *cfg)
{
	config_resolve(cfg, p);
}

void proto_resolve(struct proto *p,
		   const struct named_type *(*find)(const char *name,
						    const void *ctx),
		   const void *ctx)
{
	size_t i;

	p->ret.def = type_is_named(&p->ret) ? find(p->ret.named, ctx) : NULL;
	for (i = 0; i < p->nargs; i++) {
		struct ptype *t = &p->args[i].type;

		t->def = type_is_named(t) ? find(t->named, ctx) : NULL;
	}
	for (i = 0; i < p->nargs; i++) {
		struct parg *a = &p->args[i];

		if (a->if_arg && p->args[a->if_arg - 1].type.def)
			if_resolve(p->args[a->if_arg - 1].type.def, a);
	}
}

/* Die unless the named type t (of prototype p, at column col) was found. */
static void check_type(const struct proto *p, const struct ptype *t,
		       unsigned col)
{
	if (!type_is_named(t) || t->def)
		return;
	error_at_and_die(p->file ? p->file : "?", p->line,
			 p->col + (col ? col - 1 : 0),
			 "type '%s' in the prototype of %s is not declared; declare it under 'types:', or use a C type",
			 t->named, p->name);
}

/* Die unless each name of argument a's [if:argN:NAMES] is a value of N's type. */
static void check_if(const struct proto *p, const struct parg *a)
{
	const struct named_type *t;
	const char *s, *name;
	size_t len;
	uint64_t v;

	if (!a->if_arg || !(t = p->args[a->if_arg - 1].type.def))
		return;
	s = a->if_names;
	while ((name = if_next(&s, &len)) != NULL)
		if (!config_type_value(t, name, len, &v))
			error_at_and_die(p->file ? p->file : "?", p->line,
					 p->col + (a->col ? a->col - 1 : 0),
					 "'%.*s' in [if:arg%u:...] of %s is not a value of type '%s'; name one of its values",
					 (int)len, name, a->if_arg, p->name,
					 t->name);
}

void config_check(struct config *cfg)
{
	size_t i, a;

	if (!cfg->index) {
		cfg->index = xcalloc(1, sizeof(*cfg->index));
	}
	hash_build(&cfg->index->protos, cfg->protos, cfg->nprotos,
		   sizeof(*cfg->protos), offsetof(struct proto, name));
	hash_build(&cfg->index->types, cfg->types, cfg->ntypes,
		   sizeof(*cfg->types), offsetof(struct named_type, name));
	for (i = 0; i < cfg->nprotos; i++) {
		struct proto *p = &cfg->protos[i];

		config_resolve(cfg, p);
		check_type(p, &p->ret, p->ret_col);
		for (a = 0; a < p->nargs; a++) {
			check_type(p, &p->args[a].type, p->args[a].col);
			check_if(p, &p->args[a]);
		}
	}
	if (cfg->shipped)
		shipped_resolve(cfg->shipped, shipped_proto_resolve, cfg);
}

/* Free a type's names and values. */
static void type_free(struct named_type *t)
{
	size_t i;

	for (i = 0; i < t->nenums; i++)
		free(t->enums[i].name);
	for (i = 0; i < t->nflags; i++)
		free(t->flags[i].name);
	free(t->enums);
	free(t->flags);
	free(t->name);
}

void config_init(struct config *cfg)
{
	size_t after = offsetof(struct config, sel) + sizeof(cfg->sel);

	/*
	 * The selection's arrays (60 KiB) are filled one entry at a time
	 * (selection.c): its counts are all there is to clear.  Clearing
	 * it whole wrote 15 pages at every start, and again at exit.
	 */
	memset(cfg, 0, offsetof(struct config, sel));
	memset((char *)cfg + after, 0, sizeof(*cfg) - after);
	cfg->sel.nrules = 0;
	cfg->sel.nfrom = 0;
	cfg->strsize = CONFIG_STRSIZE_DEFAULT;
}

void config_free(struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nprotos; i++) {
		free(cfg->protos[i].decl);
		proto_free(&cfg->protos[i]);
	}
	shipped_close(cfg->shipped);
	for (i = 0; i < cfg->ntypes; i++)
		type_free(&cfg->types[i]);
	for (i = 0; i < cfg->nfiles; i++)
		free(cfg->files[i]);
	free(cfg->protos);
	free(cfg->types);
	free(cfg->files);
	if (cfg->index) {
		free(cfg->index->protos.slots);
		free(cfg->index->types.slots);
		free(cfg->index);
	}
	config_init(cfg);
}
