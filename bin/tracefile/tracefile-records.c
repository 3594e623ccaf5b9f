/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-records.c: the records of a trace file's TABLES blocks
 * (ltruss-trace(5)): a function, its prototype and the named types it
 * uses, an object with its build ID and soname, each made from the
 * session's tables and the config and handed to the writer's record
 * function (tracefile-write.c, which says when), each prototype and type
 * once.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "captures.h"
#include "prototype.h"
#include "session-check.h"
#include "session-slots.h"
#include "tracefile-records.h"
#include "tracefile.h"
#include "xmalloc.h"

static const struct ltr_session *S;
static const struct config *cfg;
static records_put_fn *put;
static unsigned char proto_done[LTR_MAX_CAPTURES];
static char **types_done;
static size_t ntypes_done;

void records_init(const struct ltr_session *s, const struct config *config,
		  records_put_fn *to)
{
	S = s;
	cfg = config;
	put = to;
}

void records_done(void)
{
	size_t i;

	for (i = 0; i < ntypes_done; i++)
		free(types_done[i]);
	free(types_done);
	types_done = NULL;
	ntypes_done = 0;
	memset(proto_done, 0, sizeof(proto_done));
}

/* Has the named type called name been written? Note it if not. */
static bool type_noted(const char *name)
{
	size_t i;

	for (i = 0; i < ntypes_done; i++)
		if (strcmp(types_done[i], name) == 0)
			return true;
	types_done = xrealloc(types_done, (ntypes_done + 1) * sizeof(char *));
	types_done[ntypes_done++] = xstrdup(name);
	return false;
}

/* Copy name and its NUL to p; returns the bytes copied. */
static size_t name_put(unsigned char *p, const char *name)
{
	size_t n = strlen(name) + 1;

	memcpy(p, name, n);
	return n;
}

/* Write the named type of t, if it has one not written yet. */
static void type_put(const struct ptype *t)
{
	const struct named_type *nt;
	struct tf_type h;
	unsigned char *p;
	size_t n, i, off;

	if (!t->named || (t->kind != CT_NAMED &&
			  !(t->kind == CT_POINTER && t->target == CT_NAMED)))
		return;
	if (type_noted(t->named))
		return;
	nt = config_find_type(cfg, t->named);
	if (!nt)
		return;
	h = (struct tf_type){ .mask = nt->mask, .size = nt->size,
			      .nenums = (uint32_t)nt->nenums,
			      .nflags = (uint32_t)nt->nflags };
	h.name_len = (uint32_t)strlen(nt->name) + 1;
	for (i = 0; i < nt->nenums; i++)
		h.name_len += (uint32_t)strlen(nt->enums[i].name) + 1;
	for (i = 0; i < nt->nflags; i++)
		h.name_len += (uint32_t)strlen(nt->flags[i].name) + 1;
	n = sizeof(h) + (nt->nenums + nt->nflags) * 8 + h.name_len;
	if (n > RECORD_MAX)
		return; /* printed as a number */
	p = xmalloc(n);
	memcpy(p, &h, sizeof(h));
	off = sizeof(h);
	for (i = 0; i < nt->nenums; i++, off += 8)
		memcpy(p + off, &nt->enums[i].value, 8);
	for (i = 0; i < nt->nflags; i++, off += 8)
		memcpy(p + off, &nt->flags[i].value, 8);
	off += name_put(p + off, nt->name);
	for (i = 0; i < nt->nenums; i++)
		off += name_put(p + off, nt->enums[i].name);
	for (i = 0; i < nt->nflags; i++)
		off += name_put(p + off, nt->flags[i].name);
	put(TF_REC_TYPE, 0, p, n, NULL, 0);
	free(p);
}

void records_proto(int32_t capture)
{
	const struct proto *p = captures_proto(capture);
	const char *decl = captures_decl(capture);
	size_t i, n;

	if (capture < 0 || capture >= LTR_MAX_CAPTURES ||
	    proto_done[capture] || !p || !decl)
		return;
	proto_done[capture] = 1;
	n = strlen(decl) + 1;
	if (n > RECORD_MAX)
		return;
	type_put(&p->ret);
	for (i = 0; i < p->nargs; i++)
		type_put(&p->args[i].type);
	put(TF_REC_PROTO, (uint32_t)capture, decl, n, NULL, 0);
}

/* The file's flags (TF_FN_*) of the session's LTR_FN_* flags. */
static uint32_t func_flags(uint32_t flags)
{
	return (flags & LTR_FN_ENTRY_ONLY ? TF_FN_ENTRY_ONLY : 0) |
	       (flags & LTR_FN_DISABLED ? TF_FN_DISABLED : 0) |
	       (flags & LTR_FN_SETJMP ? TF_FN_SETJMP : 0) |
	       (flags & LTR_FN_VFORK ? TF_FN_VFORK : 0);
}

void records_func(uint32_t i)
{
	const struct ltr_func *f = &S->funcs[i];
	const char *name = session_string(S, f->name);
	const char *lib = session_string(S, f->lib);
	struct tf_func r = { .size = sizeof(r), .proto = -1, .depth = f->depth,
			     .flags = func_flags(f->flags) };
	size_t n1, n2;
	char *names;

	name = name ? name : "";
	lib = lib ? lib : "";
	n1 = strlen(name) + 1;
	n2 = strlen(lib) + 1;
	if (n1 + n2 > RECORD_MAX)
		n1 = n2 = 1, name = lib = "";
	if (f->capture >= 0 && f->capture < LTR_MAX_CAPTURES)
		r.proto = f->capture;
	names = xmalloc(n1 + n2);
	memcpy(names, name, n1);
	memcpy(names + n1, lib, n2);
	put(TF_REC_FUNC, i, &r, sizeof(r), names, n1 + n2);
	free(names);
}

void records_object(uint32_t i)
{
	const struct ltr_objrec *o = session_object(S, i);
	struct tf_object r = { .size = sizeof(r) };
	const char *file = NULL, *soname;
	unsigned char id[BUILD_ID_MAX];
	size_t n;

	if (session_object_ready(S, i)) {
		file = session_string(S, o->path);
		r.pid = o->pid;
		r.start = o->start;
		r.end = o->end > o->start ? o->end : o->start;
		r.bias = o->bias;
		r.mapped = session_object_mapped(o);
	}
	if (file && strlen(file) + 1 > RECORD_MAX)
		file = NULL;
	put(TF_REC_OBJECT, i, &r, sizeof(r), file ? file : "",
		   file ? strlen(file) + 1 : 1);
	if (!file)
		return;
	if ((n = build_id_read(file, id, &soname)) != 0)
		put(TF_REC_BUILD_ID, i, id, n, NULL, 0);
	if (soname && (n = strlen(soname) + 1) <= RECORD_MAX)
		put(TF_REC_SONAME, i, soname, n, NULL, 0);
}
