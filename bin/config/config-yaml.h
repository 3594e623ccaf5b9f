/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config-yaml.h: a strict pull reader over libyaml's events, for configs
 * whose shape is known: lists, maps with known keys, scalars of one type.
 * Every mistake dies with "ltruss: error: FILE:LINE:COL: ..." (exit 2).
 */
#ifndef LTRUSS_CONFIG_YAML_H
#define LTRUSS_CONFIG_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

struct yreader {
	yaml_parser_t parser;
	yaml_event_t ev;        /* the current event */
	bool have_ev;
	const char *file;       /* the name in messages */
	unsigned char *text;    /* the whole file */
	size_t len;
};

/*
 * Read the file at path (named file in messages) and start parsing it.
 * Returns false with errno set when it cannot be read.
 */
bool yreader_open(struct yreader *r, const char *path, const char *file);

void yreader_close(struct yreader *r);

/* Move to the next event and return its type; die on a YAML error. */
yaml_event_type_t yreader_next(struct yreader *r);

/* Die with a message at the current event's position. */
void yreader_die(const struct yreader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* The 1-based line and column of the current event. */
unsigned yreader_line(const struct yreader *r);
unsigned yreader_col(const struct yreader *r);

/*
 * Is the current event an empty value ("key:", "~", "null")?  Also for
 * a document with nothing in it.
 */
bool yreader_is_null(const struct yreader *r);

/*
 * The readers of values look at the current event: after yreader_next()
 * for a map's value, after yreader_list_more() for a list's item.
 */

/* Die: "WHAT must be MUST, not <what the current event is>". */
void yreader_wrong(const struct yreader *r, const char *what, const char *must)
	__attribute__((noreturn));

/* A non-empty scalar, whose text is returned (valid until the next event). */
const char *yreader_string(struct yreader *r, const char *what,
			   const char *must);

/* A non-negative integer from min to max. */
uint64_t yreader_uint(struct yreader *r, const char *what, uint64_t min,
		      uint64_t max);

/*
 * An integer, negative or not (decimal, 0x hex, 0o or 0 octal, 0b), as
 * 64 bits (two's complement when negative).
 */
uint64_t yreader_int(struct yreader *r, const char *what);

/* true or false (also yes/no, on/off). */
bool yreader_bool(struct yreader *r, const char *what);

/* The start of a list ("WHAT must be a list of MUST"). */
void yreader_list(struct yreader *r, const char *what, const char *must);

/* The start of a map ("WHAT must be a map of MUST"). */
void yreader_map(struct yreader *r, const char *what, const char *must);

/* Next event: another item of the list (true), or its end (false). */
bool yreader_list_more(struct yreader *r);

/*
 * Next event: the next key of a map (its text), or NULL at the map's end.
 * A key that is not a plain string dies.
 */
const char *yreader_key(struct yreader *r);

/*
 * Index of key in keys[n]; an unknown key dies with the closest valid
 * key ("did you mean 'functions'?"), a key seen before (bit in *seen)
 * dies as a duplicate.  where says which map ("a trace rule").
 */
size_t yreader_key_index(const struct yreader *r, const char *key,
			 const char *const *keys, size_t n, unsigned *seen,
			 const char *where);

#endif
