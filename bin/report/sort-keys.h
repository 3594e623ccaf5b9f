/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sort-keys.h: the keys a summary sorts by (-S, the console's sort). */
#ifndef LTRUSS_SORT_KEYS_H
#define LTRUSS_SORT_KEYS_H

#include <stdbool.h>

/* Summary sort keys (-S). */
enum sort_key { SORT_TIME, SORT_SELF, SORT_CALLS, SORT_AVG, SORT_MAX,
		SORT_ERRORS, SORT_NAME };
#define SORT_KEYS (SORT_NAME + 1)

/* The key called name into *key; false if there is none. */
bool sort_key_parse(const char *name, enum sort_key *key);

/* The name of key. */
const char *sort_key_name(enum sort_key key);

#endif
