/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-prototype.c: libFuzzer harness for the prototype parser
 * (proto_parse() in bin/libprototype.a).
 *
 * An input is one declaration (up to its first NUL, as a YAML string
 * would be).  Besides the sanitizers, it checks the parser's promises: a
 * failure has a message and a column inside the declaration (or just past
 * its end) and leaves nothing allocated; a success has a function name,
 * at most PROTO_MAX_ARGS parameters, columns inside the declaration,
 * [out:argN] and [in:argN] naming an existing parameter, [struct:...]
 * within its bounds, and types ptype_name() spells.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/config/prototype.h"
#include "tests/fuzz/fuzz.h"

static const char *decl;

/* Die loudly: a parser promise was broken. */
static void __attribute__((noreturn)) broken(const char *what, unsigned n)
{
	fprintf(stderr, "fuzz: %s (%u) for: %s\n", what, n, decl);
	abort();
}

/* Check one parsed type. */
static void type_verify(const struct ptype *t)
{
	char buf[64];

	if (t->kind < CT_VOID || t->kind > CT_VALIST)
		broken("bad type kind", t->kind);
	if (t->kind == CT_NAMED && (!t->named || !*t->named))
		broken("a named type without its name", t->kind);
	if ((t->kind == CT_INT || t->kind == CT_UINT) &&
	    t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8)
		broken("bad integer size", t->size);
	ptype_name(t, buf, sizeof(buf));
	if (!buf[0])
		broken("ptype_name spelled nothing", t->kind);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct proto p = { .file = NULL };
	const char *err = NULL;
	unsigned errcol = 0;
	size_t len, i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	decl = s;
	len = strlen(s);
	if (!proto_parse(s, &p, &errcol, &err)) {
		if (!err || !*err)
			broken("a failure without a message", errcol);
		if (errcol < 1 || errcol > len + 1)
			broken("error column outside the declaration", errcol);
		if (p.name || p.nargs || p.ret.named)
			broken("a failure left something allocated", 0);
		free(s);
		return 0;
	}
	if (!p.name || !*p.name)
		broken("no function name", 0);
	if (p.nargs > PROTO_MAX_ARGS)
		broken("too many parameters", (unsigned)p.nargs);
	if (p.ret_col < 1 || p.ret_col > len)
		broken("return type column outside the declaration", p.ret_col);
	type_verify(&p.ret);
	for (i = 0; i < p.nargs; i++) {
		const struct parg *a = &p.args[i];

		type_verify(&a->type);
		if (a->col < 1 || a->col > len)
			broken("parameter column outside the declaration",
			       a->col);
		if (a->out == OUT_ARG &&
		    (a->out_arg < 1 || a->out_arg > p.nargs))
			broken("[out:argN] names no parameter", a->out_arg);
		if (a->in == IN_ARG && (a->in_arg < 1 || a->in_arg > p.nargs))
			broken("[in:argN] names no parameter", a->in_arg);
		if (a->st.size && (a->st.size < 8 || a->st.size > 255 ||
				   a->st.nin > PROTO_STRUCT_BUFS ||
				   a->st.nout > PROTO_STRUCT_BUFS))
			broken("[struct:...] out of bounds", a->st.size);
	}
	proto_free(&p);
	free(s);
	return 0;
}
