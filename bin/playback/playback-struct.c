/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * playback-struct.c: a struct the program owns and passes to each call of
 * a library (zlib's z_stream), played back.
 *
 * A [struct:SIZE,in:P/L,out:P/L] parameter is copied whole on entry and on
 * return, with the in buffers it points to (lib/args.c).  The playback
 * has a struct of its own for each address the recording shows, and
 * before each call writes into it the bytes the program changed since the
 * previous call returned (all of them at the first call), and the
 * pointers to its in buffers: the bytes the library wrote (its state
 * pointer, its counters) stay as the playback's library left them.  Of what is written, an in buffer's pointer points
 * to an array of the recorded bytes, an out buffer's to room of the
 * recorded length, a handle or string the playback knows is written as
 * its variable, and any other word that looks like an address (from 4 GiB
 * to the top of user space: x86_64's heap, stacks and libraries) cannot
 * be played: it is written as NULL, and said.  On return, every other
 * 8-byte word is compared with the recorded one (counters, checksums,
 * lengths left), so a library that computes something else is caught
 * even when its return value is the same.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "format-args.h"
#include "playback-internal.h"
#include "xmalloc.h"

/* A struct of the program, by its recorded address. */
struct pb_struct {
	uint64_t addr;
	unsigned size;
	char name[24];
	unsigned char *last; /* its recorded bytes after the last call */
	unsigned char *pending; /* after the current call, once played */
};

static struct pb_struct *structs;
static size_t nstructs, nstructs_played;

/* Does recorded word v look like an address (not a count, not a flag)? */
static bool looks_like_address(uint64_t v)
{
	return v >= (1ull << 32) && v < (1ull << 47);
}

/* The struct at addr, made (an array at file scope) if new. */
static struct pb_struct *struct_of(struct stmt *s, uint64_t addr,
				   unsigned size)
{
	struct pb_struct *st;
	size_t i;

	for (i = nstructs; i-- > 0;)
		if (structs[i].addr == addr && structs[i].size == size)
			return &structs[i];
	structs = xrealloc(structs, (nstructs + 1) * sizeof(*structs));
	st = &structs[nstructs++];
	memset(st, 0, sizeof(*st));
	st->addr = addr;
	st->size = size;
	snprintf(st->name, sizeof(st->name), "z%zu", nstructs);
	fprintf(s->pre, "static unsigned char %s[%u] __attribute__((aligned(16)));\n",
		st->name, size);
	playback_bind(addr, size, st->name);
	return st;
}

/* Is byte offset o the pointer of one of a's buffers (k: which; in: of an in one)? */
static bool buffer_at(const struct pstruct *ps, unsigned o, bool *in,
		      unsigned *k)
{
	for (*k = 0; *k < ps->nin; (*k)++)
		if (ps->in[*k].ptr == o)
			return *in = true;
	for (*k = 0; *k < ps->nout; (*k)++)
		if (ps->out[*k].ptr == o)
			return !(*in = false);
	return false;
}

/* Does the word at o hold a buffer's 32-bit length (never an address)? */
static bool length_in(const struct pstruct *ps, unsigned o)
{
	unsigned k;

	for (k = 0; k < ps->nin; k++)
		if (ps->in[k].len / 8 == o / 8)
			return true;
	for (k = 0; k < ps->nout; k++)
		if (ps->out[k].len / 8 == o / 8)
			return true;
	return false;
}

/* The pointer word at o of struct st, to buffer k, for call c: into expr; false: left out. */
static bool buffer_expr(struct stmt *s, const struct call *c,
			const struct pstruct *ps, const unsigned char *e,
			bool in, unsigned k, uint64_t v, char *expr,
			size_t size)
{
	const struct ltr_blob *b;
	uint32_t len;

	if (!v) {
		snprintf(expr, size, "NULL");
		return true;
	}
	playback_array_name(s, expr, size);
	if (!in) {
		memcpy(&len, e + ps->out[k].len, 4);
		fprintf(s->pre, "static unsigned char %s[%" PRIu32 "];\n",
			expr, len ? len : 1);
		return true;
	}
	b = args_blob_find(c->blobs, c->blobs_len, LTR_BLOB_STRING,
			   (uint8_t)(LTR_STRUCT_BUF + k));
	if (!b || (b->flags & LTR_BLOBF_FAULT)) {
		playback_note(c->fn, "an in buffer of the struct was not recorded: left out");
		return false;
	}
	if (b->flags & LTR_BLOBF_TRUNCATED)
		playback_note(c->fn, "an in buffer of the struct was cut at %u bytes when recorded (record with -w FILE --whole): played cut",
			      b->len);
	playback_array(s, expr, b->data, b->len, false);
	return true;
}

/* Write bytes e[from, to) into st as they are. */
static void write_bytes(struct stmt *s, const struct pb_struct *st,
			const unsigned char *e, unsigned from, unsigned to)
{
	if (from >= to)
		return;
	fprintf(s->before, "\tltr_memcpy(%s + %u, ", st->name, from);
	playback_write_bytes(s->before, e + from, to - from, "\t\t");
	fprintf(s->before, ", %u);\n", to - from);
}

/*
 * Fill st before call c as the program had it (e, its recorded bytes on
 * entry): what changed since the last call; false: left out.
 */
static bool struct_fill(struct stmt *s, const struct call *c,
			const struct parg *a, unsigned argno,
			struct pb_struct *st, const unsigned char *e)
{
	const struct pstruct *ps = &a->st;
	unsigned o, run = 0, k;
	char expr[64];
	bool in, run_on = false;
	uint64_t v;

	for (o = 0; o + 8 <= st->size; o += 8) {
		bool changed = !st->last || memcmp(e + o, st->last + o, 8) != 0;

		memcpy(&v, e + o, 8);
		/*
		 * An in buffer's pointer the library left where the program
		 * wants it (the next part of one big buffer) points past
		 * the playback's array: always the array of what it reads.
		 */
		if (v && buffer_at(ps, o, &in, &k) && in)
			changed = true;
		if (!changed || (!buffer_at(ps, o, &in, &k) &&
				 (length_in(ps, o) || !looks_like_address(v)))) {
			/* Bytes as they are, in runs. */
			if (changed && !run_on)
				run = o;
			if (!changed && run_on)
				write_bytes(s, st, e, run, o);
			run_on = changed;
			continue;
		}
		if (run_on)
			write_bytes(s, st, e, run, o);
		run_on = false;
		if (buffer_at(ps, o, &in, &k)) {
			if (!buffer_expr(s, c, ps, e, in, k, v, expr, sizeof(expr)))
				return false;
		} else if (!playback_bound(v, expr, sizeof(expr))) {
			playback_note(c->fn, "argument %u holds at byte %u an address the recording does not hold: played as NULL",
				      argno + 1, o);
			snprintf(expr, sizeof(expr), "NULL");
		}
		fprintf(s->before, "\t*(void **)(%s + %u) = %s;\n", st->name, o,
			expr);
	}
	if (run_on)
		write_bytes(s, st, e, run, o);
	if (o < st->size && (!st->last || memcmp(e + o, st->last + o, st->size - o)))
		write_bytes(s, st, e, o, st->size);
	return true;
}

/* Check st on return against x, its recorded bytes then: every word but addresses and buffers. */
static void struct_check(struct stmt *s, const struct call *c,
			 const struct parg *a, unsigned argno,
			 const struct pb_struct *st, const unsigned char *x)
{
	unsigned o, k;
	uint64_t v;
	bool in;

	for (o = 0; o + 8 <= st->size; o += 8) {
		memcpy(&v, x + o, 8);
		if (buffer_at(&a->st, o, &in, &k) ||
		    (!length_in(&a->st, o) && looks_like_address(v)))
			continue;
		fprintf(s->post, "\tltr_check_word(%lu, \"%s\", %u, %u, UINT64_C(%" PRIu64 "), %s + %u);\n",
			pb.ncalls, format_func_raw(c->fn), argno + 1, o, v,
			st->name, o);
	}
}

bool playback_struct(struct stmt *s, const struct call *c,
		     const struct result *r, const struct parg *a,
		     unsigned argno, uint64_t v, char *buf, size_t size)
{
	const struct ltr_blob *e, *x;
	struct pb_struct *st;

	e = args_blob_find(c->blobs, c->blobs_len, LTR_BLOB_STRING,
			   (uint8_t)argno);
	if (!e || e->flags || e->len != a->st.size) {
		playback_note(c->fn, "argument %u, a struct, was not recorded: left out",
			      argno + 1);
		return false;
	}
	st = struct_of(s, v, a->st.size);
	if (!struct_fill(s, c, a, argno, st, e->data))
		return false;
	x = r && r->returned ? args_blob_find(r->blobs, r->blobs_len,
					      LTR_BLOB_OUT, (uint8_t)argno)
			     : NULL;
	if (x && !x->flags && x->len == a->st.size)
		struct_check(s, c, a, argno, st, x->data);
	else
		x = e; /* not seen on return: as it was on entry */
	free(st->pending);
	st->pending = xmalloc(st->size);
	memcpy(st->pending, x->data, st->size);
	snprintf(buf, size, "%s", st->name);
	return true;
}

void playback_structs_commit(bool played)
{
	size_t i;

	/* A struct first seen in a call left out was never defined. */
	for (i = played ? nstructs : nstructs_played; i < nstructs; i++) {
		free(structs[i].last);
		free(structs[i].pending);
	}
	if (!played)
		nstructs = nstructs_played;
	for (i = 0; i < nstructs; i++) {
		if (played && structs[i].pending) {
			free(structs[i].last);
			structs[i].last = structs[i].pending;
		} else {
			free(structs[i].pending);
		}
		structs[i].pending = NULL;
	}
	nstructs_played = nstructs;
}

void playback_structs_free(void)
{
	size_t i;

	for (i = 0; i < nstructs; i++) {
		free(structs[i].last);
		free(structs[i].pending);
	}
	free(structs);
	structs = NULL;
	nstructs = nstructs_played = 0;
}
