/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-codec.h: the compact encoding of the events of an EVENTS block
 * (ltruss-trace(5), "EVENTS"), shared by the writer and the reader.
 */
#ifndef LTRUSS_TRACEFILE_CODEC_H
#define LTRUSS_TRACEFILE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"

/* Types with a reference record of their own; others are not encoded. */
#define TF_CODEC_TYPES (LTR_EV_GUEST + 1)
/* Words of the longest event (its size is 16 bits). */
#define TF_CODEC_WORDS (65536 / 8)
/* Blobs of an event that the next event's blobs are encoded against. */
#define TF_CODEC_BLOBS 64
/*
 * Byte blobs of a block that later ones may repeat: a block decodes to at
 * most 64 KiB, or one event (tracefile-write.c), and a blob is at least 8
 * bytes; past this many, new ones are not remembered (by either side).
 */
#define TF_CODEC_LITERALS (65536 / 8)
/* Buckets of the writer's index of those byte blobs. */
#define TF_CODEC_HASH 1024
/*
 * Bytes an event of size bytes encodes to, at most: its type, a tag byte
 * for each 4 words, 9 bytes a word, one more for each blob; and 8 that
 * the writer may store past its end.
 */
#define TF_CODEC_MAX(size) \
	(1 + (size) + ((size) / 8 + 3) / 4 + 2 * ((size) / 8) + 8)

/* A word's 2-bit tag: its bytes, 0 to 2, or a count byte (3 to 8) says. */
#define TF_TAG_COUNTED 3

/* The reserved fields of words 0 and 1 of an event header, written as 0. */
#define TF_W0_KEPT 0x0000ffffffffffffull
#define TF_W1_KEPT 0x00000000ffffffffull

/* The reference event of a type: where it is, and where its blobs are. */
struct tf_codec_ref {
	const uint64_t *w;                /* its words, or NULL: none yet */
	uint32_t n;                       /* how many */
	uint32_t nblobs;                  /* blobs with a place in at[] */
	uint16_t at[TF_CODEC_BLOBS];      /* word of blob k's header */
	uint16_t words[TF_CODEC_BLOBS];   /* and its words, header included */
};

/*
 * A block's state: the previous event of each type, the last timestamp,
 * the byte blobs seen (their bytes stay where they were written or
 * decoded: the block's own buffer).
 */
struct tf_codec {
	struct tf_codec_ref ref[TF_CODEC_TYPES];
	uint64_t *copy[TF_CODEC_TYPES];   /* the writer's copies of them */
	uint64_t ts;
	const unsigned char **lit;        /* TF_CODEC_LITERALS byte blobs */
	uint32_t *lit_len;
	uint32_t nlit;
	uint32_t *hash;                   /* the writer's: literal + 1, or 0 */
	uint64_t *z;                      /* the writer's words of an event */
	const struct ltr_blob **bytes;    /* an event's byte blobs */
} __attribute__((aligned(64))); /* -w's workers each write their own at every event: not a line shared */

/* Allocate the reference records. */
void tf_codec_init(struct tf_codec *c);

/* Start a block: no reference records yet. */
void tf_codec_reset(struct tf_codec *c);

/*
 * Encode ev (of a type below TF_CODEC_TYPES, checked by check_event()) at
 * out, which stays where it is until the block ends; returns the bytes.
 */
size_t tf_encode(struct tf_codec *c, const struct ltr_event *ev,
		 unsigned char *out);

/*
 * Decode the events from *p to end (a block's, after tf_codec_reset())
 * into out (room bytes, 8-aligned), one after the other, each checked
 * (check_event()); out stays where it is until the block ends.  Returns
 * the bytes decoded, and *err: NULL, or what is wrong with the event *p
 * is left at (the encoding, or the event).  Nothing is read at or past
 * end + slack, nor written past out + room; what lies past end, slack
 * bytes the caller can read (TF_DECODE_SLACK lets the last events of a
 * block take the fast way), changes nothing.
 */
size_t tf_decode_block(struct tf_codec *c, const unsigned char **p,
		       const unsigned char *end, size_t slack, uint64_t *out,
		       size_t room, const char **err);

/* Bytes past a block's end its reader may give tf_decode_block() (slack). */
#define TF_DECODE_SLACK 128

/*
 * tf_encode() the general way, every type: the events tf_encode()'s fast
 * way does not take, and its reference in the unit tests.
 */
size_t tf_encode_any(struct tf_codec *c, const struct ltr_event *ev,
		     unsigned char *out);

/* Free the reference records. */
void tf_codec_free(struct tf_codec *c);

#endif
