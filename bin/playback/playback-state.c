/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * playback-state.c: what a --playback keeps while the calls come: the
 * program being made (pb), the names it has for recorded memory (handles,
 * arrays), and what it could not play as recorded (notes).  Below the
 * calls (playback.c), the structs (playback-struct.c) and the file's
 * assembly (playback-write.c), which all read and add to it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "playback-internal.h"
#include "xmalloc.h"

struct playback pb;

/*
 * A name the program has for recorded memory: a handle (len 0: only the
 * value itself), or a string or buffer of len bytes from addr.
 */
struct binding {
	uint64_t addr, len;
	char name[24];
};

static struct binding *bindings;
static size_t nbindings;

/* Name recorded memory [addr, addr + len) (len 0: a handle) as name. */
void playback_bind(uint64_t addr, uint64_t len, const char *name)
{
	struct binding *b;

	if (!addr)
		return;
	bindings = xrealloc(bindings, (nbindings + 1) * sizeof(*bindings));
	b = &bindings[nbindings++];
	b->addr = addr;
	b->len = len;
	snprintf(b->name, sizeof(b->name), "%s", name);
}

/*
 * The expression for recorded pointer v ("h3", "(a7_0 + 12)"), or false.
 * A linear search, newest first: a playback of n calls costs n^2/2
 * comparisons at worst (80 000 sqlite3 calls: under a second).
 */
bool playback_bound(uint64_t v, char *buf, size_t size)
{
	size_t i;

	/* The newest first: an address freed and handed out again is the new one. */
	for (i = nbindings; i-- > 0;) {
		const struct binding *b = &bindings[i];

		if (v == b->addr) {
			snprintf(buf, size, "%s", b->name);
			return true;
		}
		if (b->len && v > b->addr && v - b->addr < b->len) {
			snprintf(buf, size, "(%s + %" PRIu64 ")", b->name,
				 v - b->addr);
			return true;
		}
	}
	return false;
}

void playback_handle_new(char *buf, size_t size)
{
	snprintf(buf, size, "h%u", ++pb.nhandles);
}

/* Note what call number n of fn could not play as recorded (once per function and reason). */
void playback_note(uint32_t fn, const char *fmt_text, ...)
{
	char text[512];
	va_list ap;
	size_t i;

	va_start(ap, fmt_text);
	vsnprintf(text, sizeof(text), fmt_text, ap);
	va_end(ap);
	fprintf(pb.t->body, "\t/* call %lu %s: ", pb.ncalls, format_func_raw(fn));
	playback_comment(pb.t->body, text);
	fputs(" */\n", pb.t->body);
	for (i = 0; i < pb.nnotes; i++)
		if (pb.notes[i].fn == fn && strcmp(pb.notes[i].text, text) == 0) {
			pb.notes[i].count++;
			return;
		}
	pb.notes = xrealloc(pb.notes, (pb.nnotes + 1) * sizeof(*pb.notes));
	pb.notes[pb.nnotes++] = (struct pb_note){ .fn = fn, .first = pb.ncalls,
						  .count = 1,
						  .text = xstrdup(text) };
}

/* Bytes data[0..len) as a static array named name (NUL-ended when str). */
void playback_array(struct stmt *s, const char *name,
			 const unsigned char *data, size_t len, bool str)
{
	fprintf(s->pre, "static %s %s[%zu] = ", str ? "char" : "unsigned char",
		name, len + (str ? 1 : 0) + (len == 0 && !str));
	playback_write_bytes(s->pre, data, len, "\t");
	fputs(";\n", s->pre);
}

/* A fresh array name for call n ("a12_0"). */
void playback_array_name(struct stmt *s, char *buf, size_t size)
{
	snprintf(buf, size, "a%lu_%u", pb.ncalls, s->arrays++);
}

/* How many names of recorded memory there are, to forget those after. */
size_t playback_bindings_mark(void)
{
	return nbindings;
}

/* Forget the names made since playback_bindings_mark() gave mark. */
void playback_bindings_forget(size_t mark)
{
	if (mark < nbindings)
		nbindings = mark;
}

/* Free the bindings (playback_finish). */
void playback_bindings_free(void)
{
	free(bindings);
	bindings = NULL;
	nbindings = 0;
}
