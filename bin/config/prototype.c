/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype.c: parse one C declaration, with ltruss's annotations, into a
 * struct proto. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "prototype-parser.h"

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
 *   annotation  := '[out]' | '[out:ret]' | '[out:argN]' | '[in:argN]'
 *                | '[struct:SIZE(,in:P/L|,out:P/L)*]' | '[format]'
 *                | '[if:argN:NAME|NAME...]'
 *
 * A declarator is read into the list of derivations that lead from its
 * name to the base type ("f is a function returning a pointer to int" is
 * FUNC, POINTER over int), which is then folded into a struct ptype.  The
 * first parameter list that follows the name itself is the function's own;
 * the lists of function pointer types are parsed and dropped.
 */

/* The annotations, as written between brackets. */
static const struct {
	const char *text;
	enum annotation an;
} annotations[] = {
    {"errno", AN_ERRNO},	   {"errno:-1", AN_ERRNO_M1},
    {"errno:null", AN_ERRNO_NULL}, {"errno:neg", AN_ERRNO_NEG},
    {"errnum", AN_ERRNUM},	   {"out", AN_OUT},
    {"out:ret", AN_OUT_RET},	   {"format", AN_FORMAT},
};

static bool parse_declarator(struct parser *p, enum context ctx,
			     struct declarator *dcl);
static bool parse_declarator_at(struct parser *p, enum context ctx,
				struct declarator *dcl);

/* Append a derivation to the declarator. */
static bool derivation_add(struct parser *p, struct declarator *dcl,
			   enum derivation d, size_t pos)
{
	if (dcl->n == DECL_DEPTH)
		return proto_fail(p, pos, "declarator nested too deep");
	dcl->d[dcl->n++] = d;
	return true;
}

/*
 * Read the N of "out:argN", "in:argN" or "if:argN:NAMES" at text (len bytes, its
 * prefix plen bytes long) into *arg; *rest is what follows N.
 */
static bool annotation_argno(struct parser *p, const char *text, size_t len,
			     size_t plen, unsigned *arg, const char **rest)
{
	char *digits_end;
	unsigned long n;

	if (text[plen] < '0' || text[plen] > '9')
		return proto_failf(p, p->t.start, "[%.*sN] needs a parameter number",
				   (int)plen, text);
	n = strtoul(text + plen, &digits_end, 10);
	if (digits_end > text + len || n == 0 || n > PROTO_MAX_ARGS)
		return proto_failf(p, p->t.start,
				   "[%.*sN] needs a parameter number from 1 to %d",
				   (int)plen, text, PROTO_MAX_ARGS);
	*arg = (unsigned)n;
	*rest = digits_end;
	return true;
}

/* "out:argN" or "in:argN" (its prefix plen bytes): N alone, into *arg. */
static bool annotation_len_arg(struct parser *p, const char *text, size_t len,
			       size_t plen, unsigned *arg)
{
	const char *rest = NULL;

	if (!annotation_argno(p, text, len, plen, arg, &rest))
		return false;
	if (rest != text + len)
		return proto_failf(p, p->t.start,
				   "[%.*sN] needs a parameter number from 1 to %d",
				   (int)plen, text, PROTO_MAX_ARGS);
	return true;
}

/*
 * "if:argN:NAME|NAME...": the names, which must be identifiers, into
 * *names (malloc'd).
 */
static bool annotation_if(struct parser *p, const char *text, size_t len,
			  unsigned *arg, char **names)
{
	const char *rest = NULL, *end = text + len, *s;

	if (!annotation_argno(p, text, len, 6, arg, &rest))
		return false;
	if (rest >= end || *rest != ':' || rest + 1 == end)
		return proto_fail(p, p->t.start,
				  "[if:argN:NAMES] needs the names of values, "
				  "separated by '|'");
	for (s = ++rest; s < end; s++)
		if (!(*s == '|' || *s == '_' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
			return proto_fail(p, p->t.start,
					  "[if:argN:NAMES] needs the names of "
					  "values, separated by '|'");
	*names = strndup(rest, (size_t)(end - rest));
	if (!*names)
		return proto_fail(p, p->t.start, "out of memory");
	return true;
}

/* Read an annotation; the current token is its '['. */
static bool parse_annotation(struct parser *p, enum annotation *an,
			     unsigned *arg, char **names)
{
	const char *text = p->s + p->t.start + 1;
	const char *end = strchr(text, ']');
	size_t len, i;

	if (!end)
		return proto_fail(p, p->t.start,
				  "unterminated annotation: expected ']'");
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
	if (i < sizeof(annotations) / sizeof(*annotations)) {
		/* found */
	} else if (len > 6 && memcmp(text, "if:arg", 6) == 0) {
		if (!annotation_if(p, text, len, arg, names))
			return false;
		*an = AN_IF;
	} else if (len > 7 && memcmp(text, "out:arg", 7) == 0 &&
		   text[7] >= '0' && text[7] <= '9') {
		if (!annotation_len_arg(p, text, len, 7, arg))
			return false;
		*an = AN_OUT_ARG;
	} else if (len > 6 && memcmp(text, "in:arg", 6) == 0 &&
		   text[6] >= '0' && text[6] <= '9') {
		if (!annotation_len_arg(p, text, len, 6, arg))
			return false;
		*an = AN_IN_ARG;
	} else if (len > 7 && memcmp(text, "struct:", 7) == 0) {
		*names = strndup(text + 7, len - 7);
		if (!*names)
			return proto_fail(p, p->t.start, "out of memory");
		*an = AN_STRUCT;
	} else {
		return proto_failf(p, p->t.start, "unknown annotation [%.*s]",
				   (int)(len > 40 ? 40 : len), text);
	}
	p->next = (size_t)(end - p->s) + 1;
	proto_lex_next(p);
	return true;
}

/* Read a number of [struct:...] at *s (moved past it) into *n, at most max. */
static bool struct_number(const char **s, unsigned max, unsigned *n)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return false;
	v = strtoul(*s, &end, 10);
	*s = end;
	*n = (unsigned)v;
	return v <= max;
}

/*
 * The spec of [struct:SPEC] ("112,in:0/8,out:24/32") into st; pos is the
 * annotation's column, for errors.
 */
static bool struct_spec(struct parser *p, size_t pos, const char *spec,
			struct pstruct *st)
{
	static const char usage[] =
		"[struct:SIZE,in:P/L,out:P/L] needs a size from 8 to 255 and "
		"at most 2 in and 2 out buffers, each the byte offsets of its "
		"pointer and of its 32-bit length within the struct";
	const char *s = spec;
	unsigned ptr, len;

	if (!struct_number(&s, 255, &st->size) || st->size < 8)
		return proto_fail(p, pos, usage);
	while (*s == ',') {
		bool in = strncmp(s + 1, "in:", 3) == 0;

		if (!in && strncmp(s + 1, "out:", 4) != 0)
			return proto_fail(p, pos, usage);
		s += in ? 4 : 5;
		if (!struct_number(&s, st->size - 8, &ptr) || *s++ != '/' ||
		    !struct_number(&s, st->size - 4, &len) ||
		    (in ? st->nin : st->nout) == PROTO_STRUCT_BUFS)
			return proto_fail(p, pos, usage);
		if (in)
			st->in[st->nin++] = (typeof(st->in[0])){ (uint8_t)ptr, (uint8_t)len };
		else
			st->out[st->nout++] = (typeof(st->out[0])){ (uint8_t)ptr, (uint8_t)len };
	}
	if (*s)
		return proto_fail(p, pos, usage);
	return true;
}

/* The annotations of a parameter, stored in arg; pos is where it starts. */
static bool parse_param_annotations(struct parser *p, enum context ctx,
				    struct parg *arg, unsigned *col)
{
	enum annotation an;
	unsigned n = 0;
	char *names = NULL;
	size_t pos;

	while (proto_tok_punct(p, '[')) {
		pos = p->t.start;
		if (!parse_annotation(p, &an, &n, &names))
			return false;
		if (ctx != CTX_PARAM || an < AN_OUT ||
		    arg->out != OUT_NONE || arg->in != IN_NONE ||
		    arg->st.size || arg->format || arg->if_arg) {
			free(names);
			return proto_fail(
			    p, pos,
			    ctx != CTX_PARAM ? "annotations belong on the "
					       "function's own parameters"
			    : an < AN_OUT ? "error annotations belong before "
					    "the return type"
					  : "a parameter takes one annotation");
		}
		if (an == AN_IF) {
			arg->if_arg = n;
			arg->if_names = names;
			names = NULL;
		}
		if (an == AN_STRUCT) {
			bool ok = struct_spec(p, pos, names, &arg->st);

			free(names);
			names = NULL;
			if (!ok)
				return false;
		}
		arg->format = an == AN_FORMAT;
		arg->out = an == AN_OUT	      ? OUT_PLAIN
			   : an == AN_OUT_RET ? OUT_RET
			   : an == AN_OUT_ARG ? OUT_ARG
					      : OUT_NONE;
		arg->out_arg = an == AN_OUT_ARG ? n : 0;
		arg->in = an == AN_IN_ARG ? IN_ARG : IN_NONE;
		arg->in_arg = an == AN_IN_ARG ? n : 0;
		*col = (unsigned)pos + 1;
	}
	return true;
}

/* One parameter: of the function itself (stored) or of a nested type. */
static bool parse_param(struct parser *p, enum context ctx)
{
	struct proto *pr = p->proto;
	struct parg arg = {.col = (unsigned)p->t.start + 1};
	struct declarator dcl = {.n = 0};
	unsigned annot_col = 0;
	struct spec sp;

	if (!parse_param_annotations(p, ctx, &arg, &annot_col))
		goto drop;
	if (!proto_specifiers(p, &sp) || !parse_declarator(p, ctx, &dcl) ||
	    !proto_skip_ignored(p) || ctx == CTX_NESTED)
		goto drop;
	if (pr->nargs == PROTO_MAX_ARGS) {
		proto_failf(p, arg.col - 1, "too many parameters (at most %d)",
			    PROTO_MAX_ARGS);
		goto drop;
	}
	if (!proto_type(p, &sp, &dcl, 0, true, &arg.type))
		goto drop;
	if (dcl.named && !(arg.name = strndup(p->s + dcl.name, dcl.name_len))) {
		free(arg.type.named);
		proto_fail(p, arg.col - 1, "out of memory");
		goto drop;
	}
	p->annot_col[pr->nargs] = annot_col;
	pr->args[pr->nargs++] = arg;
	return true;
drop:
	/* Not kept (a nested type's parameter, or an error). */
	free(arg.if_names);
	return ctx == CTX_NESTED && !p->err;
}

/* A parameter list; the current token is its '('. */
static bool parse_params(struct parser *p, enum context ctx)
{
	struct token after;
	unsigned count = 0;

	proto_lex_next(p);
	after = proto_lex_peek(p);
	if (proto_tok_is(p, "void") && after.kind == TK_PUNCT &&
	    p->s[after.start] == ')') {
		proto_lex_next(p);
	} else if (!proto_tok_punct(p, ')')) {
		for (;;) {
			if (p->t.kind == TK_ELLIPSIS) {
				if (count == 0)
					return proto_fail(
					    p, p->t.start,
					    "'...' needs a parameter before "
					    "it");
				if (ctx == CTX_PARAM)
					p->proto->variadic = true;
				proto_lex_next(p);
				if (!proto_tok_punct(p, ')'))
					return proto_fail(
					    p, p->t.start,
					    "'...' must be the last parameter");
				break;
			}
			if (!parse_param(p, ctx))
				return false;
			count++;
			if (proto_tok_punct(p, ')'))
				break;
			if (!proto_tok_punct(p, ','))
				return proto_fail(p, p->t.start,
						  "expected ',' or ')'");
			proto_lex_next(p);
		}
	}
	return proto_expect(p, ')');
}

/* Skip an array's [...]; the current token is its '['. */
static bool skip_array(struct parser *p)
{
	size_t open = p->t.start;

	proto_lex_next(p);
	while (!proto_tok_punct(p, ']')) {
		if (p->t.kind == TK_END || proto_tok_punct(p, '[') ||
		    proto_tok_punct(p, ';'))
			return proto_fail(p, open,
					  "unterminated '[': expected ']'");
		proto_lex_next(p);
	}
	proto_lex_next(p);
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
		proto_lex_next(p);
	} else if (proto_tok_punct(p, '(')) {
		struct token after = proto_lex_peek(p);
		bool nested =
		    after.kind == TK_PUNCT &&
		    (p->s[after.start] == '*' || p->s[after.start] == '(');

		if (nested || (ctx == CTX_TOP && after.kind == TK_IDENT &&
			       !proto_names_type(p->s, after))) {
			proto_lex_next(p);
			if (!parse_declarator(p, ctx, dcl) ||
			    !proto_expect(p, ')'))
				return false;
		}
	}
	for (;;) {
		pos = p->t.start;
		if (proto_tok_punct(p, '[')) {
			if (!skip_array(p) ||
			    !derivation_add(p, dcl, D_ARRAY, pos))
				return false;
		} else if (proto_tok_punct(p, '(')) {
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

/*
 * Pointers, then the direct declarator; pointers bind after its suffixes.
 * Declarators nest through parentheses and through the parameters of
 * function pointer types, and each level is a recursion: bound it, or
 * "((((...x" long enough would overflow the stack.
 */
static bool parse_declarator(struct parser *p, enum context ctx,
			     struct declarator *dcl)
{
	bool ok;

	if (p->nesting == DECL_NESTING)
		return proto_fail(p, p->t.start, "declarator nested too deep");
	p->nesting++;
	ok = parse_declarator_at(p, ctx, dcl);
	p->nesting--;
	return ok;
}

/* parse_declarator() at one level of nesting. */
static bool parse_declarator_at(struct parser *p, enum context ctx,
				struct declarator *dcl)
{
	size_t first = p->t.start;
	unsigned pointers = 0;

	while (proto_tok_punct(p, '*')) {
		pointers++;
		proto_lex_next(p);
		if (!proto_skip_ignored(p))
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
	char *names = NULL;
	unsigned n;

	while (proto_tok_punct(p, '[')) {
		size_t at = p->t.start;

		if (!parse_annotation(p, &a, &n, &names))
			return false;
		free(names);
		if (a >= AN_OUT)
			return proto_fail(
			    p, at,
			    "parameter annotations belong before a parameter");
		if (*seen)
			return proto_fail(p, at,
					  "more than one error annotation");
		*seen = true;
		*an = a;
		*pos = at;
	}
	return true;
}

/* The declaration after its annotations: the return type, name, parameters. */
static bool parse_function(struct parser *p)
{
	struct proto *pr = p->proto;
	struct declarator dcl = {.n = 0};
	struct spec sp;

	pr->ret_col = (unsigned)p->t.start + 1;
	if (!proto_specifiers(p, &sp) || !parse_declarator(p, CTX_TOP, &dcl) ||
	    !proto_skip_ignored(p))
		return false;
	if (!dcl.named && sp.base == BK_NAMED)
		return proto_fail(
		    p, sp.start,
		    "expected the return type before the function's name");
	if (!dcl.named)
		return proto_fail(p, p->t.start,
				  "expected the function's name");
	if (dcl.n == 0)
		return proto_fail(p, p->t.start,
				  "expected '(' and the parameters after the "
				  "function's name");
	if (dcl.d[0] != D_FUNC)
		return proto_fail(p, dcl.name,
				  "not a function (a pointer or an array)");
	if (proto_tok_punct(p, ';'))
		proto_lex_next(p);
	if (p->t.kind != TK_END)
		return proto_fail(p, p->t.start,
				  p->t.kind == TK_BAD
				      ? "unexpected character"
				      : "expected the end of the declaration");
	if (!proto_type(p, &sp, &dcl, 1, false, &pr->ret))
		return false;
	if (!(pr->name = strndup(p->s + dcl.name, dcl.name_len)))
		return proto_fail(p, dcl.name, "out of memory");
	return proto_check_params(p);
}

/*
 * Move the parameters read into an array of their own size.  Thousands of
 * prototypes stay loaded for the whole run, most with two or three of the
 * PROTO_MAX_ARGS parameters a parse has room for; the fixed array made the
 * shipped set 4 MiB, and the start of every run paid its page faults.
 */
static bool keep_params(struct parser *p)
{
	struct proto *pr = p->proto;
	size_t size = pr->nargs * sizeof(*pr->args), i;

	pr->args = NULL;
	if (!pr->nargs)
		return true;
	pr->args = malloc(size);
	if (pr->args) {
		memcpy(pr->args, p->args, size);
		return true;
	}
	for (i = 0; i < pr->nargs; i++) {
		free(p->args[i].name);
		free(p->args[i].type.named);
		free(p->args[i].if_names);
	}
	pr->nargs = 0;
	return proto_fail(p, 0, "out of memory");
}

bool proto_parse(const char *decl, struct proto *pr, unsigned *errcol,
		 const char **err)
{
	struct parser p = {.s = decl, .proto = pr};
	const char *file = pr->file;
	unsigned line = pr->line, col = pr->col;
	enum annotation an = AN_ERRNO;
	bool annotated = false, ok;
	size_t an_pos = 0;

	memset(pr, 0, sizeof(*pr));
	pr->file = file;
	pr->line = line;
	pr->col = col;
	pr->args = p.args;
	proto_lex_next(&p);
	ok = parse_fn_annotations(&p, &an, &an_pos, &annotated);
	if (ok && p.t.kind == TK_END)
		ok = proto_fail(&p, p.t.start, "empty declaration");
	ok = ok && parse_function(&p) &&
	     (!annotated || proto_check_errno(&p, an, an_pos));
	ok = keep_params(&p) && ok;
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
		free(pr->args[i].if_names);
		free(pr->args[i].if_values);
	}
	free(pr->args);
	pr->args = NULL;
	pr->nargs = 0;
}
