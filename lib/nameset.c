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
 * A set is filled before any lookup (la_version, or under the stubs'
 * lock) and never changes after.
 */
#include "interposer.h"

void ltr_nameset_add(struct ltr_nameset *s, const char *name, uint32_t value)
{
	uint32_t h = ltr_name_hash(name), i, n;

	for (i = h, n = 0; n < LTR_NAMESET_SIZE; i++, n++) {
		struct ltr_nameset_slot *slot = &s->slot[i & (LTR_NAMESET_SIZE - 1)];

		if (slot->name)
			continue;
		slot->name = name;
		slot->hash = h;
		slot->value = value;
		return;
	}
}

bool ltr_nameset_find(const struct ltr_nameset *s, const char *name,
		      uint32_t hash, uint32_t *value)
{
	uint32_t i, n;

	for (i = hash, n = 0; n < LTR_NAMESET_SIZE; i++, n++) {
		const struct ltr_nameset_slot *slot =
			&s->slot[i & (LTR_NAMESET_SIZE - 1)];

		if (!slot->name)
			return false;
		if (slot->hash == hash && ltr_strcmp(slot->name, name) == 0) {
			*value = slot->value;
			return true;
		}
	}
	return false;
}
