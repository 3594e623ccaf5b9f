/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * playback-text.c: the C text of recorded values in a --playback program:
 * bytes as string literals, comments that stay comments, a type's C name,
 * a double as an exact literal.  Below the rest of the playback, which
 * all write through it.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "playback-internal.h"

void playback_write_bytes(FILE *o, const unsigned char *data, size_t len,
			  const char *indent)
{
	size_t i;

	fputc('"', o);
	for (i = 0; i < len; i++) {
		unsigned char ch = data[i];

		if (i && i % 64 == 0)
			fprintf(o, "\"\n%s\"", indent);
		/* Octal, three digits: no escape runs into the next byte; '?' no trigraph. */
		if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' ||
		    ch == '?')
			fprintf(o, "\\%03o", ch);
		else
			fputc(ch, o);
	}
	fputc('"', o);
}

void playback_comment(FILE *o, const char *text)
{
	for (; *text; text++) {
		fputc(*text, o);
		/* "*" then "/" would end the comment: a space between. */
		if (*text == '*' && text[1] == '/')
			fputc(' ', o);
	}
}

void playback_ctype(const struct ptype *t, char *buf, size_t size)
{
	/* Integers by width; any pointer, as the calling convention sees it, void *. */
	static const char *const names[] = {
		[CT_VOID] = "void", [CT_BOOL] = "_Bool", [CT_CHAR] = "char",
		[CT_FLOAT] = "float", [CT_DOUBLE] = "double",
		[CT_LDOUBLE] = "long double", [CT_STRING] = "const char *",
	};
	unsigned bits = (t->size ? t->size : 4) * 8u;

	if (t->kind == CT_INT || t->kind == CT_NAMED || t->kind == CT_UINT)
		snprintf(buf, size, "%sint%u_t", t->kind == CT_UINT ? "u" : "",
			 bits);
	else if ((size_t)t->kind < sizeof(names) / sizeof(names[0]) &&
		 names[t->kind])
		snprintf(buf, size, "%s", names[t->kind]);
	else
		snprintf(buf, size, "void *");
}

void playback_double(char *buf, size_t size, double d, const char *prefix)
{
	if (isnan(d))
		snprintf(buf, size, "%s__builtin_nan(\"\")", prefix);
	else if (isinf(d))
		snprintf(buf, size, "%s%s__builtin_inf()", prefix,
			 d < 0 ? "-" : "");
	else
		snprintf(buf, size, "%s%a", prefix, d);
}
