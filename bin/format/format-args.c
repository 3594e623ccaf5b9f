/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-args.c: print argument and return values by their prototype.
 *
 * Each value comes from where the calling convention put it (bin/config/abi.c):
 * an integer register of the ENTER event, or a blob the interposer copied
 * at the call (float registers, stack words, strings, output buffers,
 * printf varargs; lib/args.c).  Strings are quoted and escaped as strace
 * does and end in "..." when -s cut them; memory that could not be read
 * prints as its address.  A function without a prototype shows its first
 * three integer registers and %rax in hex, as truss -u does.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/printf-walk.h"
#include "abi.h"
#include "captures.h"
#include "catalog.h"
#include "call-blobs.h"
#include "format-args.h"
#include "format-value.h"
#include "format-view.h"
#include "session-check.h"
#include "symbolize.h"

/*
 * How a value of type t prints when it is a number alone (put_scalar's
 * integers and pointers), or Q_NONE.
 */
static struct quick quick_of(const struct ptype *t)
{
	struct quick q = { Q_NONE, t->size, 0 };

	switch (t->kind) {
	case CT_INT:
		q.kind = Q_SIGNED;
		break;
	case CT_UINT:
		if (!t->octal)
			q.kind = Q_UNSIGNED;
		break;
	case CT_POINTER:
	case CT_FILE:
	case CT_VALIST:
		q.kind = Q_POINTER;
		break;
	default:
		break;
	}
	return q;
}

/* Fill in how v's parameters and return print when quick (quick_of). */
static void view_fill_quick(struct fn_view *v)
{
	const struct proto *p = v->p;
	unsigned i;

	memset(v->quick, 0, sizeof(v->quick));
	v->all_quick = !v->conditions && !p->variadic && p->nargs <= PROTO_MAX_ARGS;
	for (i = 0; i < p->nargs && i < PROTO_MAX_ARGS; i++) {
		const struct parg *a = &p->args[i];

		/* What args_value prints with put_scalar, from a register. */
		if (a->out == OUT_NONE && a->in == IN_NONE && !a->format &&
		    v->locs[i].where == AT_GP) {
			v->quick[i] = quick_of(&a->type);
			v->quick[i].reg = v->locs[i].index;
		}
		if (!v->quick[i].kind)
			v->all_quick = false;
	}
	/* args_return's cases: void, then put_scalar's. */
	v->quick_ret = quick_of(&p->ret);
	if (p->ret.kind == CT_VOID)
		v->quick_ret.kind = Q_VOID;
}

/* Fill v for function fn. */
static void view_fill(struct fn_view *v, uint32_t fn)
{
	unsigned ngp, nxmm, i;

	v->p = fn < catalog.funcs_room
		       ? captures_proto(catalog_func_capture(fn))
		       : NULL;
	v->conditions = false;
	if (!v->p)
		return;
	abi_locate(v->p, v->locs, &ngp, &nxmm);
	for (i = 0; i < v->p->nargs && v->p->args[i].out == OUT_NONE; i++)
		;
	v->at_entry = i;
	for (i = 0; i < v->p->nargs; i++)
		if (v->p->args[i].if_arg)
			v->conditions = true;
	view_fill_quick(v);
}

struct fn_view args_views[LTR_MAX_FUNCS];

__attribute__((noinline)) const struct fn_view *args_view_new(uint32_t fn)
{
	static __thread struct fn_view scratch; /* each formatting thread's */

	if (fn < LTR_MAX_FUNCS && catalog_func_ready(fn)) {
		view_fill(&args_views[fn], fn);
		args_views[fn].known = true;
		return &args_views[fn];
	}
	view_fill(&scratch, fn);
	return &scratch;
}

/* Does type t print as a symbol's name (symbolize(), whose caches are not shared)? */
static bool named_by_symbol(const struct ptype *t)
{
	return t->kind == CT_FUNCPTR;
}

enum format_warm args_warm(uint32_t fn)
{
	const struct fn_view *v;
	size_t i;

	if (fn >= LTR_MAX_FUNCS || !catalog_func_ready(fn))
		return WARM_LATER;
	v = view_of(&(struct call){ .fn = fn });
	if (!v->known)
		return WARM_LATER;
	if (v->p && named_by_symbol(&v->p->ret))
		return WARM_NEVER;
	for (i = 0; v->p && i < v->p->nargs; i++)
		if (named_by_symbol(&v->p->args[i].type))
			return WARM_NEVER;
	return WARM_READY;
}

/* The string copied in blob b (addr when there is none or it faulted). */
static void put_string_blob(struct out *o, const struct ltr_blob *b,
			    uint64_t addr)
{
	if (!addr || !b || (b->flags & LTR_BLOBF_FAULT) || !b->len)
		put_pointer(o, addr);
	else {
		size_t len = strnlen((const char *)b->data, b->len);
		size_t max = catalog_strsize((uint32_t)len);

		/* A printf format is copied whole (to follow it), shown cut. */
		put_quoted(o, b->data, len < max ? len : max,
			   (b->flags & LTR_BLOBF_TRUNCATED) || len > max);
	}
}

/* A value of type t held in word v (for floats: the register's bits). */
static void put_scalar(struct out *o, const struct ptype *t, uint64_t v,
		       int pid)
{
	char sym[512];
	union { uint64_t u; double d; float f; } bits = { .u = v };

	switch (t->kind) {
	case CT_INT:
		put_signed(o, sign_extend(v, t->size));
		break;
	case CT_UINT:
		if (t->octal)
			put_octal(o, zero_extend(v, t->size));
		else
			put_decimal(o, zero_extend(v, t->size), false);
		break;
	case CT_BOOL:
		put_text(o, v & 0xff ? "true" : "false");
		break;
	case CT_CHAR:
		put_char(o, (unsigned char)v);
		break;
	case CT_FLOAT:
		put_float(o, bits.f);
		break;
	case CT_DOUBLE:
		put_double(o, bits.d);
		break;
	case CT_NAMED:
		put_named(o, t->def, v);
		break;
	case CT_FUNCPTR:
		if (v && catalog_filled()) {
			size_t n;

			symbolize(pid, v, sym, sizeof(sym));
			n = strlen(sym);
			if (n > 4 && strcmp(sym + n - 4, "+0x0") == 0)
				sym[n - 4] = '\0';
			put_text(o, sym);
			break;
		}
		/* fall through */
	default:
		put_pointer(o, v);
	}
}

/* The word at loc of call c; false if it was not copied. */
static bool word_at(const struct call *c, struct arg_loc loc, unsigned word,
		    uint64_t *v)
{
	const struct ltr_blob *b;

	if (loc.where == AT_GP) {
		*v = c->args[loc.index];
		return true;
	}
	b = args_blob_find(c->blobs, c->blobs_len,
		      loc.where == AT_XMM ? LTR_BLOB_XMM : LTR_BLOB_STACK, 0);
	if (loc.where == AT_XMM && b && b->len >= 8u * (loc.index + 1u)) {
		memcpy(v, b->data + 8 * loc.index, 8);
		return true;
	}
	if (loc.where == AT_STACK && b &&
	    b->len >= 8u * (loc.index + word + 1u)) {
		memcpy(v, b->data + 8 * (loc.index + word), 8);
		return true;
	}
	return false;
}

const struct proto *args_proto(const struct call *c,
			       const struct arg_loc **locs)
{
	const struct fn_view *view = view_of(c);

	*locs = view->locs;
	return view->p;
}

bool args_word(const struct call *c, unsigned i, unsigned word, uint64_t *v)
{
	const struct fn_view *view = view_of(c);

	return view->p && i < view->p->nargs &&
	       word_at(c, view->locs[i], word, v);
}

/* A buffer's copy (an [out:...] or [in:argN] argument), quoted; addr if none. */
static void put_buffer(struct out *o, const struct ltr_blob *b, uint64_t addr)
{
	/* Cut already when copied at -s; --read -s may cut shorter. */
	size_t max;

	if (!addr || !b || (b->flags & LTR_BLOBF_FAULT)) {
		put_pointer(o, addr);
		return;
	}
	max = catalog_strsize(b->len);
	put_quoted(o, b->data, b->len < max ? b->len : max,
		   (b->flags & LTR_BLOBF_TRUNCATED) || b->len > max);
}

/* An output argument's copy, printed by the pointer's type. */
static void put_out(struct out *o, const struct parg *a, uint64_t addr,
		    const struct ltr_blob *b, int pid)
{
	uint64_t v = 0;

	if (!addr || !b || (b->flags & LTR_BLOBF_FAULT)) {
		put_pointer(o, addr);
		return;
	}
	if (a->out != OUT_PLAIN) {
		put_buffer(o, b, addr);
		return;
	}
	if (a->type.kind == CT_STRING) {
		put_string_blob(o, b, addr);
		return;
	}
	memcpy(&v, b->data, b->len < 8 ? b->len : 8);
	put_printf(o, "[");
	if (a->type.target == CT_VOID || a->type.target == CT_STRING) {
		put_pointer(o, v);
	} else {
		struct ptype t = { .kind = a->type.target,
				   .size = a->type.target_size };

		put_scalar(o, &t, v, pid);
	}
	put_printf(o, "]");
}

/* Where the varargs of a printf call start, and its format string. */
static const char *printf_format(const struct call *c, const struct proto *p,
				 const struct arg_loc *locs, size_t *len)
{
	const struct ltr_blob *b;
	size_t i;

	for (i = 0; i < p->nargs; i++) {
		if (!p->args[i].format)
			continue;
		b = args_blob_find(c->blobs, c->blobs_len, LTR_BLOB_STRING,
			      (uint8_t)abi_argno(locs[i]));
		if (!b || (b->flags & LTR_BLOBF_FAULT))
			return NULL;
		*len = b->len;
		return (const char *)b->data;
	}
	return NULL;
}

/* Vararg k of a printf call (LTR_BLOB_VARARGS, in order). */
static void put_vararg(struct out *o, const struct call *c,
		       const struct ltr_blob *va, const char *fmt_str,
		       size_t fmt_len, unsigned k)
{
	const unsigned char *cls = va->data;
	const uint64_t *words;
	unsigned n = va->index, i, w = 0, entry = 0;
	struct ltr_conv conv = { 0 };
	size_t pos = 0;
	uint64_t v;
	bool star = false;

	words = (const uint64_t *)(va->data + ((n + 7u) & ~7u));
	for (i = 0; i < k; i++)
		w += cls[i] == LTR_VA_LDOUBLE ? 2 : 1;
	if ((((n + 7u) & ~7u) + 8u * (w + 1)) > va->len)
		return;
	/* Which conversion (or '*' of one) entry k belongs to. */
	while (ltr_printf_next(fmt_str, fmt_len, &pos, &conv)) {
		if (k < entry + conv.stars) {
			star = true;
			break;
		}
		entry += conv.stars;
		if (!conv.cls)
			continue;
		if (entry++ == k)
			break;
	}
	v = words[w];
	switch (cls[k]) {
	case LTR_VA_DOUBLE: {
		union { uint64_t u; double d; } bits = { .u = v };

		put_double(o, bits.d);
		return;
	}
	case LTR_VA_LDOUBLE:
		if ((((n + 7u) & ~7u) + 8u * (w + 2)) <= va->len)
			put_long_double(o, (const unsigned char *)&words[w]);
		return;
	case LTR_VA_STRING:
		put_string_blob(o, args_blob_find(c->blobs, c->blobs_len,
					     LTR_BLOB_VASTRING, (uint8_t)k), v);
		return;
	case LTR_VA_POINTER:
		put_pointer(o, v);
		return;
	}
	if (star) {
		put_printf(o, "%d", (int)v);
		return;
	}
	switch (conv.conv) {
	case 'c': case 'C':
		put_char(o, (unsigned char)v);
		return;
	case 'd': case 'i':
		put_printf(o, "%lld", (long long)(conv.len == LTR_LEN_HH ? (signed char)v
				   : conv.len == LTR_LEN_H ? (short)v
				   : conv.len == LTR_LEN_NONE ? (int)v
							     : (int64_t)v));
		return;
	}
	v = conv.len == LTR_LEN_HH ? (unsigned char)v
	    : conv.len == LTR_LEN_H ? (unsigned short)v
	    : conv.len == LTR_LEN_NONE ? (unsigned)v : v;
	if (conv.conv == 'x' || conv.conv == 'X')
		put_printf(o, "%#llx", (unsigned long long)v);
	else if (conv.conv == 'o')
		put_printf(o, "%#llo", (unsigned long long)v);
	else
		put_printf(o, "%llu", (unsigned long long)v);
}

/* Does call c meet the condition ([if:]) of its argument a? */
static bool arg_condition_met(const struct call *c, const struct fn_view *view,
			      const struct parg *a)
{
	const struct proto *p = view->p;
	const struct named_type *t = p->args[a->if_arg - 1].type.def;
	uint64_t v;
	size_t k;

	if (!t || !word_at(c, view->locs[a->if_arg - 1], 0, &v))
		return true;
	/* The values were resolved and zero-extended once (config_resolve). */
	v = zero_extend(v, t->size);
	for (k = 0; k < a->if_nvalues; k++)
		if ((v & a->if_values[k]) == a->if_values[k])
			return true;
	return false;
}

uint64_t args_hidden(const struct call *c)
{
	const struct fn_view *view = view_of(c);
	uint64_t hidden = 0;
	unsigned i;

	if (!view->p || !view->conditions)
		return 0;
	for (i = 0; i < view->p->nargs && i < 64; i++)
		if (view->p->args[i].if_arg &&
		    !arg_condition_met(c, view, &view->p->args[i]))
			hidden |= 1ull << i;
	return hidden;
}

unsigned args_count(const struct call *c)
{
	const struct proto *p = view_of(c)->p;
	const struct ltr_blob *va = p ? varargs_blob(c) : NULL;

	if (!p)
		return RAW_ARGS;
	return (unsigned)p->nargs + (va ? va->index : 0);
}

unsigned args_count_at_entry(const struct call *c)
{
	const struct fn_view *view = view_of(c);

	if (!view->p)
		return RAW_ARGS;
	if (view->at_entry < view->p->nargs)
		return view->at_entry;
	return args_count(c);
}

/*
 * The length of o's value; *escaped: it is the inside of a JSON string
 * as it stands (a --json value whose strings put_quoted wrote escaped,
 * or digits alone).  SIZE_MAX when a string escaped so sits beside other
 * text: the value must be printed again as text.
 */
static size_t out_end(const struct out *o, bool *escaped)
{
	if (o->json_done && o->unsafe)
		return SIZE_MAX;
	*escaped = o->json && !o->unsafe;
	return o->len;
}

/* args_value, or args_value_json when json (see out_end). */
static size_t value_into(char *buf, size_t size, bool json, bool *escaped,
			 int pid, const struct call *c,
			 const struct result *r, unsigned i)
{
	const struct fn_view *view = view_of(c);
	const struct proto *p = view->p;
	const struct arg_loc *locs = view->locs;
	struct out o = { buf, size, 0, json, false, false };
	const struct parg *a;
	uint64_t v, hi;

	buf[0] = '\0';
	if (!p) {
		if (i < RAW_ARGS)
			put_raw(&o, c->args[i]);
		return out_end(&o, escaped);
	}
	if (i >= p->nargs) {
		const struct ltr_blob *va = varargs_blob(c);
		const char *f;
		size_t flen = 0;

		if (va && (f = printf_format(c, p, locs, &flen)) != NULL)
			put_vararg(&o, c, va, f, flen, i - (unsigned)p->nargs);
		return out_end(&o, escaped);
	}
	a = &p->args[i];
	if (!word_at(c, locs[i], 0, &v)) {
		put_text(&o, "?");
		return out_end(&o, escaped);
	}
	if (a->out != OUT_NONE) {
		const struct ltr_blob *b = NULL;

		if (r && r->returned)
			b = args_blob_find(r->blobs, r->blobs_len, LTR_BLOB_OUT,
				      (uint8_t)abi_argno(locs[i]));
		put_out(&o, a, v, b, pid);
	} else if (a->in != IN_NONE && a->type.kind != CT_STRING) {
		put_buffer(&o, args_blob_find(c->blobs, c->blobs_len,
					 LTR_BLOB_STRING,
					 (uint8_t)abi_argno(locs[i])), v);
	} else if (a->type.kind == CT_STRING) {
		put_string_blob(&o, args_blob_find(c->blobs, c->blobs_len,
					      LTR_BLOB_STRING,
					      (uint8_t)abi_argno(locs[i])), v);
	} else if (a->type.kind == CT_LDOUBLE) {
		unsigned char bytes[16];

		if (word_at(c, locs[i], 1, &hi)) {
			memcpy(bytes, &v, 8);
			memcpy(bytes + 8, &hi, 8);
			put_long_double(&o, bytes);
		} else {
			put_text(&o, "?");
		}
	} else {
		put_scalar(&o, &a->type, v, pid);
	}
	return out_end(&o, escaped);
}

size_t args_value(char *buf, size_t size, int pid, const struct call *c,
		  const struct result *r, unsigned i)
{
	bool escaped;

	return value_into(buf, size, false, &escaped, pid, c, r, i);
}

size_t args_value_json(char *buf, size_t size, int pid, const struct call *c,
		       const struct result *r, unsigned i, bool *escaped)
{
	size_t n = value_into(buf, size, true, escaped, pid, c, r, i);

	if (n != SIZE_MAX)
		return n;
	*escaped = false;
	return args_value(buf, size, pid, c, r, i);
}

/* Does put_scalar (or put_pointer) print a value of kind k with digits and letters only? */
static bool kind_plain(enum ctype k)
{
	return k != CT_CHAR && k != CT_STRING && k != CT_FUNCPTR &&
	       k != CT_NAMED;
}

bool args_value_plain(const struct call *c, unsigned i)
{
	const struct proto *p = view_of(c)->p;

	if (!p)
		return true; /* registers in hex */
	return i < p->nargs && p->args[i].out == OUT_NONE &&
	       p->args[i].in == IN_NONE && kind_plain(p->args[i].type.kind);
}

bool args_return_plain(const struct call *c)
{
	const struct proto *p = view_of(c)->p;

	return !p || kind_plain(p->ret.kind);
}

/* args_return, or args_return_json when json (see out_end). */
static size_t return_into(char *buf, size_t size, bool json, bool *escaped,
			  int pid, const struct call *c,
			  const struct result *r)
{
	const struct proto *p = view_of(c)->p;
	struct out o = { buf, size, 0, json, false, false };
	const struct ltr_blob *b;
	union { uint64_t u; double d; float f; } bits = { .u = r->xmm0 };

	buf[0] = '\0';
	if (!p) {
		put_raw(&o, r->rax);
		return out_end(&o, escaped);
	}
	switch (p->ret.kind) {
	case CT_VOID:
		put_text(&o, "<void>");
		break;
	case CT_FLOAT:
		put_float(&o, bits.f);
		break;
	case CT_DOUBLE:
		put_double(&o, bits.d);
		break;
	case CT_LDOUBLE:
		b = args_blob_find(r->blobs, r->blobs_len, LTR_BLOB_X87, 0);
		if (b && b->len >= 10)
			put_long_double(&o, b->data);
		else
			put_text(&o, "?");
		break;
	case CT_STRING:
		b = args_blob_find(r->blobs, r->blobs_len, LTR_BLOB_OUT, LTR_ARG_RET);
		put_string_blob(&o, b, r->rax);
		break;
	default:
		put_scalar(&o, &p->ret, r->rax, pid);
	}
	return out_end(&o, escaped);
}

size_t args_return(char *buf, size_t size, int pid, const struct call *c,
		   const struct result *r)
{
	bool escaped;

	return return_into(buf, size, false, &escaped, pid, c, r);
}

size_t args_return_json(char *buf, size_t size, int pid, const struct call *c,
			const struct result *r, bool *escaped)
{
	size_t n = return_into(buf, size, true, escaped, pid, c, r);

	if (n != SIZE_MAX)
		return n;
	*escaped = false;
	return args_return(buf, size, pid, c, r);
}

const char *args_errno_name(const struct result *r)
{
	const char *name;

	if (!r->returned || !r->failed)
		return NULL;
	name = strerrorname_np(r->errnum);
	return name ? name : "E?";
}

const char *args_errno_text(const struct result *r)
{
	const char *text;

	if (!r->returned || !r->failed)
		return NULL;
	text = strerrordesc_np(r->errnum);
	return text ? text : "Unknown error";
}
