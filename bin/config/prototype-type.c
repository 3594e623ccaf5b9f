/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype-type.c: the type specifiers of a declaration, and the struct ptype
 * they derive. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prototype-parser.h"

/* One row of the typedef table (bin/config/typedefs.txt). */
struct typedef_entry {
	const char *name;
	enum base_kind kind;
	unsigned size;
};

/* Sorted by name (strcmp), for bsearch. */
static const struct typedef_entry typedefs[] = {
#include "bin/config/typedefs.h"
};

/* The keywords that combine into C's arithmetic types. */
enum type_keyword {
	KW_VOID,
	KW_CHAR,
	KW_SHORT,
	KW_INT,
	KW_LONG,
	KW_SIGNED,
	KW_UNSIGNED,
	KW_BOOL,
	KW_FLOAT,
	KW_DOUBLE,
	KW_COUNT
};

static const struct {
	const char *name;
	enum type_keyword kw;
} type_keywords[] = {
    {"void", KW_VOID},	       {"char", KW_CHAR},
    {"short", KW_SHORT},       {"int", KW_INT},
    {"long", KW_LONG},	       {"signed", KW_SIGNED},
    {"__signed", KW_SIGNED},   {"__signed__", KW_SIGNED},
    {"unsigned", KW_UNSIGNED}, {"_Bool", KW_BOOL},
    {"bool", KW_BOOL},	       {"float", KW_FLOAT},
    {"double", KW_DOUBLE},
};

/* Types C has that ltruss cannot describe. */
static const char *const unsupported_types[] = {
    "_Complex", "__complex__", "_Float128",  "__float128",  "_Float16",
    "__int128", "_Decimal32",  "_Decimal64", "_Decimal128", "__bf16",
};

/* Compare a name with a typedef table row, for bsearch. */
static int typedef_cmp(const void *key, const void *row)
{
	return strcmp(key, ((const struct typedef_entry *)row)->name);
}

/* The typedef table row of identifier t of s, or NULL. */
static const struct typedef_entry *typedef_find(const char *s, struct token t)
{
	char name[64];

	if (t.kind != TK_IDENT || t.len >= sizeof(name))
		return NULL;
	memcpy(name, s + t.start, t.len);
	name[t.len] = '\0';
	return bsearch(name, typedefs, sizeof(typedefs) / sizeof(*typedefs),
		       sizeof(*typedefs), typedef_cmp);
}

/* The type keyword token t of s is, or -1. */
static int type_keyword(const char *s, struct token t)
{
	size_t i;

	for (i = 0; i < sizeof(type_keywords) / sizeof(*type_keywords); i++)
		if (proto_token_is(s, t, type_keywords[i].name))
			return (int)type_keywords[i].kw;
	return -1;
}

/* Whether token t of s starts a type: a keyword, qualifier or typedef. */
bool proto_names_type(const char *s, struct token t)
{
	return type_keyword(s, t) >= 0 || typedef_find(s, t) ||
	       proto_token_is(s, t, "struct") ||
	       proto_token_is(s, t, "union") || proto_token_is(s, t, "enum") ||
	       proto_token_ignored(s, t);
}

/* Fold counted type keywords into a base type, as C combines them. */
static bool keywords_fold(struct parser *p, const unsigned *kw, struct spec *sp)
{
	unsigned sign = kw[KW_SIGNED] + kw[KW_UNSIGNED];
	unsigned others = kw[KW_SHORT] + kw[KW_INT] + kw[KW_LONG] + sign;
	unsigned alone = kw[KW_VOID] + kw[KW_CHAR] + kw[KW_BOOL] +
			 kw[KW_FLOAT] + kw[KW_DOUBLE];

	if (alone > 1)
		goto bad;
	if (kw[KW_VOID] || kw[KW_BOOL] || kw[KW_FLOAT]) {
		if (others)
			goto bad;
		sp->base = kw[KW_VOID]	 ? BK_VOID
			   : kw[KW_BOOL] ? BK_BOOL
					 : BK_FLOAT;
		sp->size = kw[KW_VOID] ? 0 : kw[KW_BOOL] ? 1 : 4;
		return true;
	}
	if (kw[KW_DOUBLE]) {
		if (others != kw[KW_LONG] || kw[KW_LONG] > 1)
			goto bad;
		sp->base = kw[KW_LONG] ? BK_LDOUBLE : BK_DOUBLE;
		sp->size = kw[KW_LONG] ? 16 : 8;
		return true;
	}
	if (sign > 1 || kw[KW_INT] > 1 || kw[KW_SHORT] > 1 || kw[KW_LONG] > 2 ||
	    (kw[KW_SHORT] && kw[KW_LONG]))
		goto bad;
	if (kw[KW_CHAR]) {
		if (others != sign)
			goto bad;
		sp->base = kw[KW_UNSIGNED] ? BK_UINT
			   : kw[KW_SIGNED] ? BK_SCHAR
					   : BK_CHAR;
		sp->size = 1;
		return true;
	}
	sp->base = kw[KW_UNSIGNED] ? BK_UINT : BK_INT;
	sp->size = kw[KW_SHORT] ? 2 : kw[KW_LONG] ? 8 : 4;
	return true;
bad:
	return proto_fail(p, sp->start,
			  "invalid combination of type specifiers");
}

/* struct X, union X, enum X: the current token is the keyword. */
static bool parse_tagged(struct parser *p, struct spec *sp)
{
	enum base_kind kind = proto_tok_is(p, "struct")	 ? BK_STRUCT
			      : proto_tok_is(p, "union") ? BK_UNION
							 : BK_ENUM;

	proto_lex_next(p);
	if (!proto_skip_ignored(p))
		return false;
	if (p->t.kind != TK_IDENT)
		return proto_failf(p, p->t.start, "expected a name after '%s'",
				   kind == BK_STRUCT  ? "struct"
				   : kind == BK_UNION ? "union"
						      : "enum");
	sp->base = kind;
	sp->size = kind == BK_ENUM ? 4 : 0;
	sp->name = p->t.start;
	sp->name_len = p->t.len;
	if (kind == BK_STRUCT && proto_tok_is(p, "_IO_FILE"))
		sp->base = BK_FILE;
	proto_lex_next(p);
	return true;
}

/*
 * Read the specifiers of a declaration into sp.  An identifier is a type
 * name until a type has been seen; after that it is the declarator's name.
 */
bool proto_specifiers(struct parser *p, struct spec *sp)
{
	unsigned kw[KW_COUNT] = {0};
	const struct typedef_entry *td;
	bool keywords = false;
	unsigned consts = p->consts;
	int k;

	memset(sp, 0, sizeof(*sp));
	sp->start = p->t.start;
	for (;;) {
		if (!proto_skip_ignored(p))
			return false;
		if (p->t.kind != TK_IDENT)
			break;
		if ((k = type_keyword(p->s, p->t)) >= 0) {
			if (sp->base != BK_NONE)
				return proto_fail(
				    p, p->t.start,
				    "invalid combination of type specifiers");
			kw[k]++;
			keywords = true;
			proto_lex_next(p);
			continue;
		}
		if (proto_tok_in(p, unsupported_types,
				 sizeof(unsupported_types) /
				     sizeof(*unsupported_types)))
			return proto_failf(p, p->t.start,
					   "%.*s is not supported",
					   (int)p->t.len, p->s + p->t.start);
		if (keywords || sp->base != BK_NONE)
			break;
		if (proto_tok_is(p, "struct") || proto_tok_is(p, "union") ||
		    proto_tok_is(p, "enum")) {
			if (!parse_tagged(p, sp))
				return false;
			continue;
		}
		td = typedef_find(p->s, p->t);
		sp->base = td ? td->kind : BK_NAMED;
		sp->size = td ? td->size : 4;
		sp->name = p->t.start;
		sp->name_len = p->t.len;
		proto_lex_next(p);
	}
	/* "const char *" and "char const *"; not "char *const" (the pointer). */
	sp->is_const = p->consts != consts;
	if (keywords)
		return keywords_fold(p, kw, sp);
	if (sp->base == BK_NONE)
		return proto_fail(p, p->t.start, "expected a type");
	return true;
}

/* The type of a value of the base type itself (no derivation). */
static void base_value(const struct spec *sp, struct ptype *t)
{
	static const enum ctype kinds[] = {
	    [BK_VOID] = CT_VOID,       [BK_INT] = CT_INT,
	    [BK_UINT] = CT_UINT,       [BK_OCTAL] = CT_UINT,
	    [BK_CHAR] = CT_CHAR,
	    [BK_SCHAR] = CT_INT,       [BK_TEXT] = CT_UINT,
	    [BK_BOOL] = CT_BOOL,       [BK_FLOAT] = CT_FLOAT,
	    [BK_DOUBLE] = CT_DOUBLE,   [BK_LDOUBLE] = CT_LDOUBLE,
	    [BK_POINTER] = CT_POINTER, [BK_STRING] = CT_STRING,
	    [BK_FUNCPTR] = CT_FUNCPTR, [BK_VALIST] = CT_VALIST,
	    [BK_VALIST_TAG] = CT_VOID, [BK_FILE] = CT_VOID,
	    [BK_STRUCT] = CT_VOID,     [BK_UNION] = CT_VOID,
	    [BK_ENUM] = CT_INT,	       [BK_NAMED] = CT_NAMED,
	};

	memset(t, 0, sizeof(*t));
	t->kind = kinds[sp->base];
	t->size = (uint8_t)sp->size;
	t->octal = sp->base == BK_OCTAL;
	if (t->kind == CT_POINTER)
		t->target = CT_VOID;
}

/*
 * The type that derivations d[0..n) make of the base, d[0] outermost (a
 * parameter's array or function decays to a pointer).  Pointers record
 * what they point to; a struct or named type behind a pointer is opaque.
 */
static void derive(const struct spec *sp, const enum derivation *d, unsigned n,
		   struct ptype *t)
{
	struct ptype to;

	if (n == 0) {
		base_value(sp, t);
		return;
	}
	memset(t, 0, sizeof(*t));
	t->size = 8;
	if (d[0] == D_FUNC || (n > 1 && d[1] == D_FUNC)) {
		t->kind = CT_FUNCPTR;
		return;
	}
	if (n > 1 && d[1] == D_ARRAY) {
		t->kind = CT_POINTER; /* to an array: nothing known to print */
		t->target = CT_VOID;
		return;
	}
	if (n == 1 && (sp->base == BK_CHAR || sp->base == BK_SCHAR ||
		       sp->base == BK_TEXT)) {
		t->kind = CT_STRING;
		t->writable = !sp->is_const;
		return;
	}
	if (n == 1 && (sp->base == BK_FILE || sp->base == BK_VALIST_TAG)) {
		t->kind = sp->base == BK_FILE ? CT_FILE : CT_VALIST;
		return;
	}
	derive(sp, d + 1, n - 1, &to);
	t->kind = CT_POINTER;
	t->target = to.kind == CT_NAMED ? CT_VOID : to.kind;
	t->target_size = to.kind == CT_NAMED ? 0 : to.size;
}

/* The type of a parameter or return value; errors for what cannot be one. */
bool proto_type(struct parser *p, const struct spec *sp,
		const struct declarator *dcl, unsigned from, bool param,
		struct ptype *t)
{
	const enum derivation *d = dcl->d + from;
	unsigned n = dcl->n - from;

	if (!param && n > 0 && d[0] != D_POINTER)
		return proto_fail(
		    p, sp->start,
		    "a function cannot return an array or a function");
	if (n == 0 && (sp->base == BK_STRUCT || sp->base == BK_FILE ||
		       sp->base == BK_VALIST_TAG))
		return proto_fail(
		    p, sp->start,
		    param ? "struct passed by value is not supported"
			  : "struct returned by value is not supported");
	if (n == 0 && sp->base == BK_UNION)
		return proto_fail(
		    p, sp->start,
		    param ? "union passed by value is not supported"
			  : "union returned by value is not supported");
	if (n == 0 && sp->base == BK_VOID && param)
		return proto_fail(p, sp->start, "a parameter cannot be void");
	derive(sp, d, n, t);
	if (t->kind == CT_NAMED) {
		t->named = strndup(p->s + sp->name, sp->name_len);
		if (!t->named)
			return proto_fail(p, sp->start, "out of memory");
	}
	return true;
}
