/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-quick.c: values whose text is a number alone, printed at once.
 *
 * Integers, pointers and the registers of a call without prototype are
 * most of a trace's values.  Their function's view (format-view.h) says
 * how each prints; printed here straight to the line, they skip
 * args_value's dispatch, its bounded buffer and its NUL, and a call whose
 * values all are (args_call_quick_text, _json) is printed in one pass.
 */
#include "config.h"

#include <string.h>

#include "format.h"
#include "format-args.h"
#include "format-value.h"
#include "format-view.h"

/* Value v printed at dst as q says (not Q_NONE); its length. */
static inline __attribute__((always_inline)) size_t
quick_at(char *dst, struct quick q, uint64_t v)
{
	int64_t sv;
	unsigned n;

	switch (q.kind) {
	case Q_RAW: /* put_raw */
		if (v)
			return format_hex_at(dst, v);
		*dst = '0';
		return 1;
	case Q_POINTER: /* put_pointer */
		if (v)
			return format_hex_at(dst, v);
		memcpy(dst, "NULL", 4);
		return 4;
	case Q_SIGNED: /* put_signed */
		sv = sign_extend(v, q.size);
		v = sv < 0 ? 0 - (uint64_t)sv : (uint64_t)sv;
		n = format_decimal_digits(v);
		*dst = '-';
		format_decimal_at(dst + (sv < 0), v, n);
		return (sv < 0) + n;
	case Q_UNSIGNED: /* put_decimal */
		v = zero_extend(v, q.size);
		n = format_decimal_digits(v);
		format_decimal_at(dst, v, n);
		return n;
	case Q_VOID:
		memcpy(dst, "<void>", 6);
		return 6;
	}
	return 0;
}

size_t args_value_quick(char *dst, const struct call *c, unsigned i)
{
	const struct fn_view *view = view_of(c);
	struct quick q;

	if (!view->p)
		return i < RAW_ARGS
			       ? quick_at(dst, (struct quick){ Q_RAW, 8, 0 },
					  c->args[i])
			       : 0;
	if (i >= view->p->nargs || i >= PROTO_MAX_ARGS)
		return 0;
	q = view->quick[i];
	return q.kind ? quick_at(dst, q, c->args[q.reg]) : 0;
}

/* Value v at dst as q says, between quotes when json, then sep (len 1 or 2); the end. */
static inline char *quick_item(char *dst, struct quick q, uint64_t v,
			       bool json, const char *sep)
{
	*dst = '"';
	dst += json;
	dst += quick_at(dst, q, v);
	*dst = '"';
	dst += json;
	memcpy(dst, sep, 2);
	return dst + 1 + !json;
}

/*
 * Every value of c at dst as args_list_quick says, each followed by its
 * separator; the end, or NULL when some value is not quick.  Inline, for
 * json known when compiling: its separators are stored as constants.
 */
static inline __attribute__((always_inline)) char *
list_quick(char *dst, const struct fn_view *view, const struct call *c,
	   bool json)
{
	const char *sep = json ? "," : ", ";
	unsigned i, n;

	if (!view->p) {
		/* A few registers, stored unrolled. */
#pragma GCC unroll 8
		for (i = 0; i < RAW_ARGS; i++)
			dst = quick_item(dst, (struct quick){ Q_RAW, 8, 0 },
					 c->args[i], json, sep);
		return dst;
	}
	/* args_count's varargs: a blob only printf-like calls have. */
	if (!view->all_quick || (c->blobs_len && varargs_blob(c)))
		return NULL;
	n = (unsigned)view->p->nargs;
	for (i = 0; i < n; i++)
		dst = quick_item(dst, view->quick[i],
				 c->args[view->quick[i].reg], json, sep);
	return dst;
}

bool args_list_quick(char *dst, const struct call *c, bool json, size_t *len)
{
	char *p = list_quick(dst, view_of(c), c, json);

	if (!p)
		return false;
	/* No separator after the last. */
	*len = p == dst ? 0 : (size_t)(p - dst) - (json ? 1 : 2);
	return true;
}

size_t args_return_quick(char *dst, const struct call *c,
			 const struct result *r)
{
	const struct fn_view *view = view_of(c);

	if (!view->p)
		return quick_at(dst, (struct quick){ Q_RAW, 8, 0 }, r->rax);
	return view->quick_ret.kind ? quick_at(dst, view->quick_ret, r->rax)
				    : 0;
}

/*
 * args_call_quick_text and _json: the list, what joins it to the
 * returned value (mid, its length known when compiling), the value, and
 * for JSON its closing quote, in one pass over one view.
 */
static inline __attribute__((always_inline)) size_t
call_quick(char *dst, const struct call *c, const struct result *r,
	   bool json, const char *mid, size_t mid_len)
{
	const struct fn_view *view = view_of(c);
	struct quick q = { Q_RAW, 8, 0 };
	char *p;

	if (!r->returned || r->failed)
		return 0;
	if (view->p && !(q = view->quick_ret).kind)
		return 0;
	if (!(p = list_quick(dst, view, c, json)))
		return 0;
	/* Over the last separator. */
	if (p != dst)
		p -= json ? 1 : 2;
	memcpy(p, mid, mid_len);
	p += mid_len;
	p += quick_at(p, q, r->rax);
	*p = '"';
	return (size_t)(p + json - dst);
}

size_t args_call_quick_text(char *dst, const struct call *c,
			    const struct result *r)
{
	return call_quick(dst, c, r, false, ") = ", 4);
}

size_t args_call_quick_json(char *dst, const struct call *c,
			    const struct result *r)
{
	return call_quick(dst, c, r, true, "],\"ret\":\"", 9);
}

