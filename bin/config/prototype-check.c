/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prototype-check.c: the checks of a declaration's annotations against its
 * types. */
#include "config.h"

#include "prototype-parser.h"

/* Which error convention an annotation means for this return type. */
bool proto_check_errno(struct parser *p, enum annotation an, size_t pos)
{
	const struct ptype *r = &p->proto->ret;
	bool ptr = r->kind == CT_POINTER || r->kind == CT_STRING ||
		   r->kind == CT_FILE || r->kind == CT_FUNCPTR;
	bool int4 = (r->kind == CT_INT && r->size == 4) || r->kind == CT_NAMED;
	bool word = (r->kind == CT_INT || r->kind == CT_UINT) &&
		    (r->size == 4 || r->size == 8);
	enum ltr_err *e = &p->proto->err;

	if (r->kind == CT_VOID)
		return proto_fail(p, pos,
				  "an error annotation needs a return value");
	switch (an) {
	case AN_ERRNO:
		if (ptr)
			*e = LTR_ERR_NULL;
		else if (int4)
			*e = LTR_ERR_MINUS1_32;
		else if (r->kind == CT_INT && r->size == 8)
			*e = LTR_ERR_MINUS1_64;
		else
			return proto_fail(
			    p, pos,
			    "[errno] needs an int, long or pointer return (use "
			    "[errno:-1] for an unsigned one)");
		return true;
	case AN_ERRNO_M1:
		if (!ptr && !word && !int4)
			return proto_fail(p, pos,
					  "[errno:-1] needs an integer of 4 or "
					  "8 bytes or a pointer return");
		*e =
		    ptr || r->size == 8 ? LTR_ERR_MINUS1_64 : LTR_ERR_MINUS1_32;
		return true;
	case AN_ERRNO_NULL:
		if (!ptr)
			return proto_fail(
			    p, pos, "[errno:null] needs a pointer return");
		*e = LTR_ERR_NULL;
		return true;
	case AN_ERRNO_NEG:
		if (!int4)
			return proto_fail(p, pos,
					  "[errno:neg] needs an int return");
		*e = LTR_ERR_NEG32;
		return true;
	default:
		if (!int4 && !(r->kind == CT_UINT && r->size == 4))
			return proto_fail(p, pos,
					  "[errnum] needs an int return");
		*e = LTR_ERR_ERRNUM;
		return true;
	}
}

static bool is_integer(const struct ptype *t)
{
	return t->kind == CT_INT || t->kind == CT_UINT;
}

/* Check parameter n (1-based), the length of parameter i's [what:argN]. */
static bool len_arg_check(struct parser *p, size_t pos, const char *what,
			  unsigned n, size_t i)
{
	const struct proto *pr = p->proto;

	if (n > pr->nargs)
		return proto_failf(p, pos, "[%s:arg%u]: there is no parameter %u",
				   what, n, n);
	if (n == i + 1)
		return proto_failf(p, pos, "[%s:arg%u] names its own parameter",
				   what, n);
	if (!is_integer(&pr->args[n - 1].type))
		return proto_failf(p, pos,
				   "[%s:arg%u]: parameter %u is not an integer",
				   what, n, n);
	return true;
}

/* Check one parameter's [in:argN]: a pointer, the only one. */
static bool in_check(struct parser *p, size_t i, unsigned *ins)
{
	const struct parg *a = &p->proto->args[i];
	size_t pos = p->annot_col[i] - 1;

	if (a->type.kind != CT_POINTER && a->type.kind != CT_STRING)
		return proto_fail(p, pos, "[in:argN] needs a pointer parameter");
	if (++*ins > 1)
		return proto_fail(p, pos, "one [in:argN] parameter at most");
	return len_arg_check(p, pos, "in", a->in_arg, i);
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
		return proto_fail(p, pos,
				  "[out] needs a pointer to data (not FILE *, "
				  "va_list or a function pointer)");
	if (a->type.kind != CT_POINTER && a->type.kind != CT_STRING)
		return proto_fail(p, pos, "[out] needs a pointer parameter");
	switch (a->out) {
	case OUT_PLAIN:
		if (a->type.kind == CT_POINTER && a->type.target == CT_VOID)
			return proto_fail(
			    p, pos,
			    "[out] needs to know the size: say [out:ret] or "
			    "[out:argN] for a void or struct pointer");
		return true;
	case OUT_RET:
		if (!is_integer(&pr->ret))
			return proto_fail(p, pos,
					  "[out:ret] needs an integer return");
		return true;
	default:
		return len_arg_check(p, pos, "out", n, i);
	}
}

/*
 * A char * parameter without const is a buffer the function writes
 * (getcwd, fgets, strcpy's destination, mkstemp's template): at entry it
 * holds nothing yet, or what the call will change.  It is printed on
 * return, as [out] would, in the output slots the annotations and a
 * returned string leave free; a const char * is an input, read at entry.
 */
static void buffers_out(struct proto *pr, unsigned outs)
{
	unsigned used = outs + (pr->ret.kind == CT_STRING);
	unsigned room = used < LTR_MAX_OUT ? LTR_MAX_OUT - used : 0;
	size_t i;

	for (i = 0; i < pr->nargs && room; i++) {
		struct parg *a = &pr->args[i];

		if (a->type.kind == CT_STRING && a->type.writable &&
		    a->out == OUT_NONE && a->in == IN_NONE && !a->format) {
			a->out = OUT_PLAIN;
			room--;
		}
	}
}

/* Checks that need the whole declaration: [out], [in], [struct], [format], [if]. */
bool proto_check_params(struct parser *p)
{
	const struct proto *pr = p->proto;
	unsigned outs = 0, ins = 0, structs = 0;
	size_t i;

	for (i = 0; i < pr->nargs; i++) {
		const struct parg *a = &pr->args[i];
		size_t pos = p->annot_col[i] - 1;

		if (a->format) {
			if (a->type.kind != CT_STRING)
				return proto_fail(
				    p, pos,
				    "[format] needs a char * parameter");
			if (!pr->variadic || i + 1 != pr->nargs)
				return proto_fail(
				    p, pos,
				    "[format] belongs on the last parameter "
				    "before '...'");
		}
		if (a->if_arg &&
		    (a->if_arg > pr->nargs || a->if_arg == i + 1 ||
		     pr->args[a->if_arg - 1].type.kind != CT_NAMED))
			return proto_failf(
			    p, pos,
			    "[if:arg%u:...] needs another parameter of a "
			    "named flags or enum type",
			    a->if_arg);
		if (a->in != IN_NONE && !in_check(p, i, &ins))
			return false;
		if (a->st.size) {
			if (a->type.kind != CT_POINTER)
				return proto_fail(p, pos, "[struct:...] needs a pointer parameter");
			if (++structs > 1)
				return proto_fail(p, pos, "one [struct:...] parameter at most");
			/* Copied on return too, in an output slot. */
			if (++outs > LTR_MAX_OUT)
				return proto_failf(
				    p, pos, "too many [out] parameters (at most %d)",
				    LTR_MAX_OUT);
			continue;
		}
		if (a->out == OUT_NONE)
			continue;
		if (++outs > LTR_MAX_OUT)
			return proto_failf(
			    p, pos, "too many [out] parameters (at most %d)",
			    LTR_MAX_OUT);
		if (!out_check(p, i))
			return false;
	}
	buffers_out(p->proto, outs);
	return true;
}
