/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * captures.c: turn each prototype into a struct ltr_capture, the few bytes
 * the interposer reads when it binds a function: which arguments are C
 * strings to copy, whether floats, stack words or printf varargs must be
 * copied, which output arguments to copy on return, and when a return is
 * an error.  The interposer finds them by name through an open-addressing
 * index (capture_index[]) ltruss builds here, before the program starts.
 *
 * The shipped prototypes' captures and index come compiled
 * (bin/config/shipped.c), and traced processes map them from the table
 * (struct ltr_shipped in lib/session.h): they are captures [0, nshipped).
 * A filter's prototype gets a capture of the session's (nshipped + i),
 * which the interposer looks up before the table's, so that the filter's
 * wins over a shipped one of the same name, as a later prototype always
 * does.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "captures.h"
#include "error.h"
#include "shipped.h"

/* The prototype each capture was compiled from, by capture index. */
static const struct proto *capture_protos[LTR_MAX_CAPTURES];
/* The compiled shipped captures, [0, nshipped) of the session's, or NULL. */
static struct shipped *shipped;
static uint32_t nshipped;

uint32_t session_intern(struct ltr_session *s, const char *name)
{
	size_t len = strlen(name) + 1;
	uint32_t seen = __atomic_load_n(&s->strings_used, __ATOMIC_RELAXED), off;

	/*
	 * Claimed as the interposer claims (lib/objects.c): entry patching
	 * adds names while traced processes run.
	 */
	do {
		off = seen ? seen : 1; /* 0: "" */
		if (off + len > LTR_STRINGS_SIZE)
			error_msg_and_die("too many names for the session's string area");
	} while (!__atomic_compare_exchange_n(&s->strings_used, &seen,
					      off + (uint32_t)len, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	memcpy(s->strings + off, name, len);
	return off;
}

/* How an output argument of type t is copied (enum ltr_out) and its size. */
static uint8_t out_mode(const struct parg *a, uint8_t *size)
{
	*size = 0;
	switch (a->out) {
	case OUT_RET:
		return LTR_OUT_RET;
	case OUT_ARG:
		return LTR_OUT_ARG;
	case OUT_PLAIN:
		if (a->type.kind == CT_STRING)
			return LTR_OUT_STRING;
		*size = a->type.target_size ? a->type.target_size : 8;
		if (*size > 8)
			*size = 8;
		return LTR_OUT_FIXED;
	default:
		return LTR_OUT_NONE;
	}
}

/* Compile prototype p into cap (its name already set). */
static void capture_build(struct ltr_capture *cap, const struct proto *p)
{
	struct arg_loc locs[PROTO_MAX_ARGS];
	unsigned ngp, nxmm, nstack, nout = 0;
	size_t i;

	nstack = abi_locate(p, locs, &ngp, &nxmm);
	cap->regs = (uint8_t)ngp;
	cap->nstack = (uint8_t)(nstack < LTR_STACK_WORDS_MAX ? nstack
							     : LTR_STACK_WORDS_MAX);
	if (nxmm)
		cap->flags |= LTR_CAP_XMM;
	if (p->ret.kind == CT_LDOUBLE)
		cap->flags |= LTR_CAP_X87;
	if (p->ret.kind == CT_FLOAT || p->ret.kind == CT_DOUBLE)
		cap->flags |= LTR_CAP_RET_XMM;
	cap->err = (uint8_t)p->err;
	for (i = 0; i < p->nargs; i++) {
		const struct parg *a = &p->args[i];
		unsigned n = abi_argno(locs[i]);

		if (locs[i].where == AT_XMM || n >= 8)
			continue;
		if (a->st.size && nout < LTR_MAX_OUT) {
			unsigned k;

			/* On entry (with its in buffers), and on return. */
			cap->flags |= LTR_CAP_STRUCT;
			cap->st_arg = (uint8_t)n;
			cap->st_size = (uint8_t)a->st.size;
			cap->st_nin = (uint8_t)a->st.nin;
			for (k = 0; k < a->st.nin && k < LTR_STRUCT_IN; k++) {
				cap->st_in[k].ptr = a->st.in[k].ptr;
				cap->st_in[k].len = a->st.in[k].len;
			}
			cap->out[nout].arg = (uint8_t)n;
			cap->out[nout].mode = LTR_OUT_FIXED;
			cap->out[nout++].size = (uint8_t)a->st.size;
		} else if (a->in == IN_ARG) {
			unsigned len = a->in_arg - 1;

			cap->flags |= LTR_CAP_IN;
			if (p->args[len].type.size == 4)
				cap->flags |= LTR_CAP_IN_LEN32;
			cap->in_arg = (uint8_t)n;
			cap->in_len_arg = (uint8_t)abi_argno(locs[len]);
		} else if (a->out != OUT_NONE && nout < LTR_MAX_OUT) {
			cap->out[nout].arg = (uint8_t)n;
			cap->out[nout].mode = out_mode(a, &cap->out[nout].size);
			if (a->out == OUT_ARG)
				cap->out[nout].len_arg = (uint8_t)abi_argno(
					locs[a->out_arg - 1]);
			nout++;
		} else if (a->type.kind == CT_STRING && a->out == OUT_NONE) {
			cap->strings |= (uint8_t)(1u << n);
		} else if (a->type.kind == CT_FUNCPTR) {
			cap->funcptrs |= (uint8_t)(1u << n);
		}
		if (a->format && p->variadic) {
			cap->flags |= LTR_CAP_PRINTF;
			cap->format = (uint8_t)n;
		}
	}
	if (p->ret.kind == CT_STRING && nout < LTR_MAX_OUT) {
		cap->out[nout].arg = LTR_ARG_RET;
		cap->out[nout].mode = LTR_OUT_STRING;
	}
}

/*
 * Add a capture for p under name (alias: its "64" name), unless name has
 * one that won: a newer prototype's (the session's), or a real shipped
 * one against an alias.  A shipped capture of the name is outdone by the
 * session's, looked up first.
 */
static void capture_add(struct ltr_session *s, const char *name,
			const struct proto *p, bool alias)
{
	struct ltr_capture *cap;
	long i = captures_find(s->capture_index, s->captures, s->strings, name);
	uint32_t h;

	if (i >= 0)
		return;
	i = shipped ? shipped_find_capture(shipped, name) : -1;
	if (i >= 0 && alias && !shipped_capture_alias(shipped, (uint32_t)i))
		return;
	if (nshipped + s->ncaptures >= LTR_MAX_CAPTURES) {
		warning_msg("more than %u prototypes: the rest print as registers",
			    LTR_MAX_CAPTURES);
		return;
	}
	cap = &s->captures[s->ncaptures++];
	memset(cap, 0, sizeof(*cap));
	cap->name = session_intern(s, name);
	capture_build(cap, p);
	capture_protos[nshipped + s->ncaptures - 1] = p;
	for (h = ltr_name_hash(name) & (LTR_CAPTURE_HASH - 1);
	     s->capture_index[h]; h = (h + 1) & (LTR_CAPTURE_HASH - 1))
		;
	s->capture_index[h] = s->ncaptures;
}

void captures_compile(struct ltr_session *s, const struct config *cfg)
{
	size_t i;

	shipped = cfg->shipped;
	s->shipped.fd = -1;
	nshipped = shipped ? shipped_to_session(shipped, s) : 0;
	/* Newest first: the first capture of a name is the one that wins. */
	for (i = cfg->nprotos; i-- > 0;)
		capture_add(s, cfg->protos[i].name, &cfg->protos[i], false);
	for (i = cfg->nprotos; i-- > 0;) {
		const char *name = cfg->protos[i].name;
		size_t len = strlen(name);
		char alias[256];

		if (len + 3 > sizeof(alias))
			continue;
		memcpy(alias, name, len);
		memcpy(alias + len, "64", 3);
		capture_add(s, alias, &cfg->protos[i], true);
	}
}

const char *captures_decl(int32_t capture)
{
	const struct proto *p;

	if (capture < 0 || capture >= LTR_MAX_CAPTURES)
		return NULL;
	p = capture_protos[capture];
	if (p)
		return p->decl;
	if ((uint32_t)capture < nshipped)
		return shipped_capture_decl(shipped, (uint32_t)capture);
	return NULL;
}

void captures_set_proto(int32_t capture, const struct proto *p)
{
	if (capture >= 0 && capture < LTR_MAX_CAPTURES)
		capture_protos[capture] = p;
}

const struct proto *captures_proto(int32_t capture)
{
	if (capture < 0 || capture >= LTR_MAX_CAPTURES)
		return NULL;
	if (!capture_protos[capture] && (uint32_t)capture < nshipped)
		return shipped_capture_proto(shipped, (uint32_t)capture);
	return capture_protos[capture];
}
