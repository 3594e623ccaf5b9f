/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strmap.h: a map from strings to pointers, for tables a trace file fills. */
#ifndef LTRUSS_STRMAP_H
#define LTRUSS_STRMAP_H

#include <stddef.h>

struct strmap_slot;

/* Zero-initialised: empty. */
struct strmap {
	struct strmap_slot *slots;
	size_t size, used; /* size: a power of two, or 0 */
};

/* The value of key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);

/*
 * The address of key's value, key added (a copy, its value NULL) if it
 * was not there; valid until the next strmap_slot().
 */
void **strmap_slot(struct strmap *m, const char *key);

/* Call fn on every value, then empty the map (the keys freed). */
void strmap_clear(struct strmap *m, void (*fn)(void *value));

#endif
