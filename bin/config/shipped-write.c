/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shipped-write.c: write the compiled table of the shipped prototypes
 * (bin/config/shipped-format.h), at build time, from what ltruss's own loader
 * and parser made of the sources (maint/compile-prototypes.c): the
 * session's captures as captures_compile() built them, the declaration
 * of each prototype that won its name, the named types that won theirs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "shipped-format.h"
#include "shipped.h"
#include "xmalloc.h"

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

/* Append n bytes (zeros when data is NULL); returns their offset. */
static uint32_t buf_put(struct buf *b, const void *data, size_t n)
{
	size_t off = b->len;

	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	if (data)
		memcpy(b->p + off, data, n);
	else
		memset(b->p + off, 0, n);
	b->len += n;
	if (b->len > UINT32_MAX)
		error_msg_and_die("the compiled prototypes would exceed 4 GiB");
	return (uint32_t)off;
}

/* Pad to 8 bytes and append n bytes; returns their offset. */
static uint32_t buf_section(struct buf *b, const void *data, size_t n)
{
	buf_put(b, NULL, (8 - b->len % 8) % 8);
	return buf_put(b, data, n);
}

/* Add name to the string pool; returns its offset. */
static uint32_t pool_add(struct buf *pool, const char *name)
{
	return buf_put(pool, name, strlen(name) + 1);
}

/* The index of cfg->files[] entry file (a source), or die. */
static uint32_t source_of(const struct config *cfg, const char *file)
{
	size_t i;

	for (i = 0; i < cfg->nfiles; i++)
		if (cfg->files[i] == file)
			return (uint32_t)i;
	error_msg_and_die("internal error: '%s' is not a loaded file", file);
}

/* Describe source file path (named name in dir) for the staleness check. */
static void source_fill(struct shipped_source *src, const char *path,
			uint32_t name)
{
	struct stat st;
	unsigned char *data;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		perror_msg_and_die("cannot read '%s'", path);
	data = xmalloc((size_t)st.st_size + 1);
	n = read(fd, data, (size_t)st.st_size + 1);
	close(fd);
	if (n != st.st_size)
		error_msg_and_die("cannot read '%s': it changed while it was read", path);
	memset(src, 0, sizeof(*src));
	src->name = name;
	src->size = (uint64_t)st.st_size;
	src->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			st.st_mtim.tv_nsec;
	src->hash = shipped_hash(data, (size_t)st.st_size);
	free(data);
}

/* Compare two named types by name, for qsort. */
static int type_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct named_type *const *)a)->name,
		      (*(const struct named_type *const *)b)->name);
}

/* Append the types that won their name, sorted, and their values. */
static void write_types(struct buf *b, struct buf *pool,
			struct shipped_header *h, const struct config *cfg)
{
	const struct named_type **won = xcalloc(cfg->ntypes + 1, sizeof(*won));
	struct shipped_type *st;
	struct buf values = { 0 };
	size_t i, n = 0, k;

	for (i = 0; i < cfg->ntypes; i++)
		if (config_find_type(cfg, cfg->types[i].name) == &cfg->types[i])
			won[n++] = &cfg->types[i];
	qsort(won, n, sizeof(*won), type_cmp);
	st = xcalloc(n + 1, sizeof(*st));
	for (i = 0; i < n; i++) {
		const struct named_type *t = won[i];
		const struct type_value *lists[] = { t->enums, t->flags };
		size_t counts[] = { t->nenums, t->nflags };
		uint32_t *firsts[] = { &st[i].enums, &st[i].flags };

		st[i].name = pool_add(pool, t->name);
		st[i].source = source_of(cfg, t->file);
		st[i].line = t->line;
		st[i].col = t->col;
		st[i].mask = t->mask;
		st[i].size = t->size;
		st[i].nenums = (uint32_t)t->nenums;
		st[i].nflags = (uint32_t)t->nflags;
		for (k = 0; k < 2; k++) {
			size_t v;

			*firsts[k] = (uint32_t)(values.len / sizeof(struct shipped_value));
			for (v = 0; v < counts[k]; v++) {
				struct shipped_value sv = {
					.name = pool_add(pool, lists[k][v].name),
					.value = lists[k][v].value,
				};

				buf_put(&values, &sv, sizeof(sv));
			}
		}
	}
	h->ntypes = (uint32_t)n;
	h->types = buf_section(b, st, n * sizeof(*st));
	h->nvalues = (uint32_t)(values.len / sizeof(struct shipped_value));
	h->values = buf_section(b, values.p, values.len);
	free(values.p);
	free(st);
	free(won);
}

/* Append the captures, and the declarations they were compiled from. */
static void write_captures(struct buf *b, struct buf *pool,
			   struct shipped_header *h, const struct config *cfg,
			   const struct ltr_session *s,
			   const struct proto *(*proto_of)(int32_t i))
{
	uint32_t *remap = xcalloc(cfg->nprotos + 1, sizeof(*remap));
	uint32_t *cprotos = xcalloc(s->ncaptures + 1, sizeof(*cprotos));
	struct shipped_proto *sp = xcalloc(cfg->nprotos + 1, sizeof(*sp));
	uint32_t i, n = 0;

	for (i = 0; i < s->ncaptures; i++) {
		const struct proto *p = proto_of((int32_t)i);
		size_t k = p ? (size_t)(p - cfg->protos) : cfg->nprotos;

		if (k >= cfg->nprotos || !p->decl)
			error_msg_and_die("internal error: capture %u has no declaration", i);
		if (!remap[k]) {
			sp[n].decl = pool_add(pool, p->decl);
			sp[n].source = source_of(cfg, p->file);
			sp[n].line = p->line;
			sp[n].col = p->col;
			remap[k] = ++n;
		}
		cprotos[i] = remap[k] - 1;
		if (strcmp(s->strings + s->captures[i].name, p->name) != 0)
			cprotos[i] |= SHIPPED_ALIAS;
	}
	h->nprotos = n;
	h->protos = buf_section(b, sp, n * sizeof(*sp));
	h->ncaptures = s->ncaptures;
	h->captures = buf_section(b, s->captures,
				  s->ncaptures * sizeof(*s->captures));
	h->capture_protos = buf_section(b, cprotos, s->ncaptures * 4);
	h->index = buf_section(b, s->capture_index, sizeof(s->capture_index));
	h->nsstrings = s->strings_used;
	h->sstrings = buf_section(b, s->strings, s->strings_used);
	free(sp);
	free(cprotos);
	free(remap);
}

void shipped_write(const char *path, const char *dir,
		   const struct config *cfg, const struct ltr_session *s,
		   const struct proto *(*proto_of)(int32_t i))
{
	struct shipped_header h = { .magic = SHIPPED_MAGIC };
	struct shipped_source *src = xcalloc(cfg->nfiles + 1, sizeof(*src));
	struct buf b = { 0 }, pool = { 0 };
	size_t i, dlen = strlen(dir);
	char *tmp;
	FILE *f;

	h.version = SHIPPED_VERSION;
	h.session_version = LTR_SESSION_VERSION;
	h.capture_size = sizeof(struct ltr_capture);
	h.hash_size = LTR_CAPTURE_HASH;
	pool_add(&pool, "");
	buf_put(&b, NULL, sizeof(h));
	/* Every file loaded is a source: each lies in dir. */
	for (i = 0; i < cfg->nfiles; i++) {
		const char *file = cfg->files[i];

		if (strncmp(file, dir, dlen) != 0 || file[dlen] != '/')
			error_msg_and_die("internal error: '%s' is not in '%s'", file, dir);
		source_fill(&src[i], file, pool_add(&pool, file + dlen + 1));
	}
	h.nsources = (uint32_t)cfg->nfiles;
	h.sources = buf_section(&b, src, cfg->nfiles * sizeof(*src));
	write_captures(&b, &pool, &h, cfg, s, proto_of);
	write_types(&b, &pool, &h, cfg);
	h.nstrings = (uint32_t)pool.len;
	h.strings = buf_section(&b, pool.p, pool.len);
	h.size = b.len;
	memcpy(b.p, &h, sizeof(h));
	tmp = xasprintf("%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0 ||
	    rename(tmp, path) < 0)
		perror_msg_and_die("cannot write '%s'", path);
	free(tmp);
	free(pool.p);
	free(b.p);
	free(src);
}
