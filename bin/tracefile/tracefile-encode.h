/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-encode.h: the writer's fast way through the events most of a
 * trace is made of, an ENTER, CALL or EXIT without blobs: the bytes the
 * general way (tf_encode_any(), tracefile-codec.c, whose block comment
 * tells the encoding) writes, at a fraction of its cost.  Inline, so that
 * the writer's per-event sink (job_plain(), tracefile-write.c) takes it
 * without a call: a call and its saved registers were a tenth of it.
 */
#ifndef LTRUSS_TRACEFILE_ENCODE_H
#define LTRUSS_TRACEFILE_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reader.h"
#include "tracefile-codec.h"

/* z_put() of the difference d, known not to be 0: fewer steps. */
static inline unsigned z_put_changed(unsigned char **p, uint64_t d)
{
	uint64_t z = (d << 1) ^ (uint64_t)((int64_t)d >> 63);
	unsigned n = (71 - (unsigned)__builtin_clzll(z)) / 8;

	**p = (unsigned char)n;
	*p += n > 2;
	memcpy(*p, &z, 8);
	*p += n;
	return n > 2 ? TF_TAG_COUNTED : n;
}

/*
 * The fast way through the events most of a trace is made of: an ENTER,
 * CALL or EXIT event without blobs, of a constant count of fixed words,
 * encoded as tf_encode_any() does, byte for byte, but with no loop a
 * count decides and no words stored to be read again; a word that
 * repeats (most of them) costs a load, a subtraction and a branch, and
 * only a word that changed is stored into the reference, in place (word
 * 2, the timestamp, is encoded against c->ts, never the reference's).
 * The reference needs no check of its length: every event of these
 * types has its fixed words at least (check_event()).  The first event
 * of its type in a block, encoded against the zeros, goes the general
 * way: the reference is then one of the writer's copies.  The words are
 * the event's at w, or (pl not NULL) those of the whole layout of plain
 * record pl, of which the ring holds words (a constant: the words it
 * left out are constant zeros), read out of it each once.
 */
static inline __attribute__((always_inline)) size_t
encode_fixed(struct tf_codec *c, const uint64_t *w,
	     const struct event_plain *pl, unsigned words, unsigned type,
	     size_t fixed, unsigned char *out)
{
	struct tf_codec_ref *r = &c->ref[type];
	uint64_t *ref = c->copy[type], d, word, ts = 0;
	unsigned char *p = out + 1, *tag = NULL;
	unsigned tags = 0;
	size_t i;

	if (r->w != ref) {
		ref += TF_CODEC_WORDS;
		if (r->w != ref && !pl)
			return tf_encode_any(c, (const void *)w, out);
		if (r->w != ref) {
			uint64_t u[LTR_ENTER_WORDS + 3];

			for (i = 0; i < fixed; i++)
				u[i] = event_plain_word(pl, (unsigned)fixed - 3,
							words, (unsigned)i);
			return tf_encode_any(c, (const void *)u, out);
		}
	}
	out[0] = (unsigned char)type;
	/* Unrolled whole: which word starts or ends a tag's 4 is known. */
#pragma GCC unroll 16
	for (i = 0; i < fixed; i++) {
		if (i % 4 == 0) {
			tag = p++;
			tags = 0;
		}
		word = pl ? event_plain_word(pl, (unsigned)fixed - 3, words,
					     (unsigned)i)
			  : w[i];
		word &= i == 0 ? TF_W0_KEPT : i == 1 ? TF_W1_KEPT : ~0ull;
		if (i == 2)
			ts = word;
		d = word - (i == 2 ? c->ts : ref[i]);
		if (d) {
			tags |= z_put_changed(&p, d)
				<< 2 * (i % 4);
			ref[i] = word;
		}
		if (i % 4 == 3 || i == fixed - 1)
			*tag = (unsigned char)tags;
	}
	r->n = (uint32_t)fixed;
	r->nblobs = 0;
	c->ts = ts;
	return (size_t)(p - out);
}

/* tf_encode(), inline. */
static inline __attribute__((always_inline)) size_t
tf_encode_inline(struct tf_codec *c, const struct ltr_event *ev,
		 unsigned char *out)
{
	/* Its size and type: those of a kind without blobs? */
	switch (ev->size | (unsigned)ev->type << 16) {
	case 8 * (LTR_ENTER_WORDS + 3) | LTR_EV_ENTER << 16:
		return encode_fixed(c, (const void *)ev, NULL, 0, LTR_EV_ENTER,
				    LTR_ENTER_WORDS + 3, out);
	case 8 * (LTR_ENTER_WORDS + 3) | LTR_EV_CALL << 16:
		return encode_fixed(c, (const void *)ev, NULL, 0, LTR_EV_CALL,
				    LTR_ENTER_WORDS + 3, out);
	case 8 * (LTR_EXIT_WORDS + 3) | LTR_EV_EXIT << 16:
		return encode_fixed(c, (const void *)ev, NULL, 0, LTR_EV_EXIT,
				    LTR_EXIT_WORDS + 3, out);
	}
	return tf_encode_any(c, ev, out);
}

/* encode_fixed() of plain record pl, an ENTER or CALL of words words (a constant). */
#define ENCODE_ENTER(words)                                                   \
	case words:                                                           \
		return encode_fixed(c, NULL, pl, words, pl->type,             \
				    LTR_ENTER_WORDS + 3, out)
/* And an EXIT's. */
#define ENCODE_EXIT(words)                                                    \
	case LTR_ENTER_WORDS + (words):                                       \
		return encode_fixed(c, NULL, pl, words, LTR_EV_EXIT,          \
				    LTR_EXIT_WORDS + 3, out)

/*
 * tf_encode() of the whole layout of plain record pl (reader.h: a ring's
 * ENTER, CALL or EXIT with no blob), byte for byte, straight from the
 * ring: no copy into the whole layout first (the reader's unpack() was
 * half of -w's work an event).  One way for each count of words the ring
 * may hold, so that the words it left out cost a constant.
 */
static inline __attribute__((always_inline)) size_t
tf_encode_plain(struct tf_codec *c, const struct event_plain *pl,
		unsigned char *out)
{
	_Static_assert(LTR_ENTER_WORDS == 7 && LTR_EXIT_WORDS == 4,
		       "a case for each count of words");

	switch (pl->words + (pl->full == LTR_EXIT_WORDS ? LTR_ENTER_WORDS : 0)) {
	ENCODE_ENTER(1);
	ENCODE_ENTER(2);
	ENCODE_ENTER(3);
	ENCODE_ENTER(4);
	ENCODE_ENTER(5);
	ENCODE_ENTER(6);
	ENCODE_ENTER(7);
	ENCODE_EXIT(1);
	ENCODE_EXIT(2);
	ENCODE_EXIT(3);
	default:
		return encode_fixed(c, NULL, pl, LTR_EXIT_WORDS, LTR_EV_EXIT,
				    LTR_EXIT_WORDS + 3, out);
	}
}

#undef ENCODE_ENTER
#undef ENCODE_EXIT

#endif
