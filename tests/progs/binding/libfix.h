/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libfix.h: the fixture library's interface. */
#ifndef LTRUSS_TESTS_LIBFIX_H
#define LTRUSS_TESTS_LIBFIX_H

int fix_add(int a, int b);
int fix_twice(int a);
int fix_ver(void);
int fix_pick(int x);

#endif
