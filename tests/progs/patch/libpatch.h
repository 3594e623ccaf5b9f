/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libpatch.h: the library of tests/patch.bats's library fixtures. */
#ifndef LIBPATCH_H
#define LIBPATCH_H

int patch_twice(int x);
int (*patch_helper_ptr(void))(int);
unsigned patch_helper_calls(void);
unsigned patch_twice_calls(void);

#endif
