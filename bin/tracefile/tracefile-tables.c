/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-tables.c: the TABLES blocks of a trace file (--read): the
 * functions, objects, prototypes and named types their records hold,
 * into the catalog the formatters read names from (catalog.c;
 * tracefile-read.c reads the blocks, and the events that name these).
 *
 * No record changes or frees what an earlier one made: formatters keep
 * what they looked up (a function's prototype, its resolved argument
 * types, a name) for calls in progress and later ones.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "captures.h"
#include "catalog.h"
#include "conf.h"
#include "error.h"
#include "prototype.h"
#include "session-check.h"
#include "strmap.h"
#include "tracefile-objects.h"
#include "tracefile-tables.h"
#include "tracefile.h"
#include "xmalloc.h"

static const char *path;
static void (*fail)(size_t at, const char *what);
static struct proto *protos[LTR_MAX_CAPTURES];
/* Each its own allocation: resolved prototypes point at them (ptype.def). */
static struct named_type **types;
static size_t ntypes;
static struct strmap type_names; /* name: the last of types[] so called */

void tracefile_tables_init(const char *file,
			   void (*bad)(size_t at, const char *what))
{
	path = file;
	fail = bad;
}

/* A copy of name from the file, its odd bytes as \xNN (check_name()). */
static char *printable(const char *name)
{
	char buf[1024];

	return xstrdup(check_name(buf, sizeof(buf), name));
}

/* A named type from a TYPE record (p, n bytes at off). */
static void type_load(const unsigned char *p, size_t n, size_t off)
{
	struct tf_type h;
	struct named_type *t;
	const char *names, *end;
	size_t i, values;

	if (n < sizeof(h))
		fail(off, "a type record too short");
	memcpy(&h, p, sizeof(h));
	values = (size_t)h.nenums + h.nflags;
	if (h.nenums > n / 8 || h.nflags > n / 8 || h.size > 8 ||
	    sizeof(h) + values * 8 + h.name_len != n || !h.name_len ||
	    p[n - 1] != '\0')
		fail(off, "a type record that does not add up");
	types = xrealloc(types, (ntypes + 1) * sizeof(*types));
	t = types[ntypes++] = xcalloc(1, sizeof(*t));
	t->size = (uint8_t)h.size;
	t->mask = h.mask;
	t->enums = xcalloc(h.nenums + 1, sizeof(*t->enums));
	t->flags = xcalloc(h.nflags + 1, sizeof(*t->flags));
	t->file = path;
	names = (const char *)p + sizeof(h) + values * 8;
	end = (const char *)p + n;
	t->name = printable(names);
	*strmap_slot(&type_names, t->name) = t;
	names += strlen(names) + 1;
	for (i = 0; i < values; i++) {
		struct type_value *v = i < h.nenums ? &t->enums[i]
						    : &t->flags[i - h.nenums];

		if (names >= end)
			fail(off, "a type record with names missing");
		memcpy(&v->value, p + sizeof(h) + i * 8, 8);
		v->name = printable(names);
		names += strlen(names) + 1;
		if (i < h.nenums)
			t->nenums++;
		else
			t->nflags++;
	}
}

/* The last named type the file carries called name (ctx unused), or NULL. */
static const struct named_type *type_named(const char *name, const void *ctx)
{
	(void)ctx;
	return strmap_get(&type_names, name);
}

/* The prototype of a PROTO record for capture at. */
static void proto_load(uint32_t at, const unsigned char *p, size_t n,
		       size_t off)
{
	struct proto *pr;
	unsigned errcol;
	const char *err;

	if (at >= LTR_MAX_CAPTURES || !n || p[n - 1] != '\0')
		fail(off, "a prototype record that does not add up");
	if (protos[at])
		fail(off, "a second prototype for one function");
	pr = xcalloc(1, sizeof(*pr));
	if (!proto_parse((const char *)p, pr, &errcol, &err))
		fail(off, "a prototype that does not parse");
	pr->file = path;
	/* Its named types came before it (tracefile-write.c proto_put). */
	proto_resolve(pr, type_named, NULL);
	protos[at] = pr;
	captures_set_proto((int32_t)at, pr);
}

/*
 * The struct of a FUNC or OBJECT record (p, n bytes), of at least min
 * bytes (the ones of the first version of the struct), copied to r, whose
 * size bytes this version reads: the fields an earlier writer had not yet
 * are 0, the ones a later writer added skipped.  Returns where its names
 * start.
 */
static const char *record_fields(void *r, size_t min, size_t size,
				 const unsigned char *p, size_t n, size_t off)
{
	uint32_t fields;

	if (n < sizeof(fields))
		fail(off, "a table record too short");
	memcpy(&fields, p, sizeof(fields));
	if (fields < min || fields > n || fields % 8)
		fail(off, "a table record too short");
	memset(r, 0, size);
	memcpy(r, p, fields < size ? fields : size);
	return (const char *)p + fields;
}

/* The NUL-terminated name at *q, before end; *q moves past it. */
static const char *record_name(const char **q, const char *end, size_t off)
{
	const char *name = *q;
	const char *nul = memchr(name, '\0', (size_t)(end - name));

	if (!nul)
		fail(off, "a table record with names missing");
	*q = nul + 1;
	return name;
}

/* The session's LTR_FN_* flags of the file's TF_FN_* ones. */
static uint32_t func_flags(uint32_t flags)
{
	return LTR_FN_READY |
	       (flags & TF_FN_ENTRY_ONLY ? LTR_FN_ENTRY_ONLY : 0) |
	       (flags & TF_FN_DISABLED ? LTR_FN_DISABLED : 0) |
	       (flags & TF_FN_SETJMP ? LTR_FN_SETJMP : 0) |
	       (flags & TF_FN_VFORK ? LTR_FN_VFORK : 0);
}

/* A FUNC record (p, n bytes at off): function at. */
static void func_load(uint32_t at, const unsigned char *p, size_t n,
		      size_t off)
{
	struct tf_func r;
	const char *q = record_fields(&r, sizeof(r), sizeof(r), p, n, off);
	const char *end = (const char *)p + n, *name, *lib;
	struct ltr_func f = { 0 };

	if (r.proto < -1 || r.proto >= LTR_MAX_CAPTURES)
		fail(off, "a function of no prototype");
	name = record_name(&q, end, off);
	lib = record_name(&q, end, off);
	f.capture = r.proto;
	f.depth = r.depth;
	f.name = catalog_name_add(name);
	f.lib = catalog_name_add(lib);
	f.flags = func_flags(r.flags);
	if (!catalog_func_add(at, &f))
		fail(off, "a table record that does not append");
}

/*
 * The build ID recorded for each object (one at most), until the
 * object's own record names its file: the writer puts it just before
 * (tracefile-write.c object_put()).  Each is looked at twice in all,
 * however many records and blocks the file has.
 */
static struct object_id {
	struct id_pending {
		size_t len;
		unsigned char id[BUILD_ID_MAX];
	} *pending;
	bool seen;
} *ids; /* by object index */
static uint32_t ids_room;

/* Object i is in the table: expect its build ID of its file, if recorded. */
static void id_expect(uint32_t i)
{
	struct id_pending *id = i < ids_room ? ids[i].pending : NULL;
	const char *file;

	if (!catalog_object_ready(i) || !id)
		return;
	file = catalog_string(catalog_object(i)->path);
	if (file)
		build_id_expect(file, id->id, id->len);
	free(id);
	ids[i].pending = NULL;
}

/*
 * An OBJECT record (p, n bytes at off): object at.  One with no addresses
 * (its process claimed it and was killed before it wrote it) gets an
 * empty range that is not 0 to 0: objmap.c takes an end of 0 for a
 * record still being written, and would wait at it for ever.
 */
static void object_load(uint32_t at, const unsigned char *p, size_t n,
			size_t off)
{
	struct tf_object r;
	const char *q = record_fields(&r, TF_OBJECT_MIN, sizeof(r), p, n, off);
	const char *file;
	struct ltr_objrec o = { 0 };

	if (at != catalog_objects_used() || at >= CATALOG_MAX_OBJECTS)
		fail(off, "a table record that does not append");
	o.pid = r.pid;
	file = record_name(&q, (const char *)p + n, off);
	o.path = catalog_name_add(file);
	o.start = r.start;
	o.end = r.end;
	o.bias = r.bias;
	o.mapped = r.mapped; /* 0 in files before it: since the start */
	if (r.start >= r.end)
		o.start = o.end = UINT64_MAX;
	catalog_object_add(at, &o);
	tracefile_object_add(at, file);
	id_expect(at);
}

/* A BUILD_ID record for object at: its ID (p, n bytes). */
static void id_load(uint32_t at, const unsigned char *p, size_t n, size_t off)
{
	if (at >= CATALOG_MAX_OBJECTS || !n || n > BUILD_ID_MAX)
		fail(off, "a build ID record that does not add up");
	ids = xgrow(ids, &ids_room, at, sizeof(*ids));
	if (ids[at].seen)
		fail(off, "a second build ID for one object");
	ids[at].seen = true;
	ids[at].pending = xcalloc(1, sizeof(*ids[at].pending));
	ids[at].pending->len = n;
	memcpy(ids[at].pending->id, p, n);
	id_expect(at);
}

/*
 * A record of a type this ltruss does not know, from a later version
 * (whose reader may need it, this one does not): skipped, said once.
 */
static void record_unknown(uint32_t type, size_t off)
{
	static bool said;

	if (!said)
		warning_msg("the trace file '%s' has records of a kind this ltruss does not know (type %u at byte %zu, maybe more): skipped; a newer ltruss may show more",
			    path, type, off);
	said = true;
}

/*
 * The records of a TABLES block (p, n bytes at off).  No record changes
 * or frees what an earlier one made: formatters keep what they looked up
 * (a function's prototype, its resolved argument types, a name) for
 * calls in progress and later ones, so a second record for a function's
 * prototype, an object's soname or build ID, a table entry already
 * there, or other bytes for a string already written, is corruption.
 */
void tracefile_tables_load(const unsigned char *p, size_t n, size_t off)
{
	size_t i = 0;

	while (i < n) {
		struct tf_record r;
		const unsigned char *d;
		size_t at = off + sizeof(struct tf_block) + i;

		if (n - i < sizeof(r))
			fail(at, "a table record cut");
		memcpy(&r, p + i, sizeof(r));
		if (r.len > n - i - sizeof(r))
			fail(at, "a table record longer than its block");
		d = p + i + sizeof(r);
		switch (r.type) {
		case TF_REC_FUNC:
			func_load(r.at, d, r.len, at);
			break;
		case TF_REC_OBJECT:
			object_load(r.at, d, r.len, at);
			break;
		case TF_REC_PROTO:
			proto_load(r.at, d, r.len, at);
			break;
		case TF_REC_TYPE:
			type_load(d, r.len, at);
			break;
		case TF_REC_SONAME:
			if (r.at >= CATALOG_MAX_OBJECTS || !r.len ||
			    strnlen((const char *)d, r.len) != r.len - 1)
				fail(at, "a soname record that does not add up");
			if (!tracefile_object_set_soname(r.at, (const char *)d))
				fail(at, "a second soname for one object");
			break;
		case TF_REC_BUILD_ID:
			id_load(r.at, d, r.len, at);
			break;
		default:
			if (r.type <= TF_REC_KNOWN_LAST)
				fail(at, "a table record of unknown type");
			record_unknown(r.type, at);
		}
		i += sizeof(r) + tf_padded(r.len);
	}
}

void tracefile_tables_free(void)
{
	size_t i, k;

	for (i = 0; i < LTR_MAX_CAPTURES; i++) {
		if (protos[i]) {
			captures_set_proto((int32_t)i, NULL);
			proto_free(protos[i]);
			free(protos[i]);
			protos[i] = NULL;
		}
	}
	for (i = 0; i < ntypes; i++) {
		for (k = 0; k < types[i]->nenums; k++)
			free(types[i]->enums[k].name);
		for (k = 0; k < types[i]->nflags; k++)
			free(types[i]->flags[k].name);
		free(types[i]->enums);
		free(types[i]->flags);
		free(types[i]->name);
		free(types[i]);
	}
	free(types);
	types = NULL;
	strmap_clear(&type_names, NULL);
	ntypes = 0;
	for (i = 0; i < ids_room; i++)
		free(ids[i].pending);
	free(ids);
	ids = NULL;
	ids_room = 0;
	build_id_done();
	tracefile_objects_free();
	catalog_file_free();
}
