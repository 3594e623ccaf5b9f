/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-codec.h: the compact encoding of the events of an EVENTS block
 * (ltruss-trace(5), "EVENTS"), shared by the writer and the reader.
 */
#ifndef LTRUSS_TRACEFILE_CODEC_H
#define LTRUSS_TRACEFILE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/session.h"

/* Types with a reference record of their own; others are not encoded. */
#define TF_CODEC_TYPES (LTR_EV_GUEST + 1)
/* Words of the longest event (its size is 16 bits). */
#define TF_CODEC_WORDS (65536 / 8)
/* Bytes an event of size bytes encodes to, at most. */
#define TF_CODEC_MAX(size) (1 + (size) + ((size) / 8 + 3) / 4)

/* The previous event of each type in the block, and the last timestamp. */
struct tf_codec {
	uint64_t *prev[TF_CODEC_TYPES]; /* TF_CODEC_WORDS words each */
	uint32_t nprev[TF_CODEC_TYPES];
	uint64_t ts;
};

/* Allocate the reference records. */
void tf_codec_init(struct tf_codec *c);

/* Start a block: no reference records yet. */
void tf_codec_reset(struct tf_codec *c);

/* Encode ev (of a type below TF_CODEC_TYPES) at out; returns the bytes. */
size_t tf_encode(struct tf_codec *c, const struct ltr_event *ev,
		 unsigned char *out);

/*
 * Decode the event at *p (before end) into out (room bytes, 8-aligned);
 * advance *p.  Returns NULL, or what is wrong with the encoding: nothing
 * is read at or past end, nor written past out + room.
 */
const char *tf_decode(struct tf_codec *c, const unsigned char **p,
		      const unsigned char *end, uint64_t *out, size_t room);

/* Free the reference records. */
void tf_codec_free(struct tf_codec *c);

#endif
