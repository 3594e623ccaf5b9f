/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xmalloc.c: allocations that end ltruss (exit 2) when memory runs out. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "xmalloc.h"

/* p, or the end of ltruss if it is NULL. */
static void *checked(void *p)
{
	if (!p)
		error_msg_and_die("out of memory");
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return checked(n < 0 ? NULL : s);
}

void *xgrow(void *v, uint32_t *room, uint32_t at, size_t size)
{
	uint32_t n = *room;

	if (at < n)
		return v;
	while (n <= at)
		n = n ? 2 * n : 64;
	v = xrealloc(v, (size_t)n * size);
	memset((char *)v + (size_t)*room * size, 0, (size_t)(n - *room) * size);
	*room = n;
	return v;
}
