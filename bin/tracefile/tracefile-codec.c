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
 * any type; every other fixed word against the reference's word at the
 * same place; and each blob's words against those of the reference's blob
 * of the same rank (the second string's header against the second
 * string's, the stack copy of -k against the last one, wherever the
 * strings before them made them start).  A word is then its difference
 * from its reference, zigzagged (small negative differences are small
 * numbers too), in as few little-endian bytes as hold it: none when the
 * word repeats.  A 2-bit tag says how many, four tags to a byte, the byte
 * before the words it tags: 0, 1 or 2 bytes (most words: on sort 87%),
 * or a count byte then 3 to 8.  Writing a word is a subtraction and a
 * test, and for a word that changed a count of leading zeros and two
 * stores: the only branch, same or not, goes the same way at a place
 * from one event to the next, where a varint's loop mispredicted on most
 * words.  The writer encodes one event for each half a call of the traced
 * program, on the other core: on the loop, where the program's side is
 * cheapest, it is what bounds -w.  So the events most traces are made of,
 * an ENTER, CALL or EXIT without blobs, go a way of their own, the same
 * bytes with a constant count of words (tracefile-encode.c).
 * The size in word 0 says how many words follow, so it is checked before
 * anything is written past the header.  The reserved fields of an event's
 * header words are left to the ring's old contents by the interposer:
 * they are written as 0, so that they cost nothing.
 *
 * The bytes of strings and output buffers are not words that repeat at
 * one place: `sort` compares each line with a dozen others, one call
 * after another, so a line comes back as the first argument of one call
 * and the second of the next.  So a byte blob's data (its length is in
 * its header) comes after the event's words, and is either its bytes,
 * unpadded, or a back-reference to an earlier byte blob of the block with
 * the same bytes: one varint, its distance in byte blobs written out,
 * usually one byte.  The writer finds them through a small hash of each
 * blob's first and last bytes.  Decoded, a byte blob's padding is zeros,
 * and a later blob of its rank is encoded against its header alone.
 *
 * Every block starts afresh, so that a cut file or a block a reader
 * skips never leaves the next one undecodable.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "session-check.h"
#include "tracefile-codec.h"
#include "xmalloc.h"

/*
 * The events of a file are the ring records as "events layout 1" of
 * ltruss-trace(5) has them, and every later ltruss must read them so: the
 * ring's layout is pinned here, field by field.  If one of these fails,
 * the interposer's records changed: the writer must go on writing layout
 * 1 (translate), or write a new layout (TF_EVENTS_LAYOUT) that the reader
 * translates, reading layout 1 as before.
 */
#define PIN(what) _Static_assert(what, "events layout 1 changed: " #what)
PIN(sizeof(struct ltr_event) == 24 && offsetof(struct ltr_event, size) == 0);
PIN(offsetof(struct ltr_event, type) == 2 && offsetof(struct ltr_event, flags) == 3);
PIN(offsetof(struct ltr_event, depth) == 4 && offsetof(struct ltr_event, fn) == 8);
PIN(offsetof(struct ltr_event, ts) == 16 && offsetof(struct ltr_event, w) == 24);
PIN(LTR_EV_PAD == 1 && LTR_EV_ENTER == 2 && LTR_EV_EXIT == 3 && LTR_EV_CALL == 4);
PIN(LTR_EV_UNWOUND == 5 && LTR_EV_THREAD == 6 && LTR_EV_UNTRACED == 7);
PIN(LTR_EV_GUEST == 8);
PIN(LTR_ENTER_WORDS == 7 && LTR_EXIT_WORDS == 4 && LTR_UNTRACED_WORDS == 2);
PIN(LTR_EVF_ERROR == 0x1 && LTR_EVF_RESUME == 0x2 && LTR_EVF_KEEP_ABOVE == 0x80);
PIN(LTR_END_UNWOUND == 1 && LTR_END_EXITED == 2 && LTR_END_PTHREAD_EXIT == 3);
PIN(LTR_END_KILLED == 4 && LTR_END_EXEC == 5 && LTR_END_HIDDEN == 6);
PIN(sizeof(struct ltr_blob) == 8 && offsetof(struct ltr_blob, len) == 4);
PIN(offsetof(struct ltr_blob, index) == 1 && offsetof(struct ltr_blob, flags) == 2);
PIN(LTR_BLOB_STRING == 1 && LTR_BLOB_OUT == 2 && LTR_BLOB_XMM == 3);
PIN(LTR_BLOB_STACK == 4 && LTR_BLOB_VARARGS == 5 && LTR_BLOB_VASTRING == 6);
PIN(LTR_BLOB_X87 == 7 && LTR_BLOB_CALLSTACK == 8);
/* Version 7 on: Python frames, and the code objects they name. */
PIN(LTR_BLOB_PYFRAMES == 9 && LTR_BLOB_PYCODE == 10);
PIN(sizeof(struct ltr_py_head) == 8 && sizeof(struct ltr_py_frame) == 24);
PIN(sizeof(struct ltr_py_code) == 24);
/* Version 9 on: a PYFRAMES blob may reuse the outer frames of the one before. */
PIN(LTR_PYF_MORE == 0x1 && LTR_PYF_CHAIN == 0x2 && sizeof(struct ltr_py_chain) == 8);
/* Version 7 too: Tcl frames and ByteCodes (no earlier file has 11 or 12). */
PIN(LTR_BLOB_TCLFRAMES == 11 && LTR_BLOB_TCLCODE == 12);
PIN(sizeof(struct ltr_tcl_head) == 8 && sizeof(struct ltr_tcl_frame) == 64);
PIN(sizeof(struct ltr_tcl_cmd) == 32 && sizeof(struct ltr_tcl_code) == 32);
PIN(LTR_BLOBF_TRUNCATED == 0x1 && LTR_BLOBF_FAULT == 0x2);
PIN(sizeof(struct ltr_stack_regs) == 64 && offsetof(struct ltr_stack_regs, rbp) == 16);
PIN(LTR_VA_INT == 1 && LTR_VA_DOUBLE == 2 && LTR_VA_LDOUBLE == 3);
PIN(LTR_VA_STRING == 4 && LTR_VA_POINTER == 5);

/* The reference of every type before the first event of a block. */
static const uint64_t zeros[TF_CODEC_WORDS];

void tf_codec_init(struct tf_codec *c)
{
	size_t t;

	for (t = 0; t < TF_CODEC_TYPES; t++)
		c->copy[t] = xcalloc(2 * TF_CODEC_WORDS, sizeof(uint64_t));
	c->lit = xcalloc(TF_CODEC_LITERALS, sizeof(*c->lit));
	c->lit_len = xcalloc(TF_CODEC_LITERALS, sizeof(*c->lit_len));
	c->hash = xcalloc(TF_CODEC_HASH, sizeof(*c->hash));
	c->z = xcalloc(TF_CODEC_WORDS, sizeof(*c->z));
	c->bytes = xcalloc(TF_CODEC_WORDS, sizeof(*c->bytes));
	tf_codec_reset(c);
}

/*
 * A block of a few events (threads that take turns at calls: a block each
 * turn) paid some 7 KiB of stores here, a fifth of its encoding: a
 * reference's at[] and words[] are read only below its nblobs, and the
 * hash has entries only once a literal was added (nlit), so only those
 * are cleared.
 */
void tf_codec_reset(struct tf_codec *c)
{
	size_t t;

	for (t = 0; t < TF_CODEC_TYPES; t++) {
		c->ref[t].w = zeros;
		c->ref[t].n = 0;
		c->ref[t].nblobs = 0;
	}
	c->ts = 0;
	if (c->nlit && c->hash)
		memset(c->hash, 0, TF_CODEC_HASH * sizeof(*c->hash));
	c->nlit = 0;
}

void tf_codec_free(struct tf_codec *c)
{
	size_t t;

	for (t = 0; t < TF_CODEC_TYPES; t++) {
		free(c->copy[t]);
		c->copy[t] = NULL;
	}
	free(c->lit);
	free(c->lit_len);
	free(c->hash);
	free(c->z);
	free(c->bytes);
	c->lit = NULL;
	c->lit_len = NULL;
	c->hash = NULL;
	c->z = NULL;
	c->bytes = NULL;
}

/* Words of an event of type, n words long, that come before its blobs. */
static inline size_t fixed_words(unsigned type, size_t n)
{
	if (type == LTR_EV_ENTER || type == LTR_EV_CALL || type == LTR_EV_EXIT)
		return check_event_min_size((uint8_t)type) / 8;
	return n;
}

/* Is a blob of type bytes (a string, a buffer) rather than words? */
static inline bool byte_blob(unsigned type)
{
	return type == LTR_BLOB_STRING || type == LTR_BLOB_OUT ||
	       type == LTR_BLOB_VASTRING;
}

/* Words of a blob of len bytes of data, its header included. */
static inline size_t blob_words(uint32_t len)
{
	return 1 + ((size_t)len + 7) / 8;
}

/* Words of blob b a later blob of its rank is encoded against. */
static inline uint16_t ref_words(const struct ltr_blob *b, size_t words)
{
	return byte_blob(b->type) ? 1 : (uint16_t)words;
}

/* The reference of fixed word i of an event encoded against r. */
static inline uint64_t ref_fixed(const struct tf_codec *c,
				 const struct tf_codec_ref *r, size_t i)
{
	if (i == 2)
		return c->ts;
	return i < r->n ? r->w[i] : 0;
}

/* The reference of word j of blob k (r the old reference, nblobs its blobs). */
static inline uint64_t ref_blob(const struct tf_codec_ref *r, uint32_t nblobs,
				size_t k, size_t j)
{
	return k < nblobs && j < r->words[k] ? r->w[r->at[k] + j] : 0;
}

/* The zigzag of the difference of w from its reference: small either way. */
static inline uint64_t zigzag(uint64_t w, uint64_t ref)
{
	uint64_t d = w - ref;

	return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

/* Bytes that hold z: 0 (z is 0) to 8, without a branch. */
static inline unsigned z_bytes(uint64_t z)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(z | 1);

	return (bits + 7 - 8 * (z == 0)) / 8;
}

/* Write z in n of its bytes, with a count byte first past 2; its tag. */
static inline unsigned z_put(unsigned char **p, uint64_t z)
{
	unsigned n;

	if (!z)
		return 0;
	n = z_bytes(z);

	**p = (unsigned char)n;
	*p += n > 2;
	/* 8 bytes: the writer's buffer has room past the end. */
	memcpy(*p, &z, 8);
	*p += n;
	return n > 2 ? TF_TAG_COUNTED : n;
}

/* Write the zigzagged words z[0..n) at p, a tag byte a 4; returns the end. */
static unsigned char *words_put(unsigned char *p, const uint64_t *z, size_t n)
{
	unsigned char *tag;
	unsigned tags;
	size_t i, j;

	for (i = 0; i + 4 <= n; i += 4) {
		tag = p++;
		tags = z_put(&p, z[i]);
		tags |= z_put(&p, z[i + 1]) << 2;
		tags |= z_put(&p, z[i + 2]) << 4;
		tags |= z_put(&p, z[i + 3]) << 6;
		*tag = (unsigned char)tags;
	}
	if (i < n) {
		tag = p++;
		tags = 0;
		for (j = 0; i + j < n; j++)
			tags |= z_put(&p, z[i + j]) << (2 * j);
		*tag = (unsigned char)tags;
	}
	return p;
}

/* Write an unsigned varint. */
static inline unsigned char *varint_put(unsigned char *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

/* The hash bucket of len bytes at p: their first and last 8 and len. */
static inline size_t bytes_hash(const unsigned char *p, uint32_t len)
{
	uint64_t a = 0, b = 0;

	if (len >= 8) {
		memcpy(&a, p, 8);
		memcpy(&b, p + len - 8, 8);
	} else {
		memcpy(&a, p, len);
	}
	a = (a ^ (b * 0x9e3779b97f4a7c15ull) ^ len) * 0xff51afd7ed558ccdull;
	return (size_t)(a >> 54) % TF_CODEC_HASH;
}

/* Are the len bytes at a and b the same? */
static inline bool same_bytes(const unsigned char *a, const unsigned char *b,
			      uint32_t len)
{
	uint64_t x, y;

	for (; len >= 8; len -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	return !len || memcmp(a, b, len) == 0;
}

/* Remember byte blob p (len bytes) as literal number c->nlit, if room. */
static inline bool literal_add(struct tf_codec *c, const unsigned char *p,
			       uint32_t len)
{
	if (c->nlit >= TF_CODEC_LITERALS)
		return false;
	c->lit[c->nlit] = p;
	c->lit_len[c->nlit++] = len;
	return true;
}

/*
 * Write the data of byte blob b at p: a reference to the same bytes
 * earlier, or them.  Returns the end.
 */
static unsigned char *bytes_put(struct tf_codec *c, unsigned char *p,
				const struct ltr_blob *b)
{
	size_t h, i;
	uint32_t l, len = b->len;

	if (!len)
		return p;
	h = bytes_hash(b->data, len);
	l = c->hash[h];
	if (l && c->lit_len[l - 1] == len &&
	    same_bytes(c->lit[l - 1], b->data, len))
		return varint_put(p, c->nlit - (l - 1));
	*p++ = 0;
	/* Whole words: the blob is padded, the writer's buffer has room. */
	for (i = 0; i < len; i += 8)
		memcpy(p + i, b->data + i, 8);
	if (literal_add(c, p, len))
		c->hash[h] = c->nlit;
	return p + len;
}

size_t tf_encode_any(struct tf_codec *c, const struct ltr_event *ev,
		     unsigned char *out)
{
	const uint64_t *w = (const void *)ev;
	struct tf_codec_ref *r = &c->ref[ev->type];
	const uint64_t *const rw = r->w;
	const uint32_t nblobs = r->nblobs, rn = r->n;
	size_t n = ev->size / 8, fixed = fixed_words(ev->type, n), i, j, k;
	size_t nz, nbytes = 0;
	uint64_t *copy = c->copy[ev->type], *const z = c->z;
	const struct ltr_blob **bytes = c->bytes;
	unsigned char *p;

	/* The new reference goes into the half of copy the old one is not in. */
	if (rw == copy)
		copy += TF_CODEC_WORDS;
	/*
	 * The fixed words (an event has at least 3).  The reference has them
	 * too, but for a forged ring's THREAD or GUEST event longer than
	 * another: read as 0 past its end, as the reader does.
	 */
	copy[0] = w[0] & TF_W0_KEPT;
	copy[1] = w[1] & TF_W1_KEPT;
	copy[2] = w[2];
	z[0] = zigzag(copy[0], rw[0]);
	z[1] = zigzag(copy[1], rw[1]);
	z[2] = zigzag(copy[2], c->ts);
	for (i = 3; i < fixed; i++) {
		copy[i] = w[i];
		z[i] = zigzag(w[i], i < rn ? rw[i] : 0);
	}
	nz = i;
	/*
	 * Blobs: ev was checked (check_event), so each fits; a blob's place
	 * in r is replaced once that blob is read, as no later blob reads it.
	 */
	for (k = 0; i < n; k++) {
		const struct ltr_blob *b = (const void *)(w + i);
		size_t words = blob_words(b->len);

		if (words > n - i)
			words = n - i;
		copy[i] = w[i];
		z[nz++] = zigzag(w[i], ref_blob(r, nblobs, k, 0));
		if (byte_blob(b->type)) {
			bytes[nbytes++] = b;
		} else {
			for (j = 1; j < words; j++) {
				copy[i + j] = w[i + j];
				z[nz++] = zigzag(w[i + j],
						 ref_blob(r, nblobs, k, j));
			}
		}
		if (k < TF_CODEC_BLOBS) {
			r->at[k] = (uint16_t)i;
			r->words[k] = ref_words(b, words);
		}
		i += words;
	}
	out[0] = ev->type;
	p = words_put(out + 1, z, nz);
	for (i = 0; i < nbytes; i++)
		p = bytes_put(c, p, bytes[i]);
	r->w = copy;
	r->n = (uint32_t)n;
	r->nblobs = (uint32_t)(k < TF_CODEC_BLOBS ? k : TF_CODEC_BLOBS);
	c->ts = ev->ts;
	return (size_t)(p - out);
}

/* The words of one event being read. */
struct dec {
	const unsigned char *q;   /* the next byte */
	const unsigned char *end; /* the end of the block */
	unsigned tags;            /* the tag byte of the words being read */
	unsigned k;               /* words read */
};

/* A varint at *p before end into *v; false if it runs past end or too long. */
static bool varint_get(const unsigned char **p, const unsigned char *end,
		       uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 63; shift += 7) {
		if (*p >= end)
			return false;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return true;
	}
	return false;
}

/* Read the next word into *w, against ref; NULL or what is wrong. */
static inline __attribute__((always_inline)) const char *
word_get(struct dec *d, uint64_t *w, uint64_t ref)
{
	uint64_t z = 0;
	unsigned n;

	if (d->k % 4 == 0) {
		if (d->q >= d->end)
			return "an event cut";
		d->tags = *d->q++;
	}
	n = (d->tags >> (2 * (d->k++ % 4))) & 3;
	if (n == TF_TAG_COUNTED) {
		if (d->q >= d->end)
			return "a word that runs past its event";
		n = *d->q++;
		if (n < 3 || n > 8)
			return "a word of no encoding";
	}
	/*
	 * n bytes: with 8 left in the block, one load of 8, masked (a copy
	 * of a variable length is a call to memcpy, most of --read's time).
	 */
	if ((size_t)(d->end - d->q) >= 8) {
		memcpy(&z, d->q, 8);
		z &= n ? ~0ull >> (64 - 8 * n) : 0;
	} else if ((size_t)(d->end - d->q) < n) {
		return "a word that runs past its event";
	} else {
		memcpy(&z, d->q, n);
	}
	d->q += n;
	*w = ref + ((z >> 1) ^ -(z & 1));
	return NULL;
}

/* Read a byte blob's len bytes into p: them, or a reference to earlier ones. */
static const char *bytes_get(struct tf_codec *c, struct dec *d,
			     unsigned char *p, uint32_t len)
{
	uint64_t back;

	if (!len)
		return NULL;
	if (!varint_get(&d->q, d->end, &back))
		return "a string that runs past its event";
	if (back) {
		if (back > c->nlit)
			return "a reference to no earlier string";
		if (c->lit_len[c->nlit - back] != len)
			return "a reference to a string of another length";
		memcpy(p, c->lit[c->nlit - back], len);
		return NULL;
	}
	if ((size_t)(d->end - d->q) < len)
		return "a string that runs past its event";
	memcpy(p, d->q, len);
	d->q += len;
	literal_add(c, p, len);
	return NULL;
}

/*
 * Read the blobs of the event at out (n words, from word i) against r:
 * their words, then the data of the byte blobs among them.
 */
static const char *blobs_get(struct tf_codec *c, struct dec *d,
			     struct tf_codec_ref *r, uint64_t *out, size_t i,
			     size_t n)
{
	const uint32_t nblobs = r->nblobs;
	size_t k, j, nbytes = 0;
	const char *err;

	for (k = 0; i < n; k++) {
		struct ltr_blob *b = (void *)(out + i);
		size_t words;

		if ((err = word_get(d, &out[i], ref_blob(r, nblobs, k, 0))))
			return err;
		if (b->len > 8 * (n - i - 1))
			return "a blob that runs past its event";
		words = blob_words(b->len);
		if (byte_blob(b->type)) {
			memset(out + i + 1, 0, (words - 1) * 8);
			c->bytes[nbytes++] = b;
		} else if (b->type >= LTR_BLOB_STRING &&
			   b->type <= LTR_BLOB_TCLCODE) {
			for (j = 1; j < words; j++)
				if ((err = word_get(d, &out[i + j],
						    ref_blob(r, nblobs, k, j))))
					return err;
		} else {
			return "a blob of no type";
		}
		if (k < TF_CODEC_BLOBS) {
			r->at[k] = (uint16_t)i;
			r->words[k] = ref_words(b, words);
		}
		i += words;
	}
	r->nblobs = (uint32_t)(k < TF_CODEC_BLOBS ? k : TF_CODEC_BLOBS);
	for (k = 0; k < nbytes; k++) {
		struct ltr_blob *b = (void *)c->bytes[k];

		if ((err = bytes_get(c, d, b->data, b->len)))
			return err;
	}
	return NULL;
}

/*
 * The fast way through the events most of a trace is made of: an ENTER,
 * CALL or EXIT event, whose fixed words are read with no check a word
 * when the block has room for the longest encoding of them (FAST_ROOM),
 * against a reference that has them all.  A word of no encoding or a
 * header that lies sends the event to the careful way (word_get()), read
 * again from its start: nothing is changed before the fixed words are
 * read, so that it finds the same and says what is wrong.
 */
#define FAST_WORDS (LTR_ENTER_WORDS + 3) /* the fixed words of ENTER and CALL */
/* A tag byte a 4 words, a count byte and 8 a word, 8 a last load may read past. */
#define FAST_ROOM ((FAST_WORDS + 3) / 4 + 9 * FAST_WORDS + 8)
_Static_assert(FAST_ROOM <= TF_DECODE_SLACK,
	       "a block's last events take the fast way, given the slack");

/* The n low bytes of a word. */
static const uint64_t byte_mask[9] = {
	0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull,
	0xffffffffffffull, 0xffffffffffffffull, ~0ull,
};

/*
 * Read the fixed words of an ENTER, CALL or EXIT event at q (after its
 * type byte) into out against r, with no check a word (the caller saw
 * FAST_ROOM bytes left); returns the end of them, *tags the last tag
 * byte read.  Most words repeat: the reference is copied whole, then each
 * word a tag says changed is added its difference, in order.  NULL: a
 * count byte of no encoding, read again the careful way.
 */
static inline __attribute__((always_inline)) const unsigned char *
fixed_fast(const struct tf_codec *c, const unsigned char *q,
	   const struct tf_codec_ref *r, uint64_t *out, size_t fixed,
	   unsigned *last)
{
	unsigned tags, n, b;
	uint64_t z;
	size_t g;

	memcpy(out, r->w, 8 * fixed);
	out[2] = c->ts;
#pragma GCC unroll 4
	for (g = 0; g < fixed; g += 4) {
		*last = tags = *q++;
		/* The tags past the fixed words are the blobs' (blobs_get()). */
		if (fixed - g < 4)
			tags &= (1u << 2 * (fixed - g)) - 1;
		while (tags) {
			/* b: the tag's bit, twice its word's rank. */
			b = (unsigned)__builtin_ctz(tags) & ~1u;
			n = (tags >> b) & 3;
			tags ^= n << b;
			if (n == TF_TAG_COUNTED) {
				n = *q++;
				if (n < 3 || n > 8)
					return NULL;
			}
			memcpy(&z, q, 8);
			z &= byte_mask[n];
			q += n;
			out[g + b / 2] += (z >> 1) ^ -(z & 1);
		}
	}
	return q;
}

/*
 * The ENTER, CALL or EXIT event at q (of type, fixed words, FAST_ROOM
 * bytes readable, maybe past end) decoded the fast way into out (room
 * bytes); NULL if it is not one that way takes (the careful way then
 * says what is wrong, if anything is), else the end of it, and *err:
 * NULL, or what is wrong with it.  Fixed words that run past end are
 * read again the careful way, which says so: nothing is changed before
 * they are known to end within the block, and what lies past end only
 * ever sends them there.  One without blobs, most of them, needs no
 * other check: its size and type (word 0's low 3 bytes) are those of
 * its kind.
 */
static inline __attribute__((always_inline)) const unsigned char *
decode_fast(struct tf_codec *c, const unsigned char *q,
	    const unsigned char *end, uint64_t *out, size_t room,
	    unsigned type, size_t fixed, const char **err)
{
	const struct ltr_event *ev = (const void *)out;
	struct tf_codec_ref *r = &c->ref[type];
	unsigned last;

	if (r->n < fixed || room < 8 * fixed ||
	    !(q = fixed_fast(c, q + 1, r, out, fixed, &last)) || q > end)
		return NULL;
	if ((out[0] & 0xffffff) == (8 * fixed | type << 16)) {
		r->nblobs = 0;
	} else {
		struct dec d = { .q = q, .end = end, .tags = last,
				 .k = (unsigned)fixed };

		if (ev->size % 8 || ev->type != type || ev->size < 8 * fixed ||
		    ev->size > room)
			return NULL;
		*err = blobs_get(c, &d, r, out, fixed, ev->size / 8);
		if (!*err && !check_event(ev))
			*err = "an event no interposer writes";
		q = d.q;
	}
	r->w = out;
	r->n = ev->size / 8;
	c->ts = out[2];
	return q;
}

/* tf_decode() with a check a word: the events the fast way does not take. */
static __attribute__((noinline)) const char *
decode_careful(struct tf_codec *c, const unsigned char **p,
	       const unsigned char *end, uint64_t *out, size_t room)
{
	struct dec d = { .q = *p, .end = end };
	const struct ltr_event *ev = (const void *)out;
	struct tf_codec_ref *r;
	unsigned type;
	size_t n, fixed, i;
	const char *err;

	if (d.q >= end)
		return "an event cut";
	type = *d.q++;
	if (type >= TF_CODEC_TYPES)
		return "an event of no type";
	if (room < 3 * 8)
		return "more events than the block's writer holds";
	r = &c->ref[type];
	if ((err = word_get(&d, &out[0], ref_fixed(c, r, 0))))
		return err;
	/* The size says how many words follow: check it. */
	if (ev->size < 3 * 8 || ev->size % 8 || ev->type != type ||
	    ev->size < check_event_min_size(ev->type))
		return "an event whose size or type lies";
	if (ev->size > room)
		return "more events than the block's writer holds";
	n = ev->size / 8;
	fixed = fixed_words(type, n);
	for (i = 1; i < fixed; i++)
		if ((err = word_get(&d, &out[i], ref_fixed(c, r, i))))
			return err;
	if ((err = blobs_get(c, &d, r, out, fixed, n)))
		return err;
	r->w = out;
	r->n = (uint32_t)n;
	c->ts = out[2];
	*p = d.q;
	return NULL;
}

/* tf_decode_block() with a constant slack: with TF_DECODE_SLACK, no test of the room left. */
static inline __attribute__((always_inline)) size_t
decode_block(struct tf_codec *c, const unsigned char **p,
	     const unsigned char *end, size_t slack, uint64_t *out,
	     size_t room, const char **err)
{
	const unsigned char *q = *p, *next;
	const char *e = NULL;
	size_t used = 0;

	/*
	 * e and next apart from *err and the careful way's pointer: taken
	 * by address, they were stored and loaded again at every event.
	 */
	for (; q < end; q = next) {
		uint64_t *ev = out + used / 8;

		/* A constant count of fixed words each: the loops unrolled. */
		next = NULL;
		if ((size_t)(end - q) + slack > FAST_ROOM) {
			if (*q == LTR_EV_ENTER || *q == LTR_EV_CALL)
				next = decode_fast(c, q, end, ev, room - used,
						   *q, LTR_ENTER_WORDS + 3, &e);
			else if (*q == LTR_EV_EXIT)
				next = decode_fast(c, q, end, ev, room - used,
						   LTR_EV_EXIT,
						   LTR_EXIT_WORDS + 3, &e);
		}
		if (!next) {
			const unsigned char *at = q;

			e = decode_careful(c, &at, end, ev, room - used);
			if (!e && !check_event((const struct ltr_event *)ev))
				e = "an event no interposer writes";
			next = at;
		}
		if (e)
			break;
		used += ((const struct ltr_event *)ev)->size;
	}
	*err = e;
	*p = q;
	return used;
}

size_t tf_decode_block(struct tf_codec *c, const unsigned char **p,
		       const unsigned char *end, size_t slack, uint64_t *out,
		       size_t room, const char **err)
{
	if (slack >= TF_DECODE_SLACK)
		return decode_block(c, p, end, TF_DECODE_SLACK, out, room,
				    err);
	return decode_block(c, p, end, 0, out, room, err);
}
