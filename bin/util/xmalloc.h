/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xmalloc.h: allocations that end ltruss (exit 2) when memory runs out. */
#ifndef LTRUSS_XMALLOC_H
#define LTRUSS_XMALLOC_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/*
 * v (an array of *room entries of size bytes), grown if need be to hold
 * entry at, the new entries zeroed; *room is updated.
 */
void *xgrow(void *v, uint32_t *room, uint32_t at, size_t size);
/* asprintf's string, or the end of ltruss. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
