/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * call-blobs.c: find what the interposer copied at a call (its blobs,
 * lib/session.h) by type and index: for the argument printer and the
 * stack printer alike.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "xmalloc.h"

/*
 * The blob of type (and of index, unless any_index) among blobs[0..len),
 * or NULL.  The reader checked that the blobs tile the event
 * (session-check.c); the sizes are still computed without a wrap.
 */
const struct ltr_blob *blob_lookup(const unsigned char *blobs, size_t len,
				   uint8_t type, uint8_t index, bool any_index)
{
	size_t off = 0;

	while (blobs && off + sizeof(struct ltr_blob) <= len) {
		const struct ltr_blob *b = (const void *)(blobs + off);
		uint64_t size = sizeof(*b) + (((uint64_t)b->len + 7) & ~(uint64_t)7);

		if (size > len - off)
			return NULL;
		if (b->type == type && (any_index || b->index == index))
			return b;
		off += (size_t)size;
	}
	return NULL;
}

const struct ltr_blob *args_blob(const struct call *c, uint8_t type)
{
	return blob_lookup(c->blobs, c->blobs_len, type, 0, true);
}

uint32_t args_blob_types(const struct call *c, uint8_t type,
			 const struct ltr_blob **first)
{
	uint32_t types = 0;
	size_t off = 0;

	*first = NULL;
	/* blob_lookup's walk: it stops where blob_lookup would. */
	while (c->blobs && off + sizeof(struct ltr_blob) <= c->blobs_len) {
		const struct ltr_blob *b = (const void *)(c->blobs + off);
		uint64_t size = sizeof(*b) + (((uint64_t)b->len + 7) & ~(uint64_t)7);

		if (size > c->blobs_len - off)
			break;
		if (b->type == type && !*first)
			*first = b;
		if (b->type < 32)
			types |= 1u << b->type;
		off += (size_t)size;
	}
	return types;
}

const struct ltr_blob *args_blob_find(const unsigned char *blobs, size_t len,
				      uint8_t type, uint8_t index)
{
	return blob_lookup(blobs, len, type, index, false);
}

void call_blobs_keep(struct call *c, unsigned char **buf, size_t *size,
		     const void *ev,
		     void *(*take)(void *spare, size_t spare_size,
				   size_t *size))
{
	size_t off;

	if (!c->blobs_len)
		return;
	if (take) {
		off = (size_t)(c->blobs - (const unsigned char *)ev);
		*buf = take(*buf, *size, size);
		c->blobs = *buf + off;
		return;
	}
	if (*size < c->blobs_len) {
		free(*buf);
		*buf = xmalloc(c->blobs_len);
		*size = c->blobs_len;
	}
	memcpy(*buf, c->blobs, c->blobs_len);
	c->blobs = *buf;
}

uint32_t event_blob_types(const struct ltr_event *ev)
{
	const unsigned char *p = (const unsigned char *)ev->w, *end;
	uint32_t types = 0;

	if (ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL)
		return 0;
	end = (const unsigned char *)ev + ev->size;
	p += LTR_ENTER_WORDS * 8;
	/* event_blobs_each's walk. */
	while (p + sizeof(struct ltr_blob) <= end) {
		const struct ltr_blob *b = (const void *)p;

		if (b->type < 32)
			types |= 1u << b->type;
		p += sizeof(*b) + ((b->len + 7) & ~7u);
	}
	return types;
}

void event_blobs_each(int pid, const struct ltr_event *ev, uint8_t type,
		      void (*keep)(int pid, const struct ltr_blob *b))
{
	const unsigned char *p = (const unsigned char *)ev->w, *end;

	if (ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL)
		return;
	end = (const unsigned char *)ev + ev->size;
	p += LTR_ENTER_WORDS * 8;
	/* Blobs were checked (check_event): each fits in the event. */
	while (p + sizeof(struct ltr_blob) <= end) {
		const struct ltr_blob *b = (const void *)p;

		if (b->type == type)
			keep(pid, b);
		p += sizeof(*b) + ((b->len + 7) & ~7u);
	}
}
