/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libtyped.h: functions of every argument kind, for the typed-output tests. */
#ifndef LIBTYPED_H
#define LIBTYPED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

int ty_string(const char *s);
double ty_floats(double a, float b, int c);
long double ty_ldouble(long double x);
int ty_out_int(int *out);
int ty_wait_out(int n, int *out, int mode);
ssize_t ty_fill(char *buf, size_t n);
ssize_t ty_fill_nested(char *buf, size_t n);
int ty_flags(int flags);
int ty_fail(int err);
int ty_errnum(int err);
int ty_many(int a, int b, int c, int d, int e, int f, int g, const char *h);
double ty_many_doubles(double a, double b, double c, double d, double e,
		       double f, double g, double h, double i);
int ty_callback(int (*cb)(int), int v);
bool ty_bool(bool b);
char ty_char(char c);
int ty_small(signed char a, unsigned short b, unsigned long long c);
const char *ty_name(int n);
int ty_print(const char *fmt, ...);

#endif
