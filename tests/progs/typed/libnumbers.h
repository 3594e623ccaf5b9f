/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libnumbers.h: the numbers fixture's functions (libnumbers.c). */
#ifndef LIBNUMBERS_H
#define LIBNUMBERS_H

long num_sized(long a, long b, long c, long d, long e, long f);
long num_wide(long a, long b, long c);
long num_pointers(long a, long b, long c);
long num_raw(long a, long b, long c);
void num_void(long a);
long num_mixed(long a, const char *s, long b);
int num_str(const char *s);

#endif
