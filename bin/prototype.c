/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype.c: parse one C declaration, with ltruss's annotations, into a struct proto. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prototype.h"

/*
 * The grammar, a subset of C's declarations (what gcc -aux-info prints for
 * the system headers, and what people paste from them):
 *
 *   declaration := fn-annotation* specifiers declarator attribute* [';']
 *   fn-annotation := '[errno]' | '[errno:-1]' | '[errno:null]'
 *                  | '[errno:neg]' | '[errnum]'
 *   specifiers  := (qualifier | attribute | type-keyword | typedef-name
 *                  | 'struct' ID | 'union' ID | 'enum' ID)+
 *   declarator  := ('*' qualifier*)* direct
 *   direct      := [ID | '(' declarator ')'] ('[' ... ']' | '(' params ')')*
 *   params      := 'void' | param (',' param)* [',' '...'] | <empty>
 *   param       := annotation* specifiers declarator attribute*
 *   annotation  := '[out]' | '[out:ret]' | '[out:argN]' | '[format]'
 *
 * A declarator is read into the list of derivations that lead from its
 * name to the base type ("f is a function returning a pointer to int" is
 * FUNC, POINTER over int), which is then folded into a struct ptype.  The
 * first parameter list that follows the name itself is the function's own;
 * the lists of function pointer types are parsed and dropped.
 */

/* What the specifiers of a declaration name, before any '*'. */
enum base_kind {
	BK_NONE = 0,
	BK_VOID,
	BK_INT,        /* signed integer of size bytes */
	BK_UINT,       /* unsigned integer of size bytes */
	BK_CHAR,       /* plain char */
	BK_SCHAR,      /* signed char: an integer, but its pointers are strings */
	BK_TEXT,       /* unsigned char whose pointers are strings (xmlChar) */
	BK_BOOL,
	BK_FLOAT,
	BK_DOUBLE,
	BK_LDOUBLE,
	BK_POINTER,    /* a pointer typedef (an opaque handle) */
	BK_STRING,     /* a char * typedef */
	BK_FUNCPTR,    /* a function pointer typedef */
	BK_VALIST,     /* va_list */
	BK_VALIST_TAG, /* __va_list_tag: its pointer is a va_list */
	BK_FILE,       /* FILE, struct _IO_FILE */
	BK_STRUCT,
	BK_UNION,
	BK_ENUM,       /* enum X: an int */
	BK_NAMED,      /* any other identifier */
};

/* One row of the typedef table (bin/typedefs.txt). */
struct typedef_entry {
	const char *name;
	enum base_kind kind;
	unsigned size;
};

/* Sorted by name (strcmp), for bsearch. */
static const struct typedef_entry typedefs[] = {
#include "bin/typedefs.h"
};

/* The keywords that combine into C's arithmetic types. */
enum type_keyword {
	KW_VOID, KW_CHAR, KW_SHORT, KW_INT, KW_LONG, KW_SIGNED, KW_UNSIGNED,
	KW_BOOL, KW_FLOAT, KW_DOUBLE, KW_COUNT
};

static const struct {
	const char *name;
	enum type_keyword kw;
} type_keywords[] = {
	{ "void", KW_VOID },         { "char", KW_CHAR },
	{ "short", KW_SHORT },       { "int", KW_INT },
	{ "long", KW_LONG },         { "signed", KW_SIGNED },
	{ "__signed", KW_SIGNED },   { "__signed__", KW_SIGNED },
	{ "unsigned", KW_UNSIGNED }, { "_Bool", KW_BOOL },
	{ "bool", KW_BOOL },         { "float", KW_FLOAT },
	{ "double", KW_DOUBLE },
};

/* Words that change nothing for ltruss: qualifiers, storage classes. */
static const char *const ignored_words[] = {
	"const", "__const", "__const__", "volatile", "__volatile",
	"__volatile__", "restrict", "__restrict", "__restrict__", "_Atomic",
	"extern", "static", "inline", "__inline", "__inline__", "register",
	"__extension__", "_Noreturn", "__restrict_arr",
};

/* Words that may be followed by a parenthesized argument, all skipped. */
static const char *const attribute_words[] = {
	"__attribute__", "__attribute", "__nonnull", "__wur", "__THROW",
	"__THROWNL", "__LEAF", "__asm__", "__asm", "asm", "__attr_access",
	"__fortified_attr_access", "__attr_dealloc", "__attr_dealloc_free",
};

/* Types C has that ltruss cannot describe. */
static const char *const unsupported_types[] = {
	"_Complex", "__complex__", "_Float128", "__float128", "_Float16",
	"__int128", "_Decimal32", "_Decimal64", "_Decimal128", "__bf16",
};

/* The annotations, as written between brackets. */
enum annotation {
	AN_ERRNO, AN_ERRNO_M1, AN_ERRNO_NULL, AN_ERRNO_NEG, AN_ERRNUM,
	AN_OUT, AN_OUT_RET, AN_OUT_ARG, AN_FORMAT
};

static const struct {
	const char *text;
	enum annotation an;
} annotations[] = {
	{ "errno", AN_ERRNO },          { "errno:-1", AN_ERRNO_M1 },
	{ "errno:null", AN_ERRNO_NULL }, { "errno:neg", AN_ERRNO_NEG },
	{ "errnum", AN_ERRNUM },        { "out", AN_OUT },
	{ "out:ret", AN_OUT_RET },      { "format", AN_FORMAT },
};

enum token_kind { TK_END, TK_IDENT, TK_NUMBER, TK_ELLIPSIS, TK_PUNCT, TK_BAD };

struct token {
	enum token_kind kind;
	size_t start, len; /* offsets in the declaration */
};

/* Where a declarator's derivations come from. */
enum context {
	CTX_TOP,    /* the declaration itself: a function */
	CTX_PARAM,  /* a parameter of that function */
	CTX_NESTED, /* a parameter of a function pointer type: parsed, dropped */
};

enum derivation { D_POINTER, D_ARRAY, D_FUNC };

#define DECL_DEPTH 8

struct declarator {
	enum derivation d[DECL_DEPTH]; /* from the name outwards */
	unsigned n;
	bool named;
	size_t name, name_len;
};

struct spec {
	enum base_kind base;
	unsigned size;
	size_t name, name_len; /* BK_NAMED, BK_STRUCT, BK_UNION: the name */
	size_t start;          /* where the specifiers start */
};

struct parser {
	const char *s;
	size_t next;           /* where the token after t starts scanning */
	struct token t;        /* the current token */
	struct proto *proto;
	bool own_params;       /* the function's own parameters were read */
	unsigned annot_col[PROTO_MAX_ARGS]; /* column of each parameter's annotation */
	const char *err;
	unsigned errcol;
};

/* Messages that quote the declaration are built here (one parse at a time). */
static char message[128];

/* Record the first error, at offset pos of the declaration; returns false. */
static bool fail(struct parser *p, size_t pos, const char *msg)
{
	if (!p->err) {
		p->err = msg;
		p->errcol = (unsigned)pos + 1;
	}
	return false;
}

/* fail() with a formatted message. */
static bool __attribute__((format(printf, 3, 4)))
failf(struct parser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return false;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return fail(p, pos, message);
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Scan the token that starts at or after pos. */
static struct token lex_at(const char *s, size_t pos)
{
	struct token t = { TK_END, pos, 0 };

	while (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' ||
	       s[pos] == '\r')
		pos++;
	t.start = pos;
	if (s[pos] == '\0')
		return t;
	if (is_ident_start(s[pos]) || (s[pos] >= '0' && s[pos] <= '9')) {
		t.kind = is_ident_start(s[pos]) ? TK_IDENT : TK_NUMBER;
		while (is_ident_char(s[pos]))
			pos++;
	} else if (strncmp(s + pos, "...", 3) == 0) {
		t.kind = TK_ELLIPSIS;
		pos += 3;
	} else {
		t.kind = strchr("()[]*,;", s[pos]) ? TK_PUNCT : TK_BAD;
		pos++;
	}
	t.len = pos - t.start;
	return t;
}

/* Move to the next token. */
static void lex_next(struct parser *p)
{
	p->t = lex_at(p->s, p->next);
	p->next = p->t.start + p->t.len;
}

/* The token after the current one, without moving. */
static struct token lex_peek(const struct parser *p)
{
	return lex_at(p->s, p->next);
}

static bool tok_punct(const struct parser *p, char c)
{
	return p->t.kind == TK_PUNCT && p->s[p->t.start] == c;
}

/* Whether token t of s is the identifier word. */
static bool token_is(const char *s, struct token t, const char *word)
{
	return t.kind == TK_IDENT && strlen(word) == t.len &&
	       memcmp(s + t.start, word, t.len) == 0;
}

static bool tok_is(const struct parser *p, const char *word)
{
	return token_is(p->s, p->t, word);
}

/* Whether token t of s is one of the n words. */
static bool token_in(const char *s, struct token t, const char *const *words,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (token_is(s, t, words[i]))
			return true;
	return false;
}

static bool tok_in(const struct parser *p, const char *const *words, size_t n)
{
	return token_in(p->s, p->t, words, n);
}

/* Expect the punctuation c and step over it. */
static bool expect(struct parser *p, char c)
{
	if (!tok_punct(p, c))
		return failf(p, p->t.start, "expected '%c'", c);
	lex_next(p);
	return true;
}

/* Skip a balanced (...) group; the current token is its '('. */
static bool skip_group(struct parser *p)
{
	size_t open = p->t.start;
	unsigned depth = 0;

	do {
		if (p->t.kind == TK_END)
			return fail(p, open, "unbalanced '('");
		if (tok_punct(p, '('))
			depth++;
		else if (tok_punct(p, ')'))
			depth--;
		lex_next(p);
	} while (depth > 0);
	return true;
}

/* Skip qualifiers and attributes; false on an unbalanced attribute. */
static bool skip_ignored(struct parser *p)
{
	for (;;) {
		if (tok_in(p, ignored_words, sizeof(ignored_words) /
						     sizeof(*ignored_words))) {
			lex_next(p);
		} else if (tok_in(p, attribute_words,
				  sizeof(attribute_words) /
					  sizeof(*attribute_words)) ||
			   (p->t.kind == TK_IDENT && p->t.len > 12 &&
			    memcmp(p->s + p->t.start, "__attribute_", 12) == 0)) {
			lex_next(p);
			if (tok_punct(p, '(') && !skip_group(p))
				return false;
		} else {
			return true;
		}
	}
}

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
		if (token_is(s, t, type_keywords[i].name))
			return (int)type_keywords[i].kw;
	return -1;
}

/* Whether token t of s starts a type: a keyword, qualifier or typedef. */
static bool names_type(const char *s, struct token t)
{
	return type_keyword(s, t) >= 0 || typedef_find(s, t) ||
	       token_is(s, t, "struct") || token_is(s, t, "union") ||
	       token_is(s, t, "enum") ||
	       token_in(s, t, ignored_words,
			sizeof(ignored_words) / sizeof(*ignored_words));
}

/* Fold counted type keywords into a base type, as C combines them. */
static bool keywords_fold(struct parser *p, const unsigned *kw,
			  struct spec *sp)
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
		sp->base = kw[KW_VOID] ? BK_VOID : kw[KW_BOOL] ? BK_BOOL
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
	return fail(p, sp->start, "invalid combination of type specifiers");
}

/* struct X, union X, enum X: the current token is the keyword. */
static bool parse_tagged(struct parser *p, struct spec *sp)
{
	enum base_kind kind = tok_is(p, "struct") ? BK_STRUCT
			      : tok_is(p, "union") ? BK_UNION
						   : BK_ENUM;

	lex_next(p);
	if (!skip_ignored(p))
		return false;
	if (p->t.kind != TK_IDENT)
		return failf(p, p->t.start, "expected a name after '%s'",
			     kind == BK_STRUCT  ? "struct"
			     : kind == BK_UNION ? "union"
						: "enum");
	sp->base = kind;
	sp->size = kind == BK_ENUM ? 4 : 0;
	sp->name = p->t.start;
	sp->name_len = p->t.len;
	if (kind == BK_STRUCT && tok_is(p, "_IO_FILE"))
		sp->base = BK_FILE;
	lex_next(p);
	return true;
}

/*
 * Read the specifiers of a declaration into sp.  An identifier is a type
 * name until a type has been seen; after that it is the declarator's name.
 */
static bool parse_specifiers(struct parser *p, struct spec *sp)
{
	unsigned kw[KW_COUNT] = { 0 };
	const struct typedef_entry *td;
	bool keywords = false;
	int k;

	memset(sp, 0, sizeof(*sp));
	sp->start = p->t.start;
	for (;;) {
		if (!skip_ignored(p))
			return false;
		if (p->t.kind != TK_IDENT)
			break;
		if ((k = type_keyword(p->s, p->t)) >= 0) {
			if (sp->base != BK_NONE)
				return fail(p, p->t.start,
					    "invalid combination of type specifiers");
			kw[k]++;
			keywords = true;
			lex_next(p);
			continue;
		}
		if (tok_in(p, unsupported_types, sizeof(unsupported_types) /
							 sizeof(*unsupported_types)))
			return failf(p, p->t.start, "%.*s is not supported",
				     (int)p->t.len, p->s + p->t.start);
		if (keywords || sp->base != BK_NONE)
			break;
		if (tok_is(p, "struct") || tok_is(p, "union") ||
		    tok_is(p, "enum")) {
			if (!parse_tagged(p, sp))
				return false;
			continue;
		}
		td = typedef_find(p->s, p->t);
		sp->base = td ? td->kind : BK_NAMED;
		sp->size = td ? td->size : 4;
		sp->name = p->t.start;
		sp->name_len = p->t.len;
		lex_next(p);
	}
	if (keywords)
		return keywords_fold(p, kw, sp);
	if (sp->base == BK_NONE)
		return fail(p, p->t.start, "expected a type");
	return true;
}

/* The type of a value of the base type itself (no derivation). */
static void base_value(const struct spec *sp, struct ptype *t)
{
	static const enum ctype kinds[] = {
		[BK_VOID] = CT_VOID,       [BK_INT] = CT_INT,
		[BK_UINT] = CT_UINT,       [BK_CHAR] = CT_CHAR,
		[BK_SCHAR] = CT_INT,       [BK_TEXT] = CT_UINT,
		[BK_BOOL] = CT_BOOL,       [BK_FLOAT] = CT_FLOAT,
		[BK_DOUBLE] = CT_DOUBLE,   [BK_LDOUBLE] = CT_LDOUBLE,
		[BK_POINTER] = CT_POINTER, [BK_STRING] = CT_STRING,
		[BK_FUNCPTR] = CT_FUNCPTR, [BK_VALIST] = CT_VALIST,
		[BK_VALIST_TAG] = CT_VOID, [BK_FILE] = CT_VOID,
		[BK_STRUCT] = CT_VOID,     [BK_UNION] = CT_VOID,
		[BK_ENUM] = CT_INT,        [BK_NAMED] = CT_NAMED,
	};

	memset(t, 0, sizeof(*t));
	t->kind = kinds[sp->base];
	t->size = (uint8_t)sp->size;
	if (t->kind == CT_POINTER)
		t->target = CT_VOID;
}

/*
 * The type that derivations d[0..n) make of the base, d[0] outermost (a
 * parameter's array or function decays to a pointer).  Pointers record
 * what they point to; a struct or named type behind a pointer is opaque.
 */
static void derive(const struct spec *sp, const enum derivation *d,
		   unsigned n, struct ptype *t)
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
static bool type_make(struct parser *p, const struct spec *sp,
		      const struct declarator *dcl, unsigned from, bool param,
		      struct ptype *t)
{
	const enum derivation *d = dcl->d + from;
	unsigned n = dcl->n - from;

	if (!param && n > 0 && d[0] != D_POINTER)
		return fail(p, sp->start,
			    "a function cannot return an array or a function");
	if (n == 0 && (sp->base == BK_STRUCT || sp->base == BK_FILE ||
		       sp->base == BK_VALIST_TAG))
		return fail(p, sp->start,
			    param ? "struct passed by value is not supported"
				  : "struct returned by value is not supported");
	if (n == 0 && sp->base == BK_UNION)
		return fail(p, sp->start,
			    param ? "union passed by value is not supported"
				  : "union returned by value is not supported");
	if (n == 0 && sp->base == BK_VOID && param)
		return fail(p, sp->start, "a parameter cannot be void");
	derive(sp, d, n, t);
	if (t->kind == CT_NAMED) {
		t->named = strndup(p->s + sp->name, sp->name_len);
		if (!t->named)
			return fail(p, sp->start, "out of memory");
	}
	return true;
}

static bool parse_declarator(struct parser *p, enum context ctx,
			     struct declarator *dcl);

/* Append a derivation to the declarator. */
static bool derivation_add(struct parser *p, struct declarator *dcl,
			   enum derivation d, size_t pos)
{
	if (dcl->n == DECL_DEPTH)
		return fail(p, pos, "declarator nested too deep");
	dcl->d[dcl->n++] = d;
	return true;
}

/* Read an annotation; the current token is its '['. */
static bool parse_annotation(struct parser *p, enum annotation *an,
			     unsigned *arg)
{
	const char *text = p->s + p->t.start + 1;
	const char *end = strchr(text, ']');
	size_t len, i;

	if (!end)
		return fail(p, p->t.start, "unterminated annotation: expected ']'");
	while (*text == ' ')
		text++;
	for (len = (size_t)(end - text); len > 0 && text[len - 1] == ' '; len--)
		;
	for (i = 0; i < sizeof(annotations) / sizeof(*annotations); i++) {
		if (strlen(annotations[i].text) == len &&
		    memcmp(annotations[i].text, text, len) == 0) {
			*an = annotations[i].an;
			break;
		}
	}
	if (i == sizeof(annotations) / sizeof(*annotations)) {
		char *digits_end;
		unsigned long n;

		if (len <= 7 || memcmp(text, "out:arg", 7) != 0 ||
		    text[7] < '0' || text[7] > '9')
			return failf(p, p->t.start, "unknown annotation [%.*s]",
				     (int)(len > 40 ? 40 : len), text);
		n = strtoul(text + 7, &digits_end, 10);
		if (digits_end != text + len || n == 0 || n > PROTO_MAX_ARGS)
			return failf(p, p->t.start,
				     "[out:argN] needs a parameter number from 1 to %d",
				     PROTO_MAX_ARGS);
		*an = AN_OUT_ARG;
		*arg = (unsigned)n;
	}
	p->next = (size_t)(end - p->s) + 1;
	lex_next(p);
	return true;
}

/* The annotations of a parameter, stored in arg; pos is where it starts. */
static bool parse_param_annotations(struct parser *p, enum context ctx,
				    struct parg *arg, unsigned *col)
{
	enum annotation an;
	unsigned n = 0;
	size_t pos;

	while (tok_punct(p, '[')) {
		pos = p->t.start;
		if (!parse_annotation(p, &an, &n))
			return false;
		if (ctx != CTX_PARAM)
			return fail(p, pos, "annotations belong on the function's own parameters");
		if (an < AN_OUT)
			return fail(p, pos, "error annotations belong before the return type");
		if (arg->out != OUT_NONE || arg->format)
			return fail(p, pos, "a parameter takes one annotation");
		arg->format = an == AN_FORMAT;
		arg->out = an == AN_OUT ? OUT_PLAIN : an == AN_OUT_RET ? OUT_RET
					: an == AN_OUT_ARG ? OUT_ARG
							   : OUT_NONE;
		arg->out_arg = an == AN_OUT_ARG ? n : 0;
		*col = (unsigned)pos + 1;
	}
	return true;
}

/* One parameter: of the function itself (stored) or of a nested type. */
static bool parse_param(struct parser *p, enum context ctx)
{
	struct proto *pr = p->proto;
	struct parg arg = { .col = (unsigned)p->t.start + 1 };
	struct declarator dcl = { .n = 0 };
	unsigned annot_col = 0;
	struct spec sp;

	if (!parse_param_annotations(p, ctx, &arg, &annot_col))
		return false;
	if (!parse_specifiers(p, &sp) || !parse_declarator(p, ctx, &dcl) ||
	    !skip_ignored(p))
		return false;
	if (ctx == CTX_NESTED)
		return true;
	if (pr->nargs == PROTO_MAX_ARGS)
		return failf(p, arg.col - 1, "too many parameters (at most %d)",
			     PROTO_MAX_ARGS);
	if (!type_make(p, &sp, &dcl, 0, true, &arg.type))
		return false;
	if (dcl.named && !(arg.name = strndup(p->s + dcl.name, dcl.name_len))) {
		free(arg.type.named);
		return fail(p, arg.col - 1, "out of memory");
	}
	p->annot_col[pr->nargs] = annot_col;
	pr->args[pr->nargs++] = arg;
	return true;
}

/* A parameter list; the current token is its '('. */
static bool parse_params(struct parser *p, enum context ctx)
{
	struct token after;
	unsigned count = 0;

	lex_next(p);
	after = lex_peek(p);
	if (tok_is(p, "void") && after.kind == TK_PUNCT &&
	    p->s[after.start] == ')') {
		lex_next(p);
	} else if (!tok_punct(p, ')')) {
		for (;;) {
			if (p->t.kind == TK_ELLIPSIS) {
				if (count == 0)
					return fail(p, p->t.start,
						    "'...' needs a parameter before it");
				if (ctx == CTX_PARAM)
					p->proto->variadic = true;
				lex_next(p);
				if (!tok_punct(p, ')'))
					return fail(p, p->t.start,
						    "'...' must be the last parameter");
				break;
			}
			if (!parse_param(p, ctx))
				return false;
			count++;
			if (tok_punct(p, ')'))
				break;
			if (!tok_punct(p, ','))
				return fail(p, p->t.start, "expected ',' or ')'");
			lex_next(p);
		}
	}
	return expect(p, ')');
}

/* Skip an array's [...]; the current token is its '['. */
static bool skip_array(struct parser *p)
{
	size_t open = p->t.start;

	lex_next(p);
	while (!tok_punct(p, ']')) {
		if (p->t.kind == TK_END || tok_punct(p, '[') ||
		    tok_punct(p, ';'))
			return fail(p, open, "unterminated '[': expected ']'");
		lex_next(p);
	}
	lex_next(p);
	return true;
}

/*
 * The name or parenthesized declarator, then array and function suffixes.
 * A '(' opens a nested declarator when a '*' follows (or, for the function
 * itself, a name); otherwise it is a parameter list.
 */
static bool parse_direct(struct parser *p, enum context ctx,
			 struct declarator *dcl)
{
	size_t pos;
	bool own;

	if (p->t.kind == TK_IDENT) {
		dcl->named = true;
		dcl->name = p->t.start;
		dcl->name_len = p->t.len;
		lex_next(p);
	} else if (tok_punct(p, '(')) {
		struct token after = lex_peek(p);
		bool nested = after.kind == TK_PUNCT &&
			      (p->s[after.start] == '*' || p->s[after.start] == '(');

		if (nested || (ctx == CTX_TOP && after.kind == TK_IDENT &&
			       !names_type(p->s, after))) {
			lex_next(p);
			if (!parse_declarator(p, ctx, dcl) || !expect(p, ')'))
				return false;
		}
	}
	for (;;) {
		pos = p->t.start;
		if (tok_punct(p, '[')) {
			if (!skip_array(p) ||
			    !derivation_add(p, dcl, D_ARRAY, pos))
				return false;
		} else if (tok_punct(p, '(')) {
			own = ctx == CTX_TOP && !p->own_params && dcl->n == 0 &&
			      dcl->named;
			if (own)
				p->own_params = true;
			if (!parse_params(p, own ? CTX_PARAM : CTX_NESTED) ||
			    !derivation_add(p, dcl, D_FUNC, pos))
				return false;
		} else {
			return true;
		}
	}
}

/* Pointers, then the direct declarator; pointers bind after its suffixes. */
static bool parse_declarator(struct parser *p, enum context ctx,
			     struct declarator *dcl)
{
	size_t first = p->t.start;
	unsigned pointers = 0;

	while (tok_punct(p, '*')) {
		pointers++;
		lex_next(p);
		if (!skip_ignored(p))
			return false;
	}
	if (!parse_direct(p, ctx, dcl))
		return false;
	while (pointers-- > 0)
		if (!derivation_add(p, dcl, D_POINTER, first))
			return false;
	return true;
}

/* The annotations before the return type: at most one error convention. */
static bool parse_fn_annotations(struct parser *p, enum annotation *an,
				 size_t *pos, bool *seen)
{
	enum annotation a;
	unsigned n;

	while (tok_punct(p, '[')) {
		size_t at = p->t.start;

		if (!parse_annotation(p, &a, &n))
			return false;
		if (a >= AN_OUT)
			return fail(p, at, "parameter annotations belong before a parameter");
		if (*seen)
			return fail(p, at, "more than one error annotation");
		*seen = true;
		*an = a;
		*pos = at;
	}
	return true;
}

/* Which error convention an annotation means for this return type. */
static bool errno_convention(struct parser *p, enum annotation an, size_t pos)
{
	const struct ptype *r = &p->proto->ret;
	bool ptr = r->kind == CT_POINTER || r->kind == CT_STRING ||
		   r->kind == CT_FILE || r->kind == CT_FUNCPTR;
	bool int4 = (r->kind == CT_INT && r->size == 4) || r->kind == CT_NAMED;
	bool word = (r->kind == CT_INT || r->kind == CT_UINT) &&
		    (r->size == 4 || r->size == 8);
	enum ltr_err *e = &p->proto->err;

	if (r->kind == CT_VOID)
		return fail(p, pos, "an error annotation needs a return value");
	switch (an) {
	case AN_ERRNO:
		if (ptr)
			*e = LTR_ERR_NULL;
		else if (int4)
			*e = LTR_ERR_MINUS1_32;
		else if (r->kind == CT_INT && r->size == 8)
			*e = LTR_ERR_MINUS1_64;
		else
			return fail(p, pos, "[errno] needs an int, long or pointer return (use [errno:-1] for an unsigned one)");
		return true;
	case AN_ERRNO_M1:
		if (!ptr && !word && !int4)
			return fail(p, pos, "[errno:-1] needs an integer of 4 or 8 bytes or a pointer return");
		*e = ptr || r->size == 8 ? LTR_ERR_MINUS1_64 : LTR_ERR_MINUS1_32;
		return true;
	case AN_ERRNO_NULL:
		if (!ptr)
			return fail(p, pos, "[errno:null] needs a pointer return");
		*e = LTR_ERR_NULL;
		return true;
	case AN_ERRNO_NEG:
		if (!int4)
			return fail(p, pos, "[errno:neg] needs an int return");
		*e = LTR_ERR_NEG32;
		return true;
	default:
		if (!int4 && !(r->kind == CT_UINT && r->size == 4))
			return fail(p, pos, "[errnum] needs an int return");
		*e = LTR_ERR_ERRNUM;
		return true;
	}
}

static bool is_integer(const struct ptype *t)
{
	return t->kind == CT_INT || t->kind == CT_UINT;
}

/* Check one parameter's [out] against the rest of the declaration. */
static bool out_check(struct parser *p, size_t i)
{
	const struct proto *pr = p->proto;
	const struct parg *a = &pr->args[i];
	size_t pos = p->annot_col[i] - 1;
	unsigned n = a->out_arg;

	if (a->type.kind == CT_FILE || a->type.kind == CT_FUNCPTR ||
	    a->type.kind == CT_VALIST)
		return fail(p, pos, "[out] needs a pointer to data (not FILE *, va_list or a function pointer)");
	if (a->type.kind != CT_POINTER && a->type.kind != CT_STRING)
		return fail(p, pos, "[out] needs a pointer parameter");
	switch (a->out) {
	case OUT_PLAIN:
		if (a->type.kind == CT_POINTER && a->type.target == CT_VOID)
			return fail(p, pos, "[out] needs to know the size: say [out:ret] or [out:argN] for a void or struct pointer");
		return true;
	case OUT_RET:
		if (!is_integer(&pr->ret))
			return fail(p, pos, "[out:ret] needs an integer return");
		return true;
	default:
		if (n > pr->nargs)
			return failf(p, pos, "[out:arg%u]: there is no parameter %u",
				     n, n);
		if (n == i + 1)
			return failf(p, pos, "[out:arg%u] names its own parameter",
				     n);
		if (!is_integer(&pr->args[n - 1].type))
			return failf(p, pos, "[out:arg%u]: parameter %u is not an integer",
				     n, n);
		return true;
	}
}

/* Checks that need the whole declaration: [out], [format]. */
static bool params_check(struct parser *p)
{
	const struct proto *pr = p->proto;
	unsigned outs = 0;
	size_t i;

	for (i = 0; i < pr->nargs; i++) {
		const struct parg *a = &pr->args[i];
		size_t pos = p->annot_col[i] - 1;

		if (a->format) {
			if (a->type.kind != CT_STRING)
				return fail(p, pos, "[format] needs a char * parameter");
			if (!pr->variadic || i + 1 != pr->nargs)
				return fail(p, pos, "[format] belongs on the last parameter before '...'");
		}
		if (a->out == OUT_NONE)
			continue;
		if (++outs > LTR_MAX_OUT)
			return failf(p, pos, "too many [out] parameters (at most %d)",
				     LTR_MAX_OUT);
		if (!out_check(p, i))
			return false;
	}
	return true;
}

/* The declaration after its annotations: the return type, name, parameters. */
static bool parse_function(struct parser *p)
{
	struct proto *pr = p->proto;
	struct declarator dcl = { .n = 0 };
	struct spec sp;

	pr->ret_col = (unsigned)p->t.start + 1;
	if (!parse_specifiers(p, &sp) || !parse_declarator(p, CTX_TOP, &dcl) ||
	    !skip_ignored(p))
		return false;
	if (!dcl.named && sp.base == BK_NAMED)
		return fail(p, sp.start, "expected the return type before the function's name");
	if (!dcl.named)
		return fail(p, p->t.start, "expected the function's name");
	if (dcl.n == 0)
		return fail(p, p->t.start, "expected '(' and the parameters after the function's name");
	if (dcl.d[0] != D_FUNC)
		return fail(p, dcl.name, "not a function (a pointer or an array)");
	if (tok_punct(p, ';'))
		lex_next(p);
	if (p->t.kind != TK_END)
		return fail(p, p->t.start, p->t.kind == TK_BAD
						   ? "unexpected character"
						   : "expected the end of the declaration");
	if (!type_make(p, &sp, &dcl, 1, false, &pr->ret))
		return false;
	if (!(pr->name = strndup(p->s + dcl.name, dcl.name_len)))
		return fail(p, dcl.name, "out of memory");
	return params_check(p);
}

bool proto_parse(const char *decl, struct proto *pr, unsigned *errcol,
		 const char **err)
{
	struct parser p = { .s = decl, .proto = pr };
	const char *file = pr->file;
	unsigned line = pr->line, col = pr->col;
	enum annotation an = AN_ERRNO;
	bool annotated = false, ok;
	size_t an_pos = 0;

	memset(pr, 0, sizeof(*pr));
	pr->file = file;
	pr->line = line;
	pr->col = col;
	lex_next(&p);
	ok = parse_fn_annotations(&p, &an, &an_pos, &annotated);
	if (ok && p.t.kind == TK_END)
		ok = fail(&p, p.t.start, "empty declaration");
	ok = ok && parse_function(&p) &&
	     (!annotated || errno_convention(&p, an, an_pos));
	if (!ok) {
		proto_free(pr);
		*err = p.err;
		*errcol = p.errcol;
	}
	return ok;
}

void proto_free(struct proto *pr)
{
	size_t i;

	free(pr->name);
	pr->name = NULL;
	free(pr->ret.named);
	pr->ret.named = NULL;
	for (i = 0; i < pr->nargs; i++) {
		free(pr->args[i].name);
		free(pr->args[i].type.named);
	}
	memset(pr->args, 0, sizeof(pr->args));
	pr->nargs = 0;
}
