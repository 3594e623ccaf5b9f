/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem.c: the interposer's own memcpy, memset, memcmp and string helpers.
 *
 * The compiler may emit calls to memcpy, memset and memcmp (struct copies,
 * __builtin_memcmp).  Had they reached libc's versions, those use AVX
 * registers and would clobber the program's float arguments on the entry
 * path; and the interposer links no libc at all (sys.c says why).  These
 * plain versions, hidden in this object, keep every byte of the
 * interposer on general registers (the object is built with
 * -mgeneral-regs-only).
 */
#include <stdarg.h>

#include "interposer.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t ltr_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

int ltr_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

/* Compare at most n bytes of a and b. */
int ltr_strncmp(const char *a, const char *b, size_t n)
{
	for (; n && *a && *a == *b; n--)
		a++, b++;
	return n ? (unsigned char)*a - (unsigned char)*b : 0;
}

/* Copy src into dst of size bytes, always NUL-terminated. */
void ltr_strlcpy(char *dst, const char *src, size_t size)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* Does the environment entry s define the variable name ("name=...")? */
bool ltr_env_is(const char *s, const char *name)
{
	size_t i;

	for (i = 0; name[i] && s[i] == name[i]; i++)
		;
	return !name[i] && s[i] == '=';
}

/* Write v in decimal at buf (room for 21 bytes), NUL-terminated; its length. */
size_t ltr_utoa(char *buf, uint64_t v)
{
	char digits[20];
	size_t k = 0, n = 0;

	do
		digits[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (k)
		buf[n++] = digits[--k];
	buf[n] = '\0';
	return n;
}

/*
 * snprintf's little brother: fmt into buf (size bytes, NUL-terminated,
 * cut short if need be), with %s (a string) and %llu (unsigned long long)
 * only, which gcc checks as it checks printf's.  Its length.
 */
size_t ltr_format(char *buf, size_t size, const char *fmt, ...)
{
	char num[21];
	const char *s;
	size_t n = 0;
	va_list ap;

	if (!size)
		return 0;
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (fmt[0] == '%' && fmt[1] == 's') {
			s = va_arg(ap, const char *);
			fmt++;
		} else if (fmt[0] == '%' && fmt[1] == 'l' && fmt[2] == 'l' &&
			   fmt[3] == 'u') {
			ltr_utoa(num, va_arg(ap, unsigned long long));
			s = num;
			fmt += 3;
		} else {
			if (n + 1 < size)
				buf[n++] = *fmt;
			continue;
		}
		for (; *s && n + 1 < size; s++)
			buf[n++] = *s;
	}
	va_end(ap);
	buf[n] = '\0';
	return n;
}
