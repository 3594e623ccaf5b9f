/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libselfplt.h: the library of tests/patch.bats's hint fixture. */
#ifndef LIBSELFPLT_H
#define LIBSELFPLT_H

int selfplt_leaf(int x);
int selfplt_twice(int x);
unsigned selfplt_leaf_calls(void);

#endif
