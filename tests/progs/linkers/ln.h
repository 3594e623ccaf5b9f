/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ln.h: what libln.so (and liblnxx.so) export to the linkers fixtures. */
#ifndef LN_H
#define LN_H

#ifdef __cplusplus
extern "C" {
#endif

int ln_add(int a, int b);
void ln_greet(const char *who);
int ln_apply(int v);

#ifdef __cplusplus
}
#endif

#endif
