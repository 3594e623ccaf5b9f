/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strmap.c: a map from strings to pointers, by open addressing.
 *
 * What --read builds from a trace file is keyed by names the file
 * chooses (object paths, library names, type names): a list searched
 * for each record would make a file of n records cost n * n.  Here a
 * lookup costs one hash of the key and, the table kept at most half
 * full, a probe or two, whatever the file holds.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/session.h"
#include "strmap.h"
#include "xmalloc.h"

struct strmap_slot {
	char *key; /* NULL: free */
	uint32_t hash;
	void *value;
};

/* The slot of key in m (m->size > 0): its own, or the free one it would take. */
static struct strmap_slot *slot_find(const struct strmap *m, const char *key,
				     uint32_t h)
{
	size_t i = h & (m->size - 1);

	while (m->slots[i].key &&
	       (m->slots[i].hash != h || strcmp(m->slots[i].key, key) != 0))
		i = (i + 1) & (m->size - 1);
	return &m->slots[i];
}

/* Double m's table (or make its first), its entries moved over. */
static void grow(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->size = old.size ? 2 * old.size : 64;
	m->slots = xcalloc(m->size, sizeof(*m->slots));
	for (i = 0; i < old.size; i++)
		if (old.slots[i].key)
			*slot_find(m, old.slots[i].key, old.slots[i].hash) =
				old.slots[i];
	free(old.slots);
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return m->size ? slot_find(m, key, ltr_name_hash(key))->value : NULL;
}

void **strmap_slot(struct strmap *m, const char *key)
{
	uint32_t h = ltr_name_hash(key);
	struct strmap_slot *s;

	if (2 * (m->used + 1) > m->size)
		grow(m);
	s = slot_find(m, key, h);
	if (!s->key) {
		s->key = xstrdup(key);
		s->hash = h;
		s->value = NULL;
		m->used++;
	}
	return &s->value;
}

void strmap_clear(struct strmap *m, void (*fn)(void *value))
{
	size_t i;

	for (i = 0; i < m->size; i++) {
		if (!m->slots[i].key)
			continue;
		if (fn)
			fn(m->slots[i].value);
		free(m->slots[i].key);
	}
	free(m->slots);
	m->slots = NULL;
	m->size = m->used = 0;
}
