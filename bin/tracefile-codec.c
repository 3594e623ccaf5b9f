/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-codec.c: the compact encoding of trace file events.
 *
 * A ring record is a run of 8-byte words, and most of them repeat from
 * one call to the next: the header word (size, type, depth), the function,
 * the argument registers, the return address; the timestamp grows by a
 * little.  So each event is encoded against the previous event of the same
 * type in the same block (its reference; none at a block's start, which
 * reads as zeros): word 2, the timestamp, against the previous event's of
 * any type, every other word against the reference's word at the same
 * place.  A word is then one of three things, said by a 2-bit tag (four
 * to a tag byte, the byte before the words it tags): the same (no bytes),
 * a zigzag difference in a LEB128 varint of at most 7 bytes, or the word
 * as it is (8 bytes: strings, stack copies).  The size in word 0 says how
 * many words follow, so it is checked before anything is written past
 * the header.  One pass, a compare and a store a word: a few ns.
 *
 * Every block starts afresh, so that a cut file or a block a reader
 * skips never leaves the next one undecodable.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile-codec.h"
#include "xmalloc.h"

enum { TAG_SAME, TAG_VARINT, TAG_RAW, TAG_BAD };

/* Varints of at most this many bytes; longer differences go raw. */
#define VARINT_MAX 7
#define VARINT_LIMIT (1ull << (7 * VARINT_MAX))

void tf_codec_init(struct tf_codec *c)
{
	size_t t;

	for (t = 0; t < TF_CODEC_TYPES; t++)
		c->prev[t] = xcalloc(TF_CODEC_WORDS, sizeof(uint64_t));
	tf_codec_reset(c);
}

void tf_codec_reset(struct tf_codec *c)
{
	memset(c->nprev, 0, sizeof(c->nprev));
	c->ts = 0;
}

void tf_codec_free(struct tf_codec *c)
{
	size_t t;

	for (t = 0; t < TF_CODEC_TYPES; t++) {
		free(c->prev[t]);
		c->prev[t] = NULL;
	}
}

/* The word word i is encoded against. */
static inline uint64_t ref_word(const struct tf_codec *c, const uint64_t *prev,
				uint32_t nprev, size_t i)
{
	if (i == 2)
		return c->ts;
	return i < nprev ? prev[i] : 0;
}

/* Append word w as difference d from its reference at out; returns its tag. */
static inline unsigned word_put(uint64_t w, uint64_t d, unsigned char *out,
				size_t *o)
{
	uint64_t z = (d << 1) ^ (uint64_t)((int64_t)d >> 63);

	if (!d)
		return TAG_SAME;
	if (z < VARINT_LIMIT) {
		for (; z >= 0x80; z >>= 7)
			out[(*o)++] = (unsigned char)(z | 0x80);
		out[(*o)++] = (unsigned char)z;
		return TAG_VARINT;
	}
	memcpy(out + *o, &w, 8);
	*o += 8;
	return TAG_RAW;
}

size_t tf_encode(struct tf_codec *c, const struct ltr_event *ev,
		 unsigned char *out)
{
	const uint64_t *w = (const void *)ev;
	size_t n = ev->size / 8, i, o = 1, tag_at = 0;
	uint64_t *prev = c->prev[ev->type];
	unsigned tags = 0;

	/*
	 * The references as one array, read and replaced in one pass:
	 * zeros past the previous event's end, and the last timestamp in
	 * word 2 (which ref_word() keeps apart for the decoder).
	 */
	if (c->nprev[ev->type] < n)
		memset(prev + c->nprev[ev->type], 0,
		       (n - c->nprev[ev->type]) * 8);
	prev[2] = c->ts;
	out[0] = ev->type;
	for (i = 0; i < n; i++) {
		if (i % 4 == 0) {
			if (i)
				out[tag_at] = (unsigned char)tags;
			tag_at = o++;
			tags = 0;
		}
		tags |= word_put(w[i], w[i] - prev[i], out, &o) << (2 * (i % 4));
		prev[i] = w[i];
	}
	out[tag_at] = (unsigned char)tags;
	c->nprev[ev->type] = (uint32_t)n;
	c->ts = ev->ts;
	return o;
}

/* A varint at *p before end into *v; false if it runs past end or too long. */
static bool varint_get(const unsigned char **p, const unsigned char *end,
		       uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 7 * VARINT_MAX; shift += 7) {
		if (*p >= end)
			return false;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return true;
	}
	return false;
}

const char *tf_decode(struct tf_codec *c, const unsigned char **p,
		      const unsigned char *end, uint64_t *out, size_t room)
{
	const unsigned char *q = *p;
	unsigned type, tags = 0;
	uint64_t *prev, z;
	uint32_t nprev;
	size_t n = 3, i;

	if (q >= end)
		return "an event cut";
	type = *q++;
	if (type >= TF_CODEC_TYPES)
		return "an event of no type";
	if (room < 3 * 8)
		return "more events than the block's writer holds";
	prev = c->prev[type];
	nprev = c->nprev[type];
	for (i = 0; i < n; i++) {
		if (i % 4 == 0) {
			if (q >= end)
				return "an event cut";
			tags = *q++;
		}
		switch ((tags >> (2 * (i % 4))) & 3) {
		case TAG_SAME:
			out[i] = ref_word(c, prev, nprev, i);
			break;
		case TAG_VARINT:
			if (!varint_get(&q, end, &z))
				return "a varint that runs past its event";
			out[i] = ref_word(c, prev, nprev, i) +
				 ((z >> 1) ^ -(z & 1));
			break;
		case TAG_RAW:
			if (end - q < 8)
				return "an event cut";
			memcpy(&out[i], q, 8);
			q += 8;
			break;
		default:
			return "a word of no encoding";
		}
		if (i == 0) {
			/* The size says how many words follow: check it. */
			const struct ltr_event *ev = (const void *)out;

			if (ev->size < 3 * 8 || ev->size % 8 ||
			    ev->type != type)
				return "an event whose size or type lies";
			if (ev->size > room)
				return "more events than the block's writer holds";
			n = ev->size / 8;
		}
	}
	memcpy(prev, out, n * 8);
	c->nprev[type] = (uint32_t)n;
	c->ts = out[2];
	*p = q;
	return NULL;
}
