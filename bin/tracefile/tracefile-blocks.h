/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-blocks.h: the making of a trace file's blocks in a buffer,
 * shared by the file's own buffer (the reader's thread) and the segments
 * the workers encode (tracefile-write.c): open and close a block, open an
 * EVENTS block and encode an event into it.  Inline: every event goes
 * through events_new() and events_put().
 */
#ifndef LTRUSS_TRACEFILE_BLOCKS_H
#define LTRUSS_TRACEFILE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crc32.h"
#include "trace.h"
#include "tracefile-codec.h"
#include "tracefile-encode.h"
#include "tracefile.h"

#define NONE SIZE_MAX

/*
 * Where blocks are made: the file's buffer (F, on the reader's thread),
 * or a segment's (on a worker, segments.c), each with its own codec.
 */
struct blocks {
	unsigned char *buf;
	size_t len;
	size_t open_at;       /* offset of the open block's header, or NONE */
	uint32_t open_type;   /* and its type */
	struct tf_events open_events; /* whose events the open block holds */
	uint32_t events_flags;        /* the EVENTS blocks' TF_EVENTS_* */
	/*
	 * Bytes of ring records, decoded, that the open EVENTS block may
	 * still take (TF_EVENTS_MAX in all); 0 when no EVENTS block is open,
	 * so that one test an event says both.
	 */
	size_t events_room;
	struct tf_codec *codec;
};

/* Close o's open block: its length and checksum, padding to 8 bytes. */
static inline void blocks_close(struct blocks *o)
{
	struct tf_block *b;

	if (o->open_at == NONE)
		return;
	b = (struct tf_block *)(o->buf + o->open_at);
	b->len = (uint32_t)(o->len - o->open_at - sizeof(*b));
	b->crc = crc32_update(0, b + 1, b->len);
	while (o->len % 8)
		o->buf[o->len++] = 0;
	o->open_at = NONE;
	o->events_room = 0;
}

/* Open a block of type in o (none open), its room made. */
static inline void blocks_open(struct blocks *o, uint32_t type)
{
	struct tf_block b = { .type = type };

	memcpy(o->buf + o->len, &b, sizeof(b));
	o->open_at = o->len;
	o->open_type = type;
	o->len += sizeof(b);
}

/* Open an EVENTS block in o for the slot, process and thread of r (o's room made). */
static inline void events_open(struct blocks *o, const struct event_rec *r)
{
	o->open_events = (struct tf_events){ .slot = r->slot, .pid = r->pid,
					     .tid = r->tid,
					     .flags = o->events_flags };
	blocks_open(o, TF_EVENTS);
	memcpy(o->buf + o->len, &o->open_events, sizeof(o->open_events));
	o->len += sizeof(o->open_events);
	o->events_room = TF_EVENTS_MAX;
	tf_codec_reset(o->codec);
}

/* Does r's event, of size bytes, need an EVENTS block of its own in o (none open, another thread's, or full)? */
static inline bool events_new(const struct blocks *o, const struct event_rec *r,
			      size_t size)
{
	return size > o->events_room || o->open_events.slot != r->slot ||
	       o->open_events.pid != r->pid || o->open_events.tid != r->tid;
}

/* Encode r's event into o's open EVENTS block (room made, events_new() asked). */
static inline __attribute__((always_inline)) void
events_put(struct blocks *o, const struct event_rec *r)
{
	/* A block holds at most TF_EVENTS_MAX bytes decoded, or one event. */
	o->events_room -= r->ev->size;
	o->len += tf_encode_inline(o->codec, r->ev, o->buf + o->len);
}

/* events_put() of plain record pl (its whole layout's size bytes). */
static inline __attribute__((always_inline)) void
events_put_plain(struct blocks *o, const struct event_plain *pl, size_t size)
{
	o->events_room -= size;
	o->len += tf_encode_plain(o->codec, pl, o->buf + o->len);
}

#endif
