/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shipped.c: the shipped prototypes and types, mapped from the table
 * compiled at build time instead of parsed at every start.
 *
 * Parsing the ~3 300 shipped declarations and their YAML took most of
 * ltruss's start-up.  The table (bin/config/shipped-format.h) holds what the
 * interposer reads (the captures, their index and names), which each
 * traced process maps from it (lib/shipped.c: ltruss keeps it open and
 * names it in the session, nothing is copied), and, for what only the
 * output needs,
 * each winning declaration's text and each named type's values: a
 * prototype is parsed by ltruss's own parser when a traced function that
 * has it is printed, a type decoded when a value of it is.
 *
 * Never silently wrong: the table records each source's size, mtime and
 * a hash of its content; a source that changed (a hash that differs when
 * the mtime does), one added to or taken from prototypes/, a table of
 * another version or a damaged one are refused, and the caller parses
 * the sources as before and says why.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "captures.h"
#include "conf.h"
#include "error.h"
#include "shipped-format.h"
#include "shipped.h"
#include "yaml-files.h"
#include "xmalloc.h"

/* Values by index, in the order they were put: their positions by index hash. */
struct cache {
	struct cached {
		uint32_t index;
		void *value;
	} *items;
	uint32_t n, cap;
	uint32_t *slots; /* position in items + 1; 0: empty */
	uint32_t nslots; /* a power of two, over twice n; 0 before the first */
};

struct shipped {
	const unsigned char *map;
	size_t size;
	int fd;                      /* kept open: traced processes map it (lib/shipped.c) */
	uint64_t ino, dev;
	const struct shipped_header *h;
	const struct shipped_source *sources;
	const struct shipped_proto *protos;
	const struct shipped_type *types;
	const struct shipped_value *values;
	const struct ltr_capture *captures;
	const uint32_t *capture_protos;
	const uint32_t *index;
	const char *sstrings;
	const char *strings;
	char **files;                /* each source's full path */
	/*
	 * Prototypes parsed and types decoded on first use, kept in the order
	 * they came, found by their index: a run uses a few dozen of 2 500.
	 * Arrays of all of them, cleared at the start, walked and freed at
	 * exit, cost 85 000 instructions and 5 to 7 page faults a run.
	 */
	struct cache proto_cache; /* of struct proto */
	struct cache type_cache;  /* of struct named_type */
	bool damaged;                /* a declaration did not parse: said once */
	/* Resolves a prototype's types (shipped_resolve): the config's. */
	void (*resolve)(struct proto *p, const void *ctx);
	const void *resolve_ctx;
};

/* The slot of index in c's slots: its own, or the empty one where it would go. */
static uint32_t *cache_slot(const struct cache *c, uint32_t index)
{
	uint32_t h = index * 2654435761u;

	for (;; h++) {
		uint32_t *slot = &c->slots[h & (c->nslots - 1)];

		if (!*slot || c->items[*slot - 1].index == index)
			return slot;
	}
}

/* The value put at index, or NULL. */
static void *cache_get(const struct cache *c, uint32_t index)
{
	uint32_t *slot = c->nslots ? cache_slot(c, index) : NULL;

	return slot && *slot ? c->items[*slot - 1].value : NULL;
}

/* Put value at index (not there yet). */
static void cache_put(struct cache *c, uint32_t index, void *value)
{
	uint32_t i;

	if (2 * (c->n + 1) > c->nslots) {
		free(c->slots);
		c->nslots = c->nslots ? 2 * c->nslots : 64;
		c->slots = xcalloc(c->nslots, sizeof(*c->slots));
		for (i = 0; i < c->n; i++)
			*cache_slot(c, c->items[i].index) = i + 1;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->items = xrealloc(c->items, c->cap * sizeof(*c->items));
	}
	c->items[c->n] = (struct cached){ index, value };
	*cache_slot(c, index) = ++c->n;
}

/* Forget c's entries (their values are the caller's to free first). */
static void cache_free(struct cache *c)
{
	free(c->items);
	free(c->slots);
	*c = (struct cache){ 0 };
}

uint64_t shipped_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 1099511628211ull;
	}
	while (n--)
		h = (h ^ *p++) * 1099511628211ull;
	return h ^ (h >> 29);
}

/* Record why the table cannot be used; returns false. */
static bool __attribute__((format(printf, 3, 4)))
refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return false;
}

/* Does section [off, off + n * elem) lie inside the file? */
static bool inside(const struct shipped *sh, uint32_t off, uint64_t n,
		   size_t elem)
{
	return off % 8 == 0 && off <= sh->size &&
	       n * elem <= sh->size - off;
}

/* A string of the table's own pool ("" when out of range). */
static const char *str(const struct shipped *sh, uint32_t off)
{
	return off < sh->h->nstrings ? sh->strings + off : "";
}

/* Four buckets of the index (GCC and Clang vectors: SSE2 on x86-64). */
typedef uint32_t u32x4 __attribute__((vector_size(16)));

/* Point sh's sections into the map and check they are sound. */
static bool layout_check(struct shipped *sh, char *why, size_t size)
{
	const struct shipped_header *h = sh->h;
	uint32_t i, used, bad;
	u32x4 empty4 = { 0 }, bad4 = { 0 }, v, top;

	if (sh->size < sizeof(*h) || memcmp(h->magic, SHIPPED_MAGIC, 8) != 0)
		return refuse(why, size, "not a table of prototypes");
	if (h->version != SHIPPED_VERSION ||
	    h->session_version != LTR_SESSION_VERSION ||
	    h->capture_size != sizeof(struct ltr_capture) ||
	    h->hash_size != LTR_CAPTURE_HASH)
		return refuse(why, size, "made by another version of ltruss");
	if (h->size != sh->size || !inside(sh, h->sources, h->nsources, sizeof(*sh->sources)) ||
	    !inside(sh, h->protos, h->nprotos, sizeof(*sh->protos)) ||
	    !inside(sh, h->types, h->ntypes, sizeof(*sh->types)) ||
	    !inside(sh, h->values, h->nvalues, sizeof(*sh->values)) ||
	    !inside(sh, h->captures, h->ncaptures, sizeof(*sh->captures)) ||
	    !inside(sh, h->capture_protos, h->ncaptures, 4) ||
	    !inside(sh, h->index, LTR_CAPTURE_HASH, 4) ||
	    !inside(sh, h->sstrings, h->nsstrings, 1) ||
	    !inside(sh, h->strings, h->nstrings, 1) ||
	    h->ncaptures > LTR_MAX_CAPTURES || h->nsstrings > LTR_STRINGS_SIZE ||
	    h->nstrings == 0 || sh->map[h->strings + h->nstrings - 1] != '\0' ||
	    (h->nsstrings && sh->map[h->sstrings + h->nsstrings - 1] != '\0'))
		return refuse(why, size, "damaged (a section is out of bounds)");
	sh->sources = (const void *)(sh->map + h->sources);
	sh->protos = (const void *)(sh->map + h->protos);
	sh->types = (const void *)(sh->map + h->types);
	sh->values = (const void *)(sh->map + h->values);
	sh->captures = (const void *)(sh->map + h->captures);
	sh->capture_protos = (const void *)(sh->map + h->capture_protos);
	sh->index = (const void *)(sh->map + h->index);
	sh->sstrings = (const char *)sh->map + h->sstrings;
	sh->strings = (const char *)sh->map + h->strings;
	/*
	 * Each capture once: the index keeps empty slots, probes end.  The
	 * captures (230 KiB) and the prototypes are bounds-checked as they
	 * are read (lookup, proto_of, proto_at), not all here: a start reads
	 * a few.  The interposer checks what it reads itself (lib/shipped.c).
	 */
	/*
	 * Four buckets a step, the empty ones and those out of bounds
	 * counted in each lane (a true comparison is all ones: -1), four
	 * steps a loop: a bucket at a time, with an early return, it took
	 * 260 000 instructions, a quarter of ltruss's own at a start, before
	 * the command starts; a step a loop, counting the used ones (!= 0 is
	 * == 0 inverted), 90 000.
	 */
	top = (u32x4){ 0, 0, 0, 0 } + h->ncaptures;
#pragma GCC unroll 4
	for (i = 0; i < LTR_CAPTURE_HASH; i += 4) {
		memcpy(&v, sh->index + i, sizeof(v));
		bad4 -= (u32x4)(v > top);
		empty4 -= (u32x4)(v == 0);
	}
	for (i = 0, used = LTR_CAPTURE_HASH, bad = 0; i < 4; i++) {
		used -= empty4[i];
		bad += bad4[i];
	}
	if (bad)
		return refuse(why, size, "damaged (its index is out of bounds)");
	if (used != h->ncaptures)
		return refuse(why, size, "damaged (its index does not match)");
	for (i = 0; i < h->ntypes; i++)
		if (sh->types[i].source >= h->nsources ||
		    (uint64_t)sh->types[i].enums + sh->types[i].nenums > h->nvalues ||
		    (uint64_t)sh->types[i].flags + sh->types[i].nflags > h->nvalues)
			return refuse(why, size, "damaged (a type is out of bounds)");
	return true;
}

/* Is source file path as it was when the table was made? */
static bool source_fresh(const struct shipped_source *src, const char *path)
{
	struct stat st;
	unsigned char *buf;
	ssize_t n;
	bool same;
	int fd;

	if (stat(path, &st) < 0 || (uint64_t)st.st_size != src->size)
		return false;
	if ((int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec ==
	    src->mtime_ns)
		return true;
	/* Touched, or installed with a new mtime: compare the content. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	buf = xmalloc(src->size + 1);
	n = read(fd, buf, src->size + 1);
	close(fd);
	same = n == (ssize_t)src->size && shipped_hash(buf, src->size) == src->hash;
	free(buf);
	return same;
}

/*
 * How many prototypes/\*.yaml files dir holds, by the rule the sources
 * are loaded by (yaml_files); -1 if it cannot be read.
 */
static long count_prototype_files(const char *dir)
{
	char path[4096];
	size_t n;
	char **names;

	snprintf(path, sizeof(path), "%s/prototypes", dir);
	names = yaml_files(path, &n);
	if (!names && access(path, R_OK | X_OK) != 0)
		return -1;
	yaml_files_free(names, n);
	return (long)n;
}

/* Check every source against dir, and keep their full paths. */
static bool sources_check(struct shipped *sh, const char *dir, char *why,
			  size_t size)
{
	uint32_t i, n = sh->h->nsources;
	long protos = 0;

	sh->files = xcalloc(n, sizeof(*sh->files));
	for (i = 0; i < n; i++) {
		const char *name = str(sh, sh->sources[i].name);

		sh->files[i] = xasprintf("%s/%s", dir, name);
		if (!source_fresh(&sh->sources[i], sh->files[i]))
			return refuse(why, size, "'%s' changed since it was made",
				      sh->files[i]);
		protos += strncmp(name, "prototypes/", 11) == 0;
	}
	if (count_prototype_files(dir) != protos)
		return refuse(why, size, "a file was added to or removed from '%s/prototypes'",
			      dir);
	return true;
}

struct shipped *shipped_open(const char *path, const char *dir, char *why,
			     size_t why_size)
{
	struct shipped *sh;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		refuse(why, why_size, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(struct shipped_header)) {
		close(fd);
		refuse(why, why_size, "not a table of prototypes");
		return NULL;
	}
	/* Not populated: a run reads a few of its ~160 pages. */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		refuse(why, why_size, "%s", strerror(errno));
		return NULL;
	}
	sh = xcalloc(1, sizeof(*sh));
	sh->map = map;
	sh->size = (size_t)st.st_size;
	sh->h = map;
	/*
	 * Out of the program's way, by the session's (fd-util.c): the
	 * command inherits it (launch.c) until the interposer maps it.
	 */
	sh->fd = fcntl(fd, F_DUPFD_CLOEXEC, 700);
	if (sh->fd >= 0)
		close(fd);
	else
		sh->fd = fd;
	sh->ino = (uint64_t)st.st_ino;
	sh->dev = (uint64_t)st.st_dev;
	if (!layout_check(sh, why, why_size) ||
	    !sources_check(sh, dir, why, why_size)) {
		shipped_close(sh);
		return NULL;
	}
	return sh;
}

void shipped_close(struct shipped *sh)
{
	uint32_t i;

	if (!sh)
		return;
	for (i = 0; i < sh->proto_cache.n; i++) {
		struct proto *p = sh->proto_cache.items[i].value;

		proto_free(p);
		free(p);
	}
	for (i = 0; i < sh->type_cache.n; i++) {
		struct named_type *t = sh->type_cache.items[i].value;

		free(t->enums);
		free(t->flags);
		free(t);
	}
	for (i = 0; sh->files && i < sh->h->nsources; i++)
		free(sh->files[i]);
	free(sh->files);
	cache_free(&sh->proto_cache);
	cache_free(&sh->type_cache);
	munmap((void *)sh->map, sh->size);
	close(sh->fd);
	free(sh);
}

/* Prototype i, parsed on first use (NULL if it does not parse). */
static const struct proto *proto_at(struct shipped *sh, uint32_t i)
{
	const struct shipped_proto *sp;
	unsigned errcol;
	const char *err;
	struct proto *p;

	if (i >= sh->h->nprotos)
		return NULL; /* proto_of said so */
	if ((p = cache_get(&sh->proto_cache, i)) != NULL)
		return p;
	sp = &sh->protos[i];
	if (sp->source >= sh->h->nsources) {
		if (!sh->damaged)
			warning_msg("the compiled prototypes are damaged (a prototype is out of bounds); run make");
		sh->damaged = true;
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	/* Parsed when the table was made: only a damaged table fails here. */
	if (!proto_parse(str(sh, sp->decl), p, &errcol, &err)) {
		if (!sh->damaged)
			warning_msg("the compiled prototypes are damaged: '%s' does not parse (%s); run make",
				    str(sh, sp->decl), err);
		sh->damaged = true;
		free(p);
		return NULL;
	}
	p->file = sh->files[sp->source];
	p->line = sp->line;
	p->col = sp->col;
	if (sh->resolve)
		sh->resolve(p, sh->resolve_ctx);
	cache_put(&sh->proto_cache, i, p);
	return p;
}

void shipped_resolve(struct shipped *sh,
		     void (*resolve)(struct proto *p, const void *ctx),
		     const void *ctx)
{
	uint32_t i;

	sh->resolve = resolve;
	sh->resolve_ctx = ctx;
	for (i = 0; i < sh->proto_cache.n; i++)
		resolve(sh->proto_cache.items[i].value, ctx);
}

/*
 * The capture of name in the table's index, or -1; the index and the
 * captures bounds-checked as they are read (layout_check leaves them).
 */
static long lookup(const struct shipped *sh, const char *name)
{
	uint32_t h = ltr_name_hash(name) & (LTR_CAPTURE_HASH - 1), n, idx;

	for (n = 0; n < LTR_CAPTURE_HASH && (idx = sh->index[h]) != 0;
	     n++, h = (h + 1) & (LTR_CAPTURE_HASH - 1)) {
		uint32_t off;

		if (idx > sh->h->ncaptures)
			return -1;
		off = sh->captures[idx - 1].name;
		if (off < sh->h->nsstrings && strcmp(sh->sstrings + off, name) == 0)
			return (long)idx - 1;
	}
	return -1;
}

/* The prototype (index in protos[]) capture i was compiled from; nprotos if out of bounds. */
static uint32_t proto_of(const struct shipped *sh, uint32_t i)
{
	uint32_t p = i < sh->h->ncaptures ? sh->capture_protos[i] & ~SHIPPED_ALIAS
					  : sh->h->nprotos;

	return p < sh->h->nprotos ? p : sh->h->nprotos;
}

const struct proto *shipped_find_proto(struct shipped *sh, const char *name)
{
	long i = lookup(sh, name);

	if (i < 0 || shipped_capture_alias(sh, (uint32_t)i))
		return NULL;
	return proto_at(sh, proto_of(sh, (uint32_t)i));
}

/* Type i, decoded on first use. */
static const struct named_type *type_at(struct shipped *sh, uint32_t i)
{
	const struct shipped_type *st = &sh->types[i];
	struct named_type *t;
	uint32_t k;

	if ((t = cache_get(&sh->type_cache, i)) != NULL)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->name = (char *)str(sh, st->name);
	t->size = (uint8_t)st->size;
	t->mask = st->mask;
	t->nenums = st->nenums;
	t->nflags = st->nflags;
	t->enums = xcalloc(st->nenums + 1, sizeof(*t->enums));
	t->flags = xcalloc(st->nflags + 1, sizeof(*t->flags));
	for (k = 0; k < st->nenums; k++) {
		t->enums[k].name = (char *)str(sh, sh->values[st->enums + k].name);
		t->enums[k].value = sh->values[st->enums + k].value;
	}
	for (k = 0; k < st->nflags; k++) {
		t->flags[k].name = (char *)str(sh, sh->values[st->flags + k].name);
		t->flags[k].value = sh->values[st->flags + k].value;
	}
	t->file = sh->files[st->source];
	t->line = st->line;
	t->col = st->col;
	cache_put(&sh->type_cache, i, t);
	return t;
}

const struct named_type *shipped_find_type(struct shipped *sh,
					   const char *name)
{
	uint32_t lo = 0, hi = sh->h->ntypes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, str(sh, sh->types[mid].name));

		if (c == 0)
			return type_at(sh, mid);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

uint32_t shipped_to_session(const struct shipped *sh, struct ltr_session *s)
{
	const struct shipped_header *h = sh->h;

	s->shipped.fd = sh->fd;
	s->shipped.ncaptures = h->ncaptures;
	s->shipped.ino = sh->ino;
	s->shipped.dev = sh->dev;
	s->shipped.size = sh->size;
	s->shipped.captures = h->captures;
	s->shipped.index = h->index;
	s->shipped.strings = h->sstrings;
	s->shipped.nstrings = h->nsstrings;
	return h->ncaptures;
}

long shipped_find_capture(const struct shipped *sh, const char *name)
{
	return lookup(sh, name);
}

bool shipped_capture_alias(const struct shipped *sh, uint32_t i)
{
	return i < sh->h->ncaptures && (sh->capture_protos[i] & SHIPPED_ALIAS);
}

const char *shipped_capture_decl(const struct shipped *sh, uint32_t i)
{
	uint32_t p = proto_of(sh, i);

	return p < sh->h->nprotos ? str(sh, sh->protos[p].decl) : NULL;
}

const struct proto *shipped_capture_proto(struct shipped *sh, uint32_t i)
{
	return proto_at(sh, proto_of(sh, i));
}

int shipped_fd(const struct shipped *sh)
{
	return sh ? sh->fd : -1;
}
