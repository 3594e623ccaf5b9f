/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyframes.c: -k, the Python frames of a call: code objects and their lines.
 *
 * The interposer sends, with a call's stack copy, the Python frames the
 * thread was running as (code object, _PyCFrame, instruction offset), and
 * describes each code object (qualified name, file name, first line, line
 * table) the first time its thread's ring names it (lib/pyframes.c).  The
 * descriptions are kept here per process and address, the latest one
 * winning (a code object freed and another made at its address is
 * described again), so a frame costs ltruss a hash lookup, and its line a
 * walk of the code's line table (co_linetable, PEP 626's format, the same
 * in 3.11 and 3.12), never a read of the program.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "format-args.h"
#include "pyframes.h"
#include "xmalloc.h"

#define CODE_BUCKETS 4096

static struct py_code *codes[CODE_BUCKETS];
static size_t ncodes; /* in codes[]: done() scans no bucket when none */

/* The bucket of code object addr of process pid. */
static size_t code_bucket(int pid, uint64_t addr)
{
	return ((addr >> 4) ^ (uint64_t)pid) * 0x9e3779b97f4a7c15ull >> 52 &
	       (CODE_BUCKETS - 1);
}

/* Code object addr of process pid as last described, or NULL. */
static struct py_code *code_find(int pid, uint64_t addr)
{
	struct py_code *c;

	for (c = codes[code_bucket(pid, addr)]; c; c = c->next)
		if (c->addr == addr && c->pid == pid)
			return c;
	return NULL;
}

/* Append code point u to out as UTF-8 (out has room for 4 bytes). */
static size_t utf8_put(char *out, uint32_t u)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xc0 | u >> 6);
		out[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xe0 | u >> 12);
		out[1] = (char)(0x80 | (u >> 6 & 0x3f));
		out[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	if (u > 0x10ffff)
		u = 0xfffd;
	out[0] = (char)(0xf0 | u >> 18);
	out[1] = (char)(0x80 | (u >> 12 & 0x3f));
	out[2] = (char)(0x80 | (u >> 6 & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* A str's len bytes of characters kind bytes wide, as a new UTF-8 string. */
static char *str_utf8(const unsigned char *p, size_t len, unsigned kind)
{
	char *s = xmalloc(len / kind * 4 + 1);
	size_t i, n = 0;

	for (i = 0; i + kind <= len; i += kind) {
		uint32_t u = p[i];

		if (kind == 2)
			u = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8;
		else if (kind == 4)
			u = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
			    (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		/* Control characters would break a line or a JSON string. */
		n += utf8_put(s + n, u < 0x20 || u == 0x7f ? '?' : u);
	}
	s[n] = '\0';
	return s;
}

/* Does c say what description d (its strings and line table at p) says? */
static bool code_same(const struct py_code *c, const struct ltr_py_code *d,
		      const unsigned char *p)
{
	char *q = str_utf8(p, d->qualname_len, d->qualname_kind);
	char *f = str_utf8(p + d->qualname_len, d->filename_len,
			   d->filename_kind);
	bool same = c->firstlineno == d->firstlineno &&
		    strcmp(c->qualname, q) == 0 && strcmp(c->filename, f) == 0 &&
		    c->linetable_len == d->linetable_len &&
		    memcmp(c->linetable, p + d->qualname_len + d->filename_len,
			   d->linetable_len) == 0;

	free(q);
	free(f);
	return same;
}

/*
 * Keep code object description b (a checked PYCODE blob) of process pid.
 * A new description of an address makes a new entry, found first: the
 * names made of the old one (format-stack.c) stay its own.
 */
static void code_keep(int pid, const struct ltr_blob *b)
{
	const struct ltr_py_code *d = (const void *)b->data;
	const unsigned char *p = (const unsigned char *)(d + 1);
	struct py_code *c = code_find(pid, d->code);
	size_t h;

	if (c && code_same(c, d, p))
		return;
	c = xcalloc(1, sizeof(*c));
	c->pid = pid;
	c->addr = d->code;
	h = code_bucket(pid, d->code);
	c->next = codes[h];
	codes[h] = c;
	ncodes++;
	c->firstlineno = d->firstlineno;
	c->qualname = str_utf8(p, d->qualname_len, d->qualname_kind);
	p += d->qualname_len;
	c->filename = str_utf8(p, d->filename_len, d->filename_kind);
	p += d->filename_len;
	c->linetable = xmalloc(d->linetable_len + 1);
	memcpy(c->linetable, p, d->linetable_len);
	c->linetable_len = d->linetable_len;
}

void pyframes_ingest(int pid, const struct ltr_event *ev)
{
	event_blobs_each(pid, ev, LTR_BLOB_PYCODE, code_keep);
}

unsigned pyframes_of(int pid, const struct call *c, struct py_frame *out,
		     unsigned max)
{
	const struct ltr_blob *b = args_blob(c, LTR_BLOB_PYFRAMES);
	const struct ltr_py_frame *f;
	unsigned n, i;

	if (!b)
		return 0;
	f = (const struct ltr_py_frame *)(b->data + sizeof(struct ltr_py_head));
	n = (unsigned)((b->len - sizeof(struct ltr_py_head)) / sizeof(*f));
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		out[i].code = code_find(pid, f[i].code);
		out[i].cframe = f[i].cframe;
		out[i].lasti = f[i].lasti;
	}
	return n;
}

/* A varint of the line table at *p (6 bits a byte, bit 6: more follow). */
static uint32_t varint(const unsigned char **p, const unsigned char *end)
{
	uint32_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (*p >= end || shift > 24)
			return v;
		b = *(*p)++;
		v |= (uint32_t)(b & 63) << shift;
		shift += 6;
	} while (b & 64);
	return v;
}

int pyframes_line(const struct py_code *code, int64_t lasti)
{
	const unsigned char *p = code->linetable;
	const unsigned char *end = p + code->linetable_len;
	int64_t addr = 0;
	int line = code->firstlineno;

	if (lasti < 0)
		return code->firstlineno;
	/* Entries: a byte 1CCCCLLL (code C, L + 1 code units), then its data. */
	while (p < end && (*p & 0x80)) {
		unsigned kind = (*p >> 3) & 15, units = (*p & 7) + 1;
		uint32_t v;

		p++;
		if (kind == 14 || kind == 13) { /* long form, no columns */
			v = varint(&p, end);
			line += v & 1 ? -(int)(v >> 1) : (int)(v >> 1);
		} else if (kind >= 10 && kind <= 12) { /* one line form */
			line += (int)kind - 10;
		}
		addr += 2 * units;
		if (lasti < addr)
			return kind == 15 ? 0 : line; /* 15: no location */
		while (p < end && !(*p & 0x80))
			p++;
	}
	return 0;
}

void pyframes_done(void)
{
	size_t i;

	for (i = 0; ncodes && i < CODE_BUCKETS; i++) {
		struct py_code *c;

		while ((c = codes[i]) != NULL) {
			codes[i] = c->next;
			ncodes--;
			free(c->qualname);
			free(c->filename);
			free(c->linetable);
			free(c);
		}
	}
}
