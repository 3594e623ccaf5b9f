/* SPDX-License-Identifier: GPL-2.0-or-later */
/* selfplt.h: libpatch's function it calls through its own PLT (selfplt.c). */
#ifndef SELFPLT_H
#define SELFPLT_H

int selfplt_leaf(int x);
int selfplt_twice(int x);
unsigned selfplt_leaf_calls(void);

#endif
