/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-value.c: the text of one value, written into a bounded buffer
 * (struct out) that is never overrun and always NUL-terminated.  A full
 * trace prints millions of values: the common cases are written by hand,
 * by table where they can be, without printf's machinery.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format-value.h"
#include "format.h"

void put_printf(struct out *o, const char *f, ...)
{
	va_list ap;
	int n;

	o->unsafe = true;
	if (o->len + 1 >= o->size)
		return;
	va_start(ap, f);
	n = vsnprintf(o->buf + o->len, o->size - o->len, f, ap);
	va_end(ap);
	if (n > 0)
		o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n
						       : o->size - 1;
}

/*
 * The common cases without vsnprintf: a full trace formats millions of
 * values, and printf's machinery was most of the reader's time.  Like
 * put_printf, they keep buf NUL-terminated and cut what does not fit.
 */

/* Append n bytes of s. */
static void put_bytes(struct out *o, const char *s, size_t n)
{
	o->unsafe = true;
	if (o->len + 1 >= o->size)
		return;
	if (n > o->size - 1 - o->len)
		n = o->size - 1 - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Append the C string s. */
void put_text(struct out *o, const char *s)
{
	put_bytes(o, s, strlen(s));
}

/* Append v in decimal, '-' first when negative. */
void put_decimal(struct out *o, uint64_t v, bool negative)
{
	unsigned n = format_decimal_digits(v);
	char tmp[FORMAT_DECIMAL_MAX];

	if (o->len + negative + n < o->size) {
		char *p = o->buf + o->len;

		*p = '-';
		format_decimal_at(p + negative, v, n);
		o->len += negative + n;
		o->buf[o->len] = '\0';
		return;
	}
	tmp[0] = '-';
	format_decimal_at(tmp + 1, v, n);
	put_bytes(o, tmp + !negative, negative + n);
}

/* Append v as a signed decimal. */
void put_signed(struct out *o, int64_t v)
{
	put_decimal(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* Append v as 0x and lowercase hex digits ("0" stays "0x0"). */
static void put_hex(struct out *o, uint64_t v)
{
	if (o->len + FORMAT_HEX_ROOM + 1 > o->size) {
		char tmp[18];
		size_t n = sizeof(tmp);

		do
			tmp[--n] = "0123456789abcdef"[v & 0xf];
		while ((v >>= 4) != 0);
		put_bytes(o, "0x", 2);
		put_bytes(o, tmp + n, sizeof(tmp) - n);
		return;
	}
	o->len += format_hex_at(o->buf + o->len, v);
	o->buf[o->len] = '\0';
}

/* Append v in octal as file modes are written: 0755, 022, 000. */
void put_octal(struct out *o, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	do
		tmp[--n] = (char)('0' + (v & 7));
	while ((v >>= 3) != 0);
	while (sizeof(tmp) - n < 3)
		tmp[--n] = '0';
	if (tmp[n] != '0')
		tmp[--n] = '0';
	put_bytes(o, tmp + n, sizeof(tmp) - n);
}

/* A pointer: NULL, or hex. */
void put_pointer(struct out *o, uint64_t v)
{
	if (v)
		put_hex(o, v);
	else
		put_text(o, "NULL");
}

/* A word of a function without a prototype: 0, or hex. */
void put_raw(struct out *o, uint64_t v)
{
	if (v)
		put_hex(o, v);
	else
		put_bytes(o, "0", 1);
}

/*
 * One byte inside a quoted string, escaped as C and strace do, written at
 * dst (at most 4 bytes); returns the bytes written.  next is the byte after
 * it (-1 at the end): an octal escape before a digit takes all three digits.
 * A full trace escapes millions of bytes: no strchr, no printf here.
 */
static size_t escape_byte(char *dst, unsigned char ch, int next)
{
	static const char names[256] = {
		['\a'] = 'a', ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
		['\v'] = 'v', ['\f'] = 'f', ['\r'] = 'r', ['"'] = '"',
		['\\'] = '\\',
	};
	size_t n = 0;

	if (names[ch]) {
		dst[n++] = '\\';
		dst[n++] = names[ch];
	} else if (ch >= 0x20 && ch < 0x7f) {
		dst[n++] = (char)ch;
	} else {
		dst[n++] = '\\';
		if (ch >= 0100 || (next >= '0' && next <= '7'))
			dst[n++] = (char)('0' + (ch >> 6));
		if (ch >= 010 || (next >= '0' && next <= '7'))
			dst[n++] = (char)('0' + ((ch >> 3) & 7));
		dst[n++] = (char)('0' + (ch & 7));
	}
	return n;
}

/* One byte inside a quoted string (see escape_byte). */
static void put_escaped_byte(struct out *o, unsigned char ch, int next)
{
	char tmp[4];

	put_bytes(o, tmp, escape_byte(tmp, ch, next));
}

/* Each byte's escape when no digit follows it, built once (see escape_byte). */
static struct {
	char text[4];
	unsigned char len;
	bool before_digit; /* a short octal escape: longer before a digit */
} escapes[256];

/*
 * The same escapes as the inside of a JSON string: each '"' and '\\' of
 * them escaped again ("\\303" for byte 0303, "\\\"" for '"').
 */
static struct {
	char text[8];
	unsigned char len;
} json_escapes[256];

/* Fill escapes[] and json_escapes[] on first use. */
static void escapes_init(void)
{
	unsigned ch, k;

	for (ch = 0; ch < 256; ch++) {
		escapes[ch].len = (unsigned char)escape_byte(escapes[ch].text,
							     (unsigned char)ch, -1);
		escapes[ch].before_digit =
			escape_byte((char[4]){ 0 }, (unsigned char)ch, '0') !=
			escapes[ch].len;
		for (k = 0; k < escapes[ch].len; k++) {
			char c = escapes[ch].text[k];

			if (c == '"' || c == '\\')
				json_escapes[ch].text[json_escapes[ch].len++] = '\\';
			json_escapes[ch].text[json_escapes[ch].len++] = c;
		}
	}
}

/*
 * s[0..len) quoted at d, "..." after it when cut, NUL-terminated; returns
 * the end (at the NUL).  Room for 4 bytes a byte and 16 more, or 8 and
 * 16 when json: put_quoted's text escaped for the inside of a JSON string
 * (its quotes and octal escapes with one more backslash each, by a table
 * of its own), for a --json value written once, not as text then escaped
 * again.
 */
static inline __attribute__((always_inline)) char *
quoted_at(char *d, const unsigned char *s, size_t len, bool cut, bool json)
{
	size_t i;

	if (json)
		*d++ = '\\';
	*d++ = '"';
	for (i = 0; i < len; i++) {
		unsigned char ch;

		/* The plain bytes up to the next to escape, whole. */
		size_t run = format_plain_copy(d, s + i, len - i);

		d += run;
		i += run;
		if (i == len)
			break;
		/*
		 * The bytes to escape in a row (UTF-8 comes in pairs and
		 * triples), each by table, until a plain one (escaped as
		 * itself: 1 byte).
		 */
		do {
			ch = s[i];
			if (escapes[ch].before_digit && i + 1 < len &&
			    s[i + 1] >= '0' && s[i + 1] <= '7') {
				if (json)
					*d++ = '\\';
				d += escape_byte(d, ch, s[i + 1]);
			} else if (json) {
				memcpy(d, json_escapes[ch].text, 8);
				d += json_escapes[ch].len;
			} else {
				memcpy(d, escapes[ch].text, 4);
				d += escapes[ch].len;
			}
		} while (++i < len && escapes[s[i]].len != 1);
		i--; /* the loop's i++ */
	}
	if (json)
		*d++ = '\\';
	memcpy(d, cut ? "\"...\0" : "\"\0", cut ? 5 : 2);
	return d + (cut ? 4 : 1);
}

/*
 * Bytes as a quoted string; "..." after it when cut.  Written straight
 * into o, by table: strings are most of what a real program's trace
 * prints (a traced sort spent a third of the reader's time here).
 */
void put_quoted(struct out *o, const unsigned char *s, size_t len,
		bool cut)
{
	char tmp[256];
	size_t i, n = 0;

	if (!escapes['a'].len)
		escapes_init();
	/* Room for every byte as 5 (8 stored), the quotes and "...". */
	if (o->json && len < o->size && o->len + 8 * len + 16 < o->size) {
		o->len = (size_t)(quoted_at(o->buf + o->len, s, len, cut,
					    true) - o->buf);
		o->json_done = true;
		return;
	}
	o->unsafe = true; /* the text's quotes and backslashes */
	/* Room for every byte as 4, 4 more written past the last, the quotes. */
	if (len < o->size && o->len + 4 * len + 16 < o->size) {
		o->len = (size_t)(quoted_at(o->buf + o->len, s, len, cut,
					    false) - o->buf);
		return;
	}
	put_text(o, "\"");
	for (i = 0; i < len; i++) {
		if (n > sizeof(tmp) - 4) {
			put_bytes(o, tmp, n);
			n = 0;
		}
		n += escape_byte(tmp + n, s[i], i + 1 < len ? s[i + 1] : -1);
	}
	put_bytes(o, tmp, n);
	put_text(o, cut ? "\"..." : "\"");
}

/* A double as the shortest text that reads back the same. */
void put_double(struct out *o, double d)
{
	char tmp[64];

	snprintf(tmp, sizeof(tmp), "%.15g", d);
	if (strtod(tmp, NULL) != d)
		snprintf(tmp, sizeof(tmp), "%.17g", d);
	put_text(o, tmp);
}

/* A float, likewise. */
void put_float(struct out *o, float f)
{
	char tmp[64];

	snprintf(tmp, sizeof(tmp), "%.6g", f);
	if (strtof(tmp, NULL) != f)
		snprintf(tmp, sizeof(tmp), "%.9g", f);
	put_text(o, tmp);
}

/* A long double from its 10 bytes. */
void put_long_double(struct out *o, const unsigned char *bytes)
{
	long double ld = 0;

	memcpy(&ld, bytes, 10);
	put_printf(o, "%Lg", ld);
}

/* A character literal. */
void put_char(struct out *o, unsigned char ch)
{
	put_printf(o, "'");
	put_escaped_byte(o, ch == '\'' ? 0 : ch, -1);
	if (ch == '\'')
		o->len--, put_printf(o, "\\'");
	put_printf(o, "'");
}

/* The name of v (size bytes) in a value list, or NULL. */
static const char *value_name(const struct type_value *vals, size_t n,
			      uint64_t v, unsigned size)
{
	size_t i;

	/* Negative values (AT_FDCWD) are stored sign-extended. */
	for (i = 0; i < n; i++)
		if (zero_extend(vals[i].value, size) == v)
			return vals[i].name;
	return NULL;
}

/* A value of named enum or flags type t: O_RDONLY|O_CREAT|0x100000. */
void put_named(struct out *o, const struct named_type *t, uint64_t v)
{
	const char *name;
	bool any = false;
	size_t i;

	if (!t) {
		put_signed(o, sign_extend(v, 4));
		return;
	}
	v = zero_extend(v, t->size);
	if (!t->nflags || t->mask) {
		uint64_t part = t->nflags ? v & t->mask : v;

		name = value_name(t->enums, t->nenums, part, t->size);
		if (!t->nflags) {
			if (name)
				put_text(o, name);
			else
				put_signed(o, sign_extend(v, t->size));
			return;
		}
		if (name)
			put_text(o, name);
		else
			put_printf(o, "%#llx", (unsigned long long)part);
		any = true;
		v &= ~t->mask;
	}
	for (i = 0; i < t->nflags && v; i++) {
		uint64_t bit = t->flags[i].value;

		if (bit && (v & bit) == bit) {
			put_printf(o, "%s%s", any ? "|" : "", t->flags[i].name);
			any = true;
			v &= ~bit;
		}
	}
	if (v || !any) {
		name = !v ? value_name(t->flags, t->nflags, 0, t->size) : NULL;
		if (name)
			put_printf(o, "%s%s", any ? "|" : "", name);
		else
			put_printf(o, any ? "|%#llx" : "%#llx", (unsigned long long)v);
	}
}
