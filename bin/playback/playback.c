/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * playback.c: --read FILE --playback OUT.c turns the recorded calls into a
 * C program that makes them again (apitrace's glretrace, for any library
 * whose state passes through its API: sqlite3, zlib...).
 *
 * It is an output format (struct format) of trace.c: each call the trace
 * would print, once it ends, becomes a statement of the thread it was made
 * in.  Only calls at depth 0 are played: a traced call inside another one
 * was made by the library itself or by a callback, and playing the outer
 * call makes it again.  A statement is the call with its recorded
 * arguments and a check of its result:
 *
 *  - integers and floats as recorded; strings and [in] buffers as static
 *    arrays of the bytes the interposer copied (whole with -w --whole;
 *    a copy cut at -s is said);
 *  - handles: a pointer a call returned, or wrote through an [out]
 *    argument (sqlite3 **), becomes a variable; a later argument equal to
 *    it, or pointing into a string or buffer the program has, is written
 *    as that variable (plus an offset);
 *  - [out] arguments point to buffers of the program, of the room the
 *    call may fill (out_room());
 *  - the varargs of a call whose [format] described them, as copied;
 *  - the result is compared with the recorded one (pointers: NULL or not;
 *    strings: their bytes); the first difference prints the call number,
 *    the function, what was expected and what came, and exits 1.
 *
 * A [struct:...] argument (zlib's z_stream) is the program's own struct,
 * filled before each call as the recording shows (playback-struct.c).
 *
 * What cannot be played back is never played differently without a word:
 * a callback into the program becomes a stub that returns 0, a call with
 * a pointer into memory the recording does not hold, with varargs no
 * [format] describes or without a prototype is left out; each is said in
 * a comment where the call was, in the file's header and on stderr
 * (playback_finish()), and the calls left out are counted at the end.
 * The threads' calls are functions of their own, played one after the
 * other in the order the threads first called (playback-write.c).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "error.h"
#include "call-blobs.h"
#include "format-args.h"
#include "format-value.h"
#include "playback-internal.h"
#include "playback.h"
#include "symbolize.h"
#include "xmalloc.h"


/* The thread of who, its function begun when it is new. */
static struct pb_thread *thread_of(const struct who *w)
{
	struct pb_thread *t;
	size_t i;

	for (i = 0; i < pb.nthreads; i++)
		if (pb.threads[i]->pid == w->pid && pb.threads[i]->tid == w->tid)
			return pb.threads[i];
	pb.threads = xrealloc(pb.threads,
			      (pb.nthreads + 1) * sizeof(*pb.threads));
	t = pb.threads[pb.nthreads++] = xcalloc(1, sizeof(*t));
	t->pid = w->pid;
	t->tid = w->tid;
	t->body = open_memstream(&t->text, &t->len);
	if (!t->body)
		perror_msg_and_die("open_memstream");
	return t;
}


/*
 * Argument pos (from 1) at recorded v, a string (str) or an [in] buffer,
 * copied in the blob of type and index: an array of its recorded bytes,
 * named into buf; false: left out.
 */
static bool arg_bytes(struct stmt *s, const struct call *c, uint8_t type,
		      uint8_t index, unsigned pos, uint64_t v, bool str,
		      char *buf, size_t size)
{
	const struct ltr_blob *b =
		args_blob_find(c->blobs, c->blobs_len, type, index);
	size_t len;

	if (!b || (b->flags & LTR_BLOBF_FAULT)) {
		playback_note(c->fn, "argument %u points to memory the recording does not hold: left out",
			      pos);
		return false;
	}
	/* A string's copy counts its NUL; a buffer's is its bytes. */
	len = str ? strnlen((const char *)b->data, b->len) : b->len;
	if (b->flags & LTR_BLOBF_TRUNCATED)
		playback_note(c->fn, "a %s was cut at %zu bytes when recorded (record with -w FILE --whole): played cut",
			      str ? "string" : "buffer", len);
	playback_array_name(s, buf, size);
	playback_array(s, buf, b->data, len, str);
	playback_bind(v, len + str, buf);
	return true;
}

#define OUT_ROOM_MAX (64u << 20) /* room given to an [out:...] buffer, at most */

/*
 * The room an [out:argN] or [out:ret] buffer of call c needs, copied len
 * bytes: what parameter N says, or for [out:ret] (read's buf) what its
 * largest integer parameter says (its count): the call may write more
 * than it did when recorded.
 */
static uint64_t out_room(const struct call *c, const struct parg *a,
			 uint64_t len)
{
	const struct arg_loc *locs;
	const struct proto *p = args_proto(c, &locs);
	uint64_t v;
	size_t i;

	for (i = 0; p && i < p->nargs; i++) {
		if ((a->out == OUT_ARG && i + 1 != a->out_arg) ||
		    (p->args[i].type.kind != CT_INT &&
		     p->args[i].type.kind != CT_UINT) ||
		    !args_word(c, (unsigned)i, 0, &v))
			continue;
		v = zero_extend(v, p->args[i].type.size);
		if (v > len && v <= OUT_ROOM_MAX)
			len = v;
	}
	return len;
}

/*
 * An [out] argument: a buffer of the program's, of the recorded size; a
 * pointer it receives (sqlite3 **) becomes a handle once the call returns.
 */
static void arg_out(struct stmt *s, const struct call *c,
		    const struct result *r, const struct parg *a,
		    uint8_t argno, uint64_t v, char *buf, size_t size)
{
	const struct ltr_blob *b =
		r && r->returned ? args_blob_find(r->blobs, r->blobs_len,
						  LTR_BLOB_OUT, argno)
				 : NULL;
	bool pointer = a->out == OUT_PLAIN && a->type.kind == CT_POINTER &&
		       a->type.target_size == 8 &&
		       (a->type.target == CT_POINTER ||
			a->type.target == CT_STRING);
	uint64_t len = b ? b->len : 8, got = 0;
	char handle[24];

	if (a->out == OUT_PLAIN && a->type.kind == CT_STRING)
		len += 4096; /* a string written there: room beyond the recorded one */
	else if (a->out != OUT_PLAIN)
		len = out_room(c, a, len);
	if (len < 8)
		len = 8;
	playback_array_name(s, buf, size);
	fprintf(s->pre, "static unsigned char %s[%" PRIu64 "] __attribute__((aligned(16)));\n",
		buf, len);
	playback_bind(v, len, buf);
	if (!pointer || !b || b->len < 8 || (b->flags & LTR_BLOBF_FAULT))
		return;
	memcpy(&got, b->data, 8);
	if (!got)
		return;
	playback_handle_new(handle, sizeof(handle));
	fprintf(s->post, "\tltr_memcpy(&%s, %s, sizeof(%s));\n", handle, buf,
		handle);
	playback_bind(got, 0, handle);
}

/* A function pointer argument: NULL and small constants as they are, a callback as the stub. */
static void arg_funcptr(const struct call *c, const struct who *w,
			unsigned i, uint64_t v, char *buf, size_t size)
{
	char sym[256];

	/* SQLITE_STATIC (0), SQLITE_TRANSIENT (-1): markers, not functions. */
	if (v < 4096 || v > UINT64_MAX - 4096) {
		snprintf(buf, size, "(void *)(intptr_t)%" PRId64, (int64_t)v);
		return;
	}
	symbolize(w->pid, v, sym, sizeof(sym));
	if (strlen(sym) > 4 && strcmp(sym + strlen(sym) - 4, "+0x0") == 0)
		sym[strlen(sym) - 4] = '\0';
	playback_note(c->fn, "argument %u is a callback into the program (%s): played as a stub that returns 0",
	     i + 1, sym);
	snprintf(buf, size, "(void *)ltr_stub");
}

/* Pointer argument pos (from 1) as the variable the playback has for v; false: left out. */
static bool pointer_expr(const struct call *c, unsigned pos, uint64_t v,
			   char *buf, size_t size)
{
	if (!v) {
		snprintf(buf, size, "NULL");
		return true;
	}
	if (playback_bound(v, buf, size))
		return true;
	playback_note(c->fn, "argument %u points to memory the recording does not hold: left out",
		      pos);
	return false;
}

/* Signed v as a C literal of 64 bits (INT64_MIN has none: it is an expression). */
static void int_literal(char *buf, size_t size, const char *cast, int64_t v)
{
	if (v == INT64_MIN)
		snprintf(buf, size, "%sINT64_MIN", cast);
	else
		snprintf(buf, size, "%sINT64_C(%" PRId64 ")", cast, v);
}

/* An integer or float argument's literal (its declared type's cast). */
static void arg_scalar(const struct ptype *t, uint64_t v, char *buf,
		       size_t size)
{
	char type[32], cast[40];
	union { uint64_t u; double d; float f; } bits = { .u = v };

	playback_ctype(t, type, sizeof(type));
	switch (t->kind) {
	case CT_FLOAT:
		playback_double(buf, size, bits.f, "(float)");
		return;
	case CT_DOUBLE:
		playback_double(buf, size, bits.d, "");
		return;
	case CT_INT:
	case CT_NAMED:
		snprintf(cast, sizeof(cast), "(%s)", type);
		int_literal(buf, size, cast, sign_extend(v, t->size));
		return;
	default:
		snprintf(buf, size, "(%s)UINT64_C(%" PRIu64 ")", type,
			 zero_extend(v, t->size));
	}
}

/* Argument i of call c into s's argument list; false: the call is left out. */
static bool arg_put(struct stmt *s, const struct who *w, const struct call *c,
		    const struct result *r, const struct proto *p,
		    const struct arg_loc *locs, unsigned i)
{
	const struct parg *a = &p->args[i];
	uint8_t argno = (uint8_t)abi_argno(locs[i]);
	char buf[128];
	uint64_t v;

	if (a->type.kind == CT_LDOUBLE || a->type.kind == CT_VALIST) {
		playback_note(c->fn, "argument %u is a %s: left out", i + 1,
		     a->type.kind == CT_VALIST ? "va_list" : "long double");
		return false;
	}
	if (!args_word(c, i, 0, &v)) {
		playback_note(c->fn, "argument %u was not recorded: left out", i + 1);
		return false;
	}
	if (a->st.size && v) {
		if (!playback_struct(s, c, r, a, argno, v, buf, sizeof(buf)))
			return false;
	} else if (a->out != OUT_NONE) {
		if (v)
			arg_out(s, c, r, a, argno, v, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "NULL");
	} else if (a->in != IN_NONE && v) {
		if (!arg_bytes(s, c, LTR_BLOB_STRING, argno, i + 1, v, false,
			       buf, sizeof(buf)))
			return false;
	} else if (a->type.kind == CT_STRING && v) {
		/* Its own bytes: a buffer reused at the same address holds others. */
		if (!arg_bytes(s, c, LTR_BLOB_STRING, argno, i + 1, v, true,
			       buf, sizeof(buf)))
			return false;
	} else if (a->type.kind == CT_FUNCPTR) {
		arg_funcptr(c, w, i, v, buf, sizeof(buf));
	} else if (a->type.kind == CT_POINTER || a->type.kind == CT_FILE ||
		   a->type.kind == CT_STRING) {
		if (!pointer_expr(c, i + 1, v, buf, sizeof(buf)))
			return false;
	} else {
		arg_scalar(&a->type, v, buf, sizeof(buf));
	}
	fprintf(s->args, "%s%s", i ? ", " : "", buf);
	return true;
}

/* Does p have a printf format ([format]) that describes its varargs? */
static bool has_format(const struct proto *p)
{
	size_t i;

	for (i = 0; i < p->nargs; i++)
		if (p->args[i].format)
			return true;
	return false;
}

/*
 * The varargs of a call of p, as its [format] described them when the
 * interposer copied them (a class and a word each, a %s's string), into
 * s's argument list; false: left out.
 */
static bool varargs_put(struct stmt *s, const struct call *c,
			const struct proto *p)
{
	const struct ltr_blob *va = args_blob(c, LTR_BLOB_VARARGS);
	unsigned n, k, w = 0, pos;
	size_t words;
	char buf[128];
	union { uint64_t u; double d; } v;

	if (!has_format(p)) {
		playback_note(c->fn, "variadic without a [format] that describes its arguments: left out");
		return false;
	}
	if (!va)
		return true; /* a format without conversions */
	n = va->index;
	words = ((size_t)n + 7) & ~(size_t)7;
	for (k = 0; k < n; k++, w++) {
		pos = (unsigned)p->nargs + k + 1;
		if (words + 8 * (w + 1) > va->len || va->data[k] == LTR_VA_LDOUBLE) {
			playback_note(c->fn, "argument %u, a long double or not recorded: left out",
				      pos);
			return false;
		}
		memcpy(&v.u, va->data + words + 8 * w, 8);
		if (va->data[k] == LTR_VA_DOUBLE) {
			playback_double(buf, sizeof(buf), v.d, "");
		} else if (va->data[k] == LTR_VA_STRING && v.u) {
			if (!arg_bytes(s, c, LTR_BLOB_VASTRING, (uint8_t)k, pos,
				       v.u, true, buf, sizeof(buf)))
				return false;
		} else if (va->data[k] == LTR_VA_STRING ||
			   va->data[k] == LTR_VA_POINTER) {
			if (!pointer_expr(c, pos, v.u, buf, sizeof(buf)))
				return false;
		} else {
			/* The whole register: va_arg takes what the conversion says. */
			int_literal(buf, sizeof(buf), "", (int64_t)v.u);
		}
		fprintf(s->args, ", %s", buf);
	}
	return true;
}

/* The call expression's check against the recorded result r, around the call text. */
static void call_check(const struct stmt *s, const struct call *c,
		       const struct result *r, const struct proto *p)
{
	const char *name = format_func_raw(c->fn);
	FILE *o = pb.t->body;
	char lit[64], handle[24];
	union { uint64_t u; double d; float f; } bits = { .u = r ? r->xmm0 : 0 };
	const struct ltr_blob *b;

	if (!r || !r->returned || p->ret.kind == CT_VOID ||
	    p->ret.kind == CT_LDOUBLE) {
		fprintf(o, "\t%s(%s);\n", name, s->args_s);
		return;
	}
	switch (p->ret.kind) {
	case CT_FLOAT:
	case CT_DOUBLE:
		playback_double(lit, sizeof(lit),
				p->ret.kind == CT_FLOAT ? bits.f : bits.d, "");
		fprintf(o, "\tltr_check_double(%lu, \"%s\", %s, %s(%s));\n",
			pb.ncalls, name, lit, name, s->args_s);
		return;
	case CT_POINTER:
	case CT_FUNCPTR:
	case CT_FILE:
	case CT_STRING:
		playback_handle_new(handle, sizeof(handle));
		fprintf(o, "\t%s = (void *)%s(%s);\n", handle, name, s->args_s);
		b = p->ret.kind == CT_STRING && r->rax
			    ? args_blob_find(r->blobs, r->blobs_len,
					     LTR_BLOB_OUT, LTR_ARG_RET)
			    : NULL;
		if (b && !(b->flags & LTR_BLOBF_FAULT)) {
			size_t len = strnlen((const char *)b->data, b->len);

			fprintf(o, "\tltr_check_string(%lu, \"%s\", ",
				pb.ncalls, name);
			playback_write_bytes(o, b->data, len, "\t\t");
			fprintf(o, ", %zu, %d, %s);\n", len,
				!!(b->flags & LTR_BLOBF_TRUNCATED), handle);
		} else {
			fprintf(o, "\tltr_check_pointer(%lu, \"%s\", %d, %s);\n",
				pb.ncalls, name, r->rax != 0, handle);
		}
		playback_bind(r->rax, 0, handle);
		return;
	default:
		arg_scalar(&p->ret, r->rax, lit, sizeof(lit));
		fprintf(o, "\tltr_check_int(%lu, \"%s\", %s, %s(%s));\n",
			pb.ncalls, name, lit, name, s->args_s);
	}
}

/* Close the streams of s (their texts stay until stmt_free). */
static void stmt_close(struct stmt *s)
{
	fclose(s->pre);
	fclose(s->before);
	fclose(s->args);
	fclose(s->post);
}

/* Free what s holds. */
static void stmt_free(struct stmt *s)
{
	free(s->pre_s);
	free(s->before_s);
	free(s->args_s);
	free(s->post_s);
}

/* Call c of thread w, ended as r (NULL: seen on entry only), as a statement. */
static void playback_call(const struct who *w, const struct call *c,
			  const struct result *r)
{
	const struct arg_loc *locs;
	const struct proto *p;
	struct stmt s = { 0 };
	size_t nbound = playback_bindings_mark();
	unsigned i, nhandles = pb.nhandles;
	bool played = true;

	if (c->depth)
		return;
	pb.t = thread_of(w);
	pb.ncalls++;
	p = args_proto(c, &locs);
	if (!p) {
		playback_note(c->fn, "no prototype: left out (give it one, ltruss.yaml(5) PROTOTYPES)");
		pb.nleft++;
		return;
	}
	s.pre = open_memstream(&s.pre_s, &s.pre_n);
	s.before = open_memstream(&s.before_s, &s.before_n);
	s.args = open_memstream(&s.args_s, &s.args_n);
	s.post = open_memstream(&s.post_s, &s.post_n);
	if (!s.pre || !s.before || !s.args || !s.post)
		perror_msg_and_die("open_memstream");
	for (i = 0; i < p->nargs && played; i++)
		played = arg_put(&s, w, c, r, p, locs, i);
	if (played && p->variadic)
		played = varargs_put(&s, c, p);
	stmt_close(&s);
	if (played) {
		if (r && !r->returned)
			playback_note(c->fn, "did not return when recorded (%s): played unchecked",
			     format_end_name(r->why));
		/* Arrays at file scope: any later call, of any thread, may use them. */
		fputs(s.pre_s, pb.data);
		fprintf(pb.t->body, "\t/* call %lu */\n%s", pb.ncalls,
			s.before_s);
		call_check(&s, c, r, p);
		fputs(s.post_s, pb.t->body);
		playback_declare(c->fn, p);
	} else {
		/* Nothing of a call left out names anything. */
		playback_bindings_forget(nbound);
		pb.nhandles = nhandles;
		pb.nleft++;
	}
	playback_structs_commit(played);
	stmt_free(&s);
}

/* A call seen whole, or the end of one seen before. */
static void on_result(const struct who *w, const struct call *c,
		      const struct result *r)
{
	playback_call(w, c, r);
}

/* Its start: played when it ends. */
static void on_start(const struct who *w, const struct call *c)
{
	(void)w;
	(void)c;
}

/* A call that never returns (exit, longjmp): played unchecked. */
static void on_entry_only(const struct who *w, const struct call *c)
{
	playback_call(w, c, NULL);
}

static void on_exited(int pid, uint64_t tsc, int status)
{
	(void)pid;
	(void)tsc;
	(void)status;
}

static void on_killed(int pid, uint64_t tsc, int sig, bool core)
{
	(void)pid;
	(void)tsc;
	(void)sig;
	(void)core;
}

static void on_untraced(const struct who *w, uint64_t tsc, const char *func)
{
	(void)w;
	(void)tsc;
	(void)func;
}

const struct format format_playback = {
	.whole = on_result,
	.open = on_start,
	.close = on_result,
	.partial = on_start,
	.partial_end = on_result,
	.unfinished = on_start,
	.resumed = on_result,
	.entry_only = on_entry_only,
	.exited = on_exited,
	.killed = on_killed,
	.untraced = on_untraced,
};
