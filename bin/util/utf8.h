/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8.h: what the JSON escaper and the names of Tcl frames take for UTF-8. */
#ifndef LTRUSS_UTF8_H
#define LTRUSS_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bytes of the well-formed UTF-8 sequence at s (1 to 4, at most n), or 0
 * if s does not start one: no overlong forms, surrogates or values past
 * U+10FFFF.
 */
static inline size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

#endif
