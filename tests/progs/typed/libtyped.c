/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libtyped.c: functions of every argument kind, for the typed-output tests. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libtyped.h"

int ty_string(const char *s)
{
	return s ? 1 : 0;
}

double ty_floats(double a, float b, int c)
{
	return a + b + c;
}

long double ty_ldouble(long double x)
{
	return x * 2;
}

int ty_out_int(int *out)
{
	*out = 42;
	return 0;
}

/* Block 200 ms (a call shown before it returns), then set *out. */
int ty_wait_out(int n, int *out, int mode)
{
	struct timespec ts = { 0, 200000000 };

	nanosleep(&ts, NULL);
	*out = n + mode;
	return 0;
}

ssize_t ty_fill(char *buf, size_t n)
{
	static const char text[] = "filled\tin\n";
	size_t len = n < sizeof(text) - 1 ? n : sizeof(text) - 1;

	memcpy(buf, text, len);
	return (ssize_t)len;
}

/* ty_fill, after a traced call of its own (getpid) nested inside it. */
ssize_t ty_fill_nested(char *buf, size_t n)
{
	(void)getpid();
	return ty_fill(buf, n);
}

int ty_flags(int flags)
{
	return flags;
}

int ty_fail(int err)
{
	errno = err;
	return -1;
}

int ty_errnum(int err)
{
	return err;
}

int ty_many(int a, int b, int c, int d, int e, int f, int g, const char *h)
{
	return a + b + c + d + e + f + g + (int)strlen(h);
}

double ty_many_doubles(double a, double b, double c, double d, double e,
		       double f, double g, double h, double i)
{
	return a + b + c + d + e + f + g + h + i;
}

int ty_callback(int (*cb)(int), int v)
{
	return cb(v);
}

bool ty_bool(bool b)
{
	return !b;
}

char ty_char(char c)
{
	return (char)(c + 1);
}

int ty_small(signed char a, unsigned short b, unsigned long long c)
{
	return a + b + (int)c;
}

const char *ty_name(int n)
{
	return n ? "one\x01" : NULL;
}

int ty_print(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return n;
}
