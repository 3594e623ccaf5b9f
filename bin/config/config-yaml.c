/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config-yaml.c: a strict pull reader over libyaml's events.
 *
 * The event API keeps memory flat however large or deep the file is: the
 * caller asks for exactly the shape it expects (a map, a list of strings,
 * an integer) and the first thing of another shape ends the load with its
 * line and column.  So a file nested 10000 levels deep costs one event,
 * not a tree.  Anchors, aliases and tags are refused: a filter does not
 * need them, and the usual way to meet one is an unquoted "*alloc" or
 * "!malloc" meant as a glob, which deserves a hint rather than a puzzle.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config-yaml.h"
#include "error.h"
#include "xmalloc.h"

/* Larger than any filter or prototype file could sensibly be. */
#define YREADER_MAX_SIZE (64u << 20)

/*
 * Read fd to its end into r->text: st_size is only a hint (0 for a pipe,
 * /dev/stdin or <(...), a file that grows), so the buffer grows as needed.
 */
static bool read_all(struct yreader *r, int fd, const struct stat *st)
{
	size_t cap = st->st_size > 0 ? (size_t)st->st_size + 1 : 65536, got = 0;

	for (;;) {
		ssize_t n;

		if (got == cap) {
			if (cap > YREADER_MAX_SIZE) {
				errno = EFBIG;
				return false;
			}
			cap *= 2;
		}
		r->text = xrealloc(r->text, cap);
		n = read(fd, r->text + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > YREADER_MAX_SIZE) {
		errno = EFBIG;
		return false;
	}
	r->len = got;
	return true;
}

bool yreader_open(struct yreader *r, const char *path, const char *file)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	r->file = file;
	/*
	 * O_NONBLOCK: a FIFO that nobody writes to must not block the open
	 * forever; it then reads as empty.  Reads block again, so that a
	 * pipe's writer (<(...)) is waited for to its end.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (st.st_size > YREADER_MAX_SIZE) {
		errno = EFBIG;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 ||
	    !read_all(r, fd, &st))
		goto fail;
	close(fd);
	if (!yaml_parser_initialize(&r->parser))
		error_msg_and_die("out of memory");
	yaml_parser_set_input_string(&r->parser, r->text, r->len);
	return true;
fail:
	{
		int err = errno;

		close(fd);
		free(r->text);
		r->text = NULL;
		errno = err;
	}
	return false;
}

void yreader_close(struct yreader *r)
{
	if (r->have_ev)
		yaml_event_delete(&r->ev);
	r->have_ev = false;
	yaml_parser_delete(&r->parser);
	free(r->text);
	r->text = NULL;
}

unsigned yreader_line(const struct yreader *r)
{
	return (unsigned)r->ev.start_mark.line + 1;
}

unsigned yreader_col(const struct yreader *r)
{
	return (unsigned)r->ev.start_mark.column + 1;
}

void yreader_die(const struct yreader *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error_at_and_die(r->file, yreader_line(r), yreader_col(r), "%s", buf);
}

/* Die for libyaml's own complaint: an encoding or syntax error. */
static void __attribute__((noreturn)) syntax_die(const struct yreader *r)
{
	const yaml_parser_t *p = &r->parser;
	unsigned line = 1, col = 1;
	size_t i;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		error_msg_and_die("out of memory reading '%s'", r->file);
	case YAML_READER_ERROR:
		/* Reader errors carry a byte offset, not a mark. */
		for (i = 0; i < p->problem_offset && i < r->len; i++) {
			if (r->text[i] == '\n') {
				line++;
				col = 1;
			} else if ((r->text[i] & 0xc0) != 0x80) {
				col++;
			}
		}
		if (p->problem_value >= 0)
			error_at_and_die(r->file, line, col,
					 "not YAML text: %s (byte 0x%02x); save the file as UTF-8 text",
					 p->problem, (unsigned)p->problem_value);
		error_at_and_die(r->file, line, col,
				 "not YAML text: %s; save the file as UTF-8 text",
				 p->problem);
	default:
		break;
	}
	line = (unsigned)p->problem_mark.line + 1;
	col = (unsigned)p->problem_mark.column + 1;
	/* [!malloc]: a tag that runs into the ']'. */
	if (p->context && strstr(p->context, "tag"))
		error_at_and_die(r->file, line, col,
				 "YAML syntax error: %s (%s at %u:%u); quote names and globs that start with '!' (\"!malloc\")",
				 p->problem, p->context,
				 (unsigned)p->context_mark.line + 1,
				 (unsigned)p->context_mark.column + 1);
	if (p->problem_mark.index < r->len &&
	    r->text[p->problem_mark.index] == '\t')
		error_at_and_die(r->file, line, col,
				 "YAML syntax error: %s; indent with spaces, not tabs",
				 p->problem);
	if (p->context)
		error_at_and_die(r->file, line, col,
				 "YAML syntax error: %s (%s at %u:%u); fix the YAML",
				 p->problem, p->context,
				 (unsigned)p->context_mark.line + 1,
				 (unsigned)p->context_mark.column + 1);
	error_at_and_die(r->file, line, col, "YAML syntax error: %s; fix the YAML",
			 p->problem ? p->problem : "unknown problem");
}

/* Refuse aliases and tags, with a hint for unquoted globs. */
static void check_plain(const struct yreader *r)
{
	const yaml_event_t *e = &r->ev;
	const char *tag = NULL;

	if (e->type == YAML_ALIAS_EVENT)
		yreader_die(r, "'*%.64s' is a YAML alias, which filters do not support; if it is a glob, quote it: \"*%.64s\"",
			    (const char *)e->data.alias.anchor,
			    (const char *)e->data.alias.anchor);
	if (e->type == YAML_SCALAR_EVENT && !e->data.scalar.plain_implicit &&
	    !e->data.scalar.quoted_implicit)
		tag = (const char *)e->data.scalar.tag;
	else if (e->type == YAML_SEQUENCE_START_EVENT &&
		 !e->data.sequence_start.implicit)
		tag = (const char *)e->data.sequence_start.tag;
	else if (e->type == YAML_MAPPING_START_EVENT &&
		 !e->data.mapping_start.implicit)
		tag = (const char *)e->data.mapping_start.tag;
	if (!tag)
		return;
	if (tag[0] == '!' && tag[1] != '!')
		yreader_die(r, "'%.64s' is a YAML tag, which filters do not support; if it is a glob, quote it: \"%.64s\"",
			    tag, tag);
	yreader_die(r, "YAML tags such as '%.64s' are not supported; remove it",
		    tag);
}

yaml_event_type_t yreader_next(struct yreader *r)
{
	if (r->have_ev)
		yaml_event_delete(&r->ev);
	r->have_ev = false;
	if (!yaml_parser_parse(&r->parser, &r->ev))
		syntax_die(r);
	r->have_ev = true;
	check_plain(r);
	return r->ev.type;
}

/* The current event's scalar text, or NULL when it is not a scalar. */
static const char *scalar(const struct yreader *r)
{
	if (r->ev.type != YAML_SCALAR_EVENT)
		return NULL;
	return (const char *)r->ev.data.scalar.value;
}

/* Is the current event a plain (unquoted) scalar? */
static bool plain(const struct yreader *r)
{
	return r->ev.type == YAML_SCALAR_EVENT &&
	       r->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

bool yreader_is_null(const struct yreader *r)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL" };
	const char *s = scalar(r);
	size_t i;

	if (r->ev.type == YAML_DOCUMENT_END_EVENT)
		return true;
	if (!s || !plain(r))
		return false;
	for (i = 0; i < sizeof(nulls) / sizeof(nulls[0]); i++)
		if (strcmp(s, nulls[i]) == 0)
			return true;
	return false;
}

/* What the current event is, for "must be X, not Y" messages. */
static const char *shown(const struct yreader *r, char *buf, size_t size)
{
	char *p;

	switch (r->ev.type) {
	case YAML_SEQUENCE_START_EVENT:
		return "a list";
	case YAML_MAPPING_START_EVENT:
		return "a map";
	case YAML_SCALAR_EVENT:
		if (yreader_is_null(r))
			return "empty";
		snprintf(buf, size, "'%.40s%s'", scalar(r),
			 strlen(scalar(r)) > 40 ? "..." : "");
		/* One line of message whatever the value holds. */
		for (p = buf; *p; p++)
			if ((unsigned char)*p < ' ')
				*p = '?';
		return buf;
	default:
		return "nothing";
	}
}

void yreader_wrong(const struct yreader *r, const char *what,
		   const char *must)
{
	char buf[64];

	yreader_die(r, "%s must be %s, not %s", what, must,
		    shown(r, buf, sizeof(buf)));
}

const char *yreader_string(struct yreader *r, const char *what,
			   const char *must)
{
	if (!scalar(r) || yreader_is_null(r))
		yreader_wrong(r, what, must);
	return scalar(r);
}

/*
 * Parse an integer the way C and YAML write them: decimal, 0x hex, 0o or
 * 0-prefixed octal, 0b binary, with an optional sign.  A negative value
 * comes back as its two's complement; false when s is not one or does
 * not fit in 64 bits.
 */
static bool parse_int(const char *s, uint64_t *v, bool *neg)
{
	unsigned long long u;
	const char *digits;
	char *end;
	int base = 10;

	*neg = false;
	if (*s == '-' || *s == '+')
		*neg = *s++ == '-';
	digits = s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s + 2;
	} else if (s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
		base = 8;
		digits = s + 2;
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		digits = s + 2;
	} else if (s[0] == '0' && s[1]) {
		base = 8;
		digits = s + 1;
	}
	/* strtoull would take spaces and a second sign: refuse them. */
	if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ')
		return false;
	errno = 0;
	u = strtoull(digits, &end, base);
	if (errno || *end)
		return false;
	if (*neg && u > (unsigned long long)INT64_MAX + 1)
		return false;
	*v = *neg ? (uint64_t)0 - u : u;
	return true;
}

uint64_t yreader_uint(struct yreader *r, const char *what, uint64_t min,
		      uint64_t max)
{
	char must[64];
	uint64_t v;
	bool neg;

	if (min == 0 && max >= UINT32_MAX)
		snprintf(must, sizeof(must), "a non-negative integer");
	else
		snprintf(must, sizeof(must), "an integer from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
	if (!plain(r) || !parse_int(scalar(r), &v, &neg) || (neg && v) ||
	    v < min || v > max)
		yreader_wrong(r, what, must);
	return v;
}

uint64_t yreader_int(struct yreader *r, const char *what)
{
	uint64_t v;
	bool neg;

	if (!plain(r) || !parse_int(scalar(r), &v, &neg))
		yreader_wrong(r, what, "an integer (such as 64, -1, 0x40 or 0100)");
	return v;
}

bool yreader_bool(struct yreader *r, const char *what)
{
	static const char *const words[] = {
		"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF",
		"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON",
	};
	size_t i;

	if (plain(r))
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strcmp(scalar(r), words[i]) == 0)
				return i >= 9;
	yreader_wrong(r, what, "true or false");
}

void yreader_list(struct yreader *r, const char *what, const char *must)
{
	char buf[160];

	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		snprintf(buf, sizeof(buf), "a list of %s", must);
		yreader_wrong(r, what, buf);
	}
}

void yreader_map(struct yreader *r, const char *what, const char *must)
{
	char buf[160];

	if (r->ev.type != YAML_MAPPING_START_EVENT) {
		snprintf(buf, sizeof(buf), "a map of %s", must);
		yreader_wrong(r, what, buf);
	}
}

bool yreader_list_more(struct yreader *r)
{
	return yreader_next(r) != YAML_SEQUENCE_END_EVENT;
}

const char *yreader_key(struct yreader *r)
{
	if (yreader_next(r) == YAML_MAPPING_END_EVENT)
		return NULL;
	if (!scalar(r) || yreader_is_null(r))
		yreader_die(r, "a key must be a name, not %s; write 'name: value'",
			    r->ev.type == YAML_SCALAR_EVENT ? "empty" :
			    r->ev.type == YAML_MAPPING_START_EVENT ? "a map" :
								     "a list");
	return scalar(r);
}

/* Levenshtein distance of a and b, both short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65];

	if (la > 64 || lb > 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

size_t yreader_key_index(const struct yreader *r, const char *key,
			 const char *const *keys, size_t n, unsigned *seen,
			 const char *where)
{
	size_t i, best = n, best_d = (size_t)-1;
	char list[256] = "";

	for (i = 0; i < n; i++) {
		if (strcmp(key, keys[i]) != 0)
			continue;
		if (*seen & (1u << i))
			yreader_die(r, "'%s' is given twice in %s; keep one",
				    key, where);
		*seen |= 1u << i;
		return i;
	}
	for (i = 0; i < n; i++) {
		size_t d = edit_distance(key, keys[i]);

		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	if (best < n && best_d <= 1 + strlen(key) / 4)
		yreader_die(r, "unknown key '%.64s' in %s; did you mean '%s'?",
			    key, where, keys[best]);
	for (i = 0; i < n; i++) {
		strcat(list, keys[i]);
		strcat(list, i + 2 < n ? ", " : i + 1 < n ? " or " : "");
	}
	yreader_die(r, "unknown key '%.64s' in %s; use %s", key, where, list);
}
