/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-string.h: strings as JSON strings, escaped. */
#ifndef LTRUSS_JSON_STRING_H
#define LTRUSS_JSON_STRING_H

#include <stddef.h>
#include <stdio.h>

/* The most bytes json_escape() writes for n bytes. */
#define JSON_ESCAPED_MAX(n) (6 * (n))

/*
 * s[0..n) as the inside of a JSON string, at dst (room for
 * JSON_ESCAPED_MAX(n) bytes); returns the bytes written.
 */
size_t json_escape(char *dst, const unsigned char *s, size_t n);

/* Write s to out as a JSON string, quoted and escaped. */
void json_write_string(FILE *out, const char *s);

#endif
