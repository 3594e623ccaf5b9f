/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * printf-walk.h: walk a printf format, one conversion at a time.
 *
 * Shared, as one header, by the interposer (which fetches each vararg from
 * the registers or the stack at call time, and copies the strings of %s)
 * and by ltruss (which prints them): both sides must agree on which
 * argument each conversion takes.  Pure code, no libc.
 */
#ifndef LTRUSS_PRINTF_WALK_H
#define LTRUSS_PRINTF_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* Length modifiers. */
enum ltr_len {
	LTR_LEN_NONE, LTR_LEN_HH, LTR_LEN_H, LTR_LEN_L, LTR_LEN_LL,
	LTR_LEN_J, LTR_LEN_Z, LTR_LEN_T, LTR_LEN_BIGL,
};

/* One conversion of a format. */
struct ltr_conv {
	char conv;          /* 'd', 's', 'f'...; '%' and 'm' take no argument */
	unsigned char len;  /* enum ltr_len */
	unsigned char stars; /* '*' width and precision: int arguments before it */
	unsigned char cls;  /* enum ltr_va_class of its argument; 0 = none */
};

/*
 * The next conversion of fmt[0..n) from *pos on: fills c and advances *pos.
 * Returns false at the end of the format, and on what cannot be followed
 * safely (positional "%1$d", an unknown conversion): decoding stops there.
 */
static inline bool ltr_printf_next(const char *fmt, size_t n, size_t *pos,
				   struct ltr_conv *c)
{
	size_t i = *pos;

	for (; i < n && fmt[i]; i++) {
		if (fmt[i] != '%')
			continue;
		c->stars = 0;
		c->len = LTR_LEN_NONE;
		for (i++; i < n && fmt[i]; i++) { /* flags, width, precision */
			char ch = fmt[i];

			if (ch == '*')
				c->stars++;
			else if (ch == '$')
				return false;
			else if (!(ch == '-' || ch == '+' || ch == ' ' ||
				   ch == '#' || ch == '0' || ch == '\'' ||
				   ch == '.' || (ch >= '1' && ch <= '9') ||
				   ch == 'I'))
				break;
		}
		for (; i < n && fmt[i]; i++) { /* length */
			char ch = fmt[i];

			if (ch == 'h')
				c->len = c->len == LTR_LEN_H ? LTR_LEN_HH : LTR_LEN_H;
			else if (ch == 'l')
				c->len = c->len == LTR_LEN_L ? LTR_LEN_LL : LTR_LEN_L;
			else if (ch == 'q' || ch == 'L')
				c->len = ch == 'q' ? LTR_LEN_LL : LTR_LEN_BIGL;
			else if (ch == 'j')
				c->len = LTR_LEN_J;
			else if (ch == 'z' || ch == 'Z')
				c->len = LTR_LEN_Z;
			else if (ch == 't')
				c->len = LTR_LEN_T;
			else
				break;
		}
		if (i >= n || !fmt[i])
			return false;
		c->conv = fmt[i];
		switch (fmt[i]) {
		case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
		case 'c':
			c->cls = LTR_VA_INT;
			break;
		case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
		case 'a': case 'A':
			c->cls = c->len == LTR_LEN_BIGL ? LTR_VA_LDOUBLE
							 : LTR_VA_DOUBLE;
			break;
		case 's':
			/* %ls is a wide string: shown as a pointer. */
			c->cls = c->len == LTR_LEN_L ? LTR_VA_POINTER
						     : LTR_VA_STRING;
			break;
		case 'p': case 'n': case 'S':
			c->cls = LTR_VA_POINTER;
			break;
		case 'C':
			c->cls = LTR_VA_INT;
			break;
		case '%': case 'm':
			c->cls = 0;
			break;
		default:
			return false;
		}
		*pos = i + 1;
		return true;
	}
	return false;
}

#endif
