/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prototype-parser.h: what the files of the prototype parser share (the
 * lexer, the type specifiers, the checks); not for the rest of ltruss,
 * which uses prototype.h.
 *
 * The parser (bin/libprototype.a) allocates with malloc and reports a
 * failure as a parse error ("out of memory") instead of using xmalloc:
 * it depends on libc alone, so that the prototype fuzz harness
 * (maint/fuzz) links it without ltruss's error.c, and each caller decides
 * what a failed parse costs.
 */
#ifndef LTRUSS_PROTOTYPE_PARSER_H
#define LTRUSS_PROTOTYPE_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "prototype.h"

/* What the specifiers of a declaration name, before any '*'. */
enum base_kind {
	BK_NONE = 0,
	BK_VOID,
	BK_INT,	  /* signed integer of size bytes */
	BK_UINT,  /* unsigned integer of size bytes */
	BK_OCTAL, /* unsigned integer printed in octal (mode_t) */
	BK_CHAR,  /* plain char */
	BK_SCHAR, /* signed char: an integer, but its pointers are strings */
	BK_TEXT,  /* unsigned char whose pointers are strings (xmlChar) */
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
	BK_ENUM,  /* enum X: an int */
	BK_NAMED, /* any other identifier */
};

/* The annotations, as written between brackets. */
enum annotation {
	AN_ERRNO,
	AN_ERRNO_M1,
	AN_ERRNO_NULL,
	AN_ERRNO_NEG,
	AN_ERRNUM,
	AN_OUT,
	AN_OUT_RET,
	AN_OUT_ARG,
	AN_IF,
	AN_FORMAT,
	AN_IN_ARG,
	AN_STRUCT,
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
	CTX_NESTED, /* a parameter of a function pointer type: parsed, dropped
		     */
};

enum derivation { D_POINTER, D_ARRAY, D_FUNC };

#define DECL_DEPTH 8
/* Declarators read one inside another: parentheses, parameters' types. */
#define DECL_NESTING 32

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
	size_t start;	       /* where the specifiers start */
	bool is_const;	       /* const among them: a const char * */
};

struct parser {
	const char *s;
	size_t next;	/* where the token after t starts scanning */
	struct token t; /* the current token */
	struct proto *proto;
	struct parg args[PROTO_MAX_ARGS]; /* proto->args while parsing */
	bool own_params; /* the function's own parameters were read */
	unsigned nesting; /* declarators being read (at most DECL_NESTING) */
	unsigned consts;  /* const qualifiers skipped so far */
	unsigned annot_col[PROTO_MAX_ARGS]; /* column of each parameter's
					       annotation */
	const char *err;
	unsigned errcol;
};

/* prototype-lex.c: tokens, and the first error of a parse. */
bool proto_fail(struct parser *p, size_t pos, const char *msg);
bool proto_failf(struct parser *p, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct token proto_lex_at(const char *s, size_t pos);
void proto_lex_next(struct parser *p);
struct token proto_lex_peek(const struct parser *p);
bool proto_token_is(const char *s, struct token t, const char *word);
bool proto_token_in(const char *s, struct token t, const char *const *words,
		    size_t n);
bool proto_token_ignored(const char *s, struct token t);
bool proto_tok_punct(const struct parser *p, char c);
bool proto_tok_is(const struct parser *p, const char *word);
bool proto_tok_in(const struct parser *p, const char *const *words, size_t n);
bool proto_expect(struct parser *p, char c);
bool proto_skip_ignored(struct parser *p);

/* prototype-type.c: specifiers and the types they derive. */
bool proto_names_type(const char *s, struct token t);
bool proto_specifiers(struct parser *p, struct spec *sp);
bool proto_type(struct parser *p, const struct spec *sp,
		const struct declarator *dcl, unsigned from, bool param,
		struct ptype *t);

/* prototype-check.c: what needs the whole declaration. */
bool proto_check_errno(struct parser *p, enum annotation an, size_t pos);
bool proto_check_params(struct parser *p);

#endif
