/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nameset.c: a fixed set of names, each with a number, found by the hash
 * of the name: the hooked functions (hooks.c), those traced on entry only
 * (stubs.c).
 *
 * Every binding of a function asks both whether its name is one of them.
 * Asked a string comparison at a time (70 hooks, 40 entry-only names),
 * that was over half of what la_symbind64 cost: 190 000 instructions of
 * jq's start, for 660 bindings.  Here a name that is none costs its hash
 * (computed once by the caller) and, most of the time, one empty slot.
 * A set indexes its caller's own table (the entries' names, a stride
 * apart) in 512 bytes: no page of its own to fault in at every start.
 * It is filled once, before any lookup (la_version), and never changes
 * after.
 */
#include "interposer.h"

/* The name of entry i of s's table. */
static const char *name_of(const struct ltr_nameset *s, uint32_t i)
{
	return *(const char *const *)((const char *)s->first + i * s->stride);
}

void ltr_nameset_init(struct ltr_nameset *s, const char *const *first,
		      size_t stride, uint32_t n)
{
	uint32_t e, h, i;

	s->first = first;
	s->stride = stride;
	/* n is at most LTR_NAMESET_SIZE / 2: the callers assert it. */
	for (e = 0; e < n; e++) {
		h = ltr_name_hash(name_of(s, e));
		for (i = h; s->slot[i & (LTR_NAMESET_SIZE - 1)]; i++)
			;
		s->tag[i & (LTR_NAMESET_SIZE - 1)] = (uint8_t)(h >> 24);
		s->slot[i & (LTR_NAMESET_SIZE - 1)] = (uint8_t)(e + 1);
	}
}

bool ltr_nameset_find(const struct ltr_nameset *s, const char *name,
		      uint32_t hash, uint32_t *entry)
{
	uint32_t i, v;

	for (i = hash; (v = s->slot[i & (LTR_NAMESET_SIZE - 1)]) != 0; i++)
		if (s->tag[i & (LTR_NAMESET_SIZE - 1)] == (uint8_t)(hash >> 24) &&
		    ltr_strcmp(name_of(s, v - 1), name) == 0) {
			*entry = v - 1;
			return true;
		}
	return false;
}
