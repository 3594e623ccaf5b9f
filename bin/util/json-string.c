/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-string.c: the one JSON string escaper, for the --json trace, its
 * stacks and the JSON summary: valid JSON whatever bytes a name holds.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "json-string.h"
#include "utf8.h"
#include "xmalloc.h"

/*
 * The one JSON string escaper: s[0..n) as the inside of a JSON string, at
 * dst (room for JSON_ESCAPED_MAX(n) bytes); returns the bytes written.
 * Valid JSON whatever s holds (names and paths come from the session):
 * control characters as \u00XX, and a byte that is not part of
 * well-formed UTF-8 as the text \xNN, as the text lines print it.  Runs
 * that need nothing are copied whole.
 */
size_t json_escape(char *dst, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *d = dst;
	size_t i = 0, run, len;

	while (i < n) {
		unsigned char c;

		run = format_plain(s + i, n - i);
		memcpy(d, s + i, run);
		d += run;
		i += run;
		if (i == n)
			break;
		c = s[i];
		if (c == '"' || c == '\\') {
			*d++ = '\\';
			*d++ = (char)c;
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(d, "\\u00", 4);
			d[4] = hex[c >> 4];
			d[5] = hex[c & 0xf];
			d += 6;
			i++;
		} else if ((len = utf8_length(s + i, n - i)) != 0) {
			memcpy(d, s + i, len);
			d += len;
			i += len;
		} else {
			memcpy(d, "\\\\x", 3);
			d[3] = hex[c >> 4];
			d[4] = hex[c & 0xf];
			d += 5;
			i++;
		}
	}
	return (size_t)(d - dst);
}

void json_write_string(FILE *out, const char *s)
{
	size_t n = strlen(s);
	char small[256], *buf = small;

	if (JSON_ESCAPED_MAX(n) + 2 > sizeof(small))
		buf = xmalloc(JSON_ESCAPED_MAX(n) + 2);
	buf[0] = '"';
	n = 1 + json_escape(buf + 1, (const unsigned char *)s, n);
	buf[n++] = '"';
	fwrite(buf, 1, n, out);
	if (buf != small)
		free(buf);
}
