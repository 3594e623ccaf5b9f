/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-value.h: the text of one value, written into a bounded buffer:
 * integers in decimal, hex and octal, pointers, escaped and quoted bytes,
 * floats that read back the same, character literals, and the names of
 * enum and flags values.  format-args.c decides which value a call has and
 * which of these prints it.
 */
#ifndef LTRUSS_FORMAT_VALUE_H
#define LTRUSS_FORMAT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conf.h"

/*
 * A small buffer being written, never overrun.  json: a --json value,
 * whose quoted strings may be written escaped for a JSON string at once
 * (put_quoted); then json_done says one was, and unsafe that something
 * else wrote text JSON may have to escape (put_bytes, put_printf, a
 * string as text).
 */
struct out {
	char *buf;
	size_t size, len;
	bool json, json_done, unsafe;
};

/* Append printf-formatted text to o. */
void put_printf(struct out *o, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* Append the C string s. */
void put_text(struct out *o, const char *s);

/* Append v in decimal, '-' first when negative. */
void put_decimal(struct out *o, uint64_t v, bool negative);

/* Append v as a signed decimal. */
void put_signed(struct out *o, int64_t v);

/* Append v in octal as file modes are written: 0755, 022, 000. */
void put_octal(struct out *o, uint64_t v);

/* A pointer: NULL, or hex. */
void put_pointer(struct out *o, uint64_t v);

/* A word of a function without a prototype: 0, or hex. */
void put_raw(struct out *o, uint64_t v);

/*
 * Bytes as a quoted string; "..." after it when cut.  Written straight
 * into o, by table: strings are most of what a real program's trace
 * prints (a traced sort spent a third of the reader's time here).
 */
void put_quoted(struct out *o, const unsigned char *s, size_t len, bool cut);

/* A double as the shortest text that reads back the same. */
void put_double(struct out *o, double d);

/* A float, likewise. */
void put_float(struct out *o, float f);

/* A long double from its 10 bytes. */
void put_long_double(struct out *o, const unsigned char *bytes);

/* A character literal. */
void put_char(struct out *o, unsigned char ch);

/* A value of named enum or flags type t: O_RDONLY|O_CREAT|0x100000. */
void put_named(struct out *o, const struct named_type *t, uint64_t v);

/* v sign-extended from size bytes. */
static inline int64_t sign_extend(uint64_t v, unsigned size)
{
	if (size >= 8 || !size)
		return (int64_t)v;
	return (int64_t)(v << (64 - 8 * size)) >> (64 - 8 * size);
}

/* v zero-extended from size bytes. */
static inline uint64_t zero_extend(uint64_t v, unsigned size)
{
	return size >= 8 || !size ? v : v & ((1ull << (8 * size)) - 1);
}

#endif
