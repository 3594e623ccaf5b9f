/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sort-keys.c: the keys a summary sorts by, by name (-S, the console's sort). */
#include "config.h"

#include <string.h>

#include "sort-keys.h"

static const char *const sort_keys[SORT_KEYS] = {
	[SORT_TIME] = "time", [SORT_SELF] = "self", [SORT_CALLS] = "calls",
	[SORT_AVG] = "avg", [SORT_MAX] = "max", [SORT_ERRORS] = "errors",
	[SORT_NAME] = "name",
};

bool sort_key_parse(const char *name, enum sort_key *key)
{
	size_t i;

	for (i = 0; i < SORT_KEYS; i++) {
		if (strcmp(name, sort_keys[i]) == 0) {
			*key = (enum sort_key)i;
			return true;
		}
	}
	return false;
}

const char *sort_key_name(enum sort_key key)
{
	return sort_keys[key];
}
