/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * codec-test.c: TAP unit tests of the trace file's event encoding
 * (bin/tracefile/tracefile-codec.c).  tf_decode_block() reads most
 * entries and exits a fast way, with no check a word, and the rest (a
 * block's first event of a kind, its last hundred bytes, an encoding that
 * is wrong) the careful way: blocks of made-up events of every shape
 * (words that repeat, grow by a little or jump, strings that come back,
 * blobs of words, events of the other kinds) are encoded as -w does and
 * must decode to the same bytes, whole or cut anywhere, and a count byte
 * of no encoding in the fast way's reach must be found where the careful
 * way finds it.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/session/session-check.h"
#include "bin/tracefile/tracefile-codec.h"
#include "bin/tracefile/tracefile-encode.h"
#include "bin/tracefile/tracefile.h"
#include "tests/unit/tap.h"

#define MAX_EVENTS 4096


/* A deterministic pseudo-random number (xorshift64). */
static uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;

	return tap_xorshift(&x);
}

/* A block's events, one after the other, as a ring holds them. */
static uint64_t events[TF_EVENTS_MAX / 8];
static size_t events_len;
static size_t starts[MAX_EVENTS]; /* each event's byte in events[] */
static size_t nevents;

/* Encoded, with each event's start in the encoding. */
static unsigned char encoded[2 * TF_EVENTS_MAX + 65536];
static size_t encoded_len;
static size_t enc_starts[MAX_EVENTS + 1];

static uint64_t decoded[TF_EVENTS_MAX / 8 + 8192];

/* Last values of the made-up program: arguments, time, a string. */
static uint64_t args[7], ts = 1000000;
static const char *const strings[] = { "", "a", "/etc/hostname",
				       "a string longer than eight bytes",
				       "0123456789abcdef" };

/* Append a blob of type, len bytes of data (copied from data, or made up). */
static size_t blob_add(uint64_t *w, uint8_t type, const void *data,
		       uint32_t len)
{
	struct ltr_blob *b = (void *)w;
	size_t words = 1 + (len + 7) / 8, i;

	memset(w, 0, 8 * words);
	b->type = type;
	b->index = (uint8_t)(rnd() % 6);
	b->len = len;
	if (data)
		memcpy(b->data, data, len);
	else
		for (i = 0; i < len; i++)
			b->data[i] = (unsigned char)rnd();
	return words;
}

/* A word that changes as words of a program do: mostly not, by a little, or a lot. */
static uint64_t next_word(uint64_t w)
{
	switch (rnd() % 8) {
	case 0:
	case 1:
	case 2:
		return w;
	case 3:
		return w + 1;
	case 4:
		return w - rnd() % 300;
	case 5:
		return w + (rnd() >> (rnd() % 64));
	case 6:
		return rnd();
	default:
		return 0;
	}
}

/* Append one made-up event of type at the end of the block; false if full. */
static bool event_add(uint8_t type, bool blobs)
{
	uint64_t w[2048];
	struct ltr_event *ev = (void *)w;
	size_t n = 3, i, k;

	memset(w, 0, 24);
	ev->type = type;
	ev->depth = (uint16_t)(rnd() % 4);
	ev->fn = (uint32_t)(rnd() % 3);
	ts += rnd() % 7 == 0 ? rnd() % 100000000 : rnd() % 400;
	ev->ts = ts;
	if (type == LTR_EV_ENTER || type == LTR_EV_CALL ||
	    type == LTR_EV_EXIT) {
		size_t words = type == LTR_EV_EXIT ? LTR_EXIT_WORDS
						    : LTR_ENTER_WORDS;

		ev->flags = type == LTR_EV_EXIT ? (uint8_t)(rnd() % 2) : 0;
		for (i = 0; i < words; i++)
			w[n++] = args[i] = next_word(args[i]);
		for (k = 0; blobs && k < 20 && rnd() % 3; k++) {
			const char *s = strings[rnd() % 5];

			if (rnd() % 2)
				n += blob_add(w + n, LTR_BLOB_STRING, s,
					      (uint32_t)strlen(s));
			else
				n += blob_add(w + n, type == LTR_EV_EXIT ? LTR_BLOB_OUT : LTR_BLOB_XMM,
					      NULL, (uint32_t)(rnd() % 40));
		}
	} else if (type == LTR_EV_THREAD) {
		w[n++] = 1 + rnd() % 30000;
	} else if (type == LTR_EV_UNWOUND) {
		ev->flags = LTR_END_UNWOUND;
	}
	ev->size = (uint16_t)(8 * n);
	if (!check_event(ev))
		abort(); /* the test makes only events an interposer writes */
	if (nevents == MAX_EVENTS || events_len + ev->size > sizeof(events))
		return false;
	starts[nevents++] = events_len;
	memcpy((unsigned char *)events + events_len, w, ev->size);
	events_len += ev->size;
	return true;
}

/* Make a block of up to max events, blobs in some; encode it. */
static void block_make(struct tf_codec *c, size_t max, bool blobs)
{
	static const uint8_t kinds[] = { LTR_EV_ENTER, LTR_EV_EXIT,
					 LTR_EV_ENTER, LTR_EV_EXIT,
					 LTR_EV_CALL, LTR_EV_UNWOUND,
					 LTR_EV_THREAD };
	size_t i;

	nevents = events_len = encoded_len = 0;
	while (nevents < max &&
	       event_add(kinds[rnd() % sizeof(kinds)], blobs && rnd() % 4 == 0))
		;
	tf_codec_reset(c);
	for (i = 0; i < nevents; i++) {
		enc_starts[i] = encoded_len;
		encoded_len += tf_encode(c, (const void *)((unsigned char *)events + starts[i]),
					 encoded + encoded_len);
	}
	enc_starts[nevents] = encoded_len;
}

/*
 * Bytes past a block's end the decoder may read (--read gives it
 * TF_DECODE_SLACK): in a cut block, those of the events after the cut.
 */
static size_t decode_slack;

/* Decode encoded[0..len); the bytes decoded, *err, *at: where it stopped. */
static size_t block_decode(struct tf_codec *c, size_t len, const char **err,
			   size_t *at)
{
	const unsigned char *p = encoded;
	size_t used;

	tf_codec_reset(c);
	used = tf_decode_block(c, &p, encoded + len, decode_slack, decoded,
			       TF_EVENTS_MAX, err);
	*at = (size_t)(p - encoded);
	return used;
}

/* Blocks of every size decode to the events encoded, bytes for bytes. */
static void test_whole(struct tf_codec *c, bool blobs)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 40, 400, MAX_EVENTS };
	bool ok = true;
	size_t k, round, at, used;
	const char *err;

	for (round = 0; round < 30; round++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			block_make(c, sizes[k], blobs);
			used = block_decode(c, encoded_len, &err, &at);
			if (err || at != encoded_len || used != events_len ||
			    memcmp(decoded, events, events_len) != 0) {
				printf("# %zu events: %s, at %zu of %zu, %zu of %zu bytes\n",
				       nevents, err ? err : "no error", at,
				       encoded_len, used, events_len);
				ok = false;
			}
		}
	}
	tap(ok, blobs ? "blocks with blobs decode to the events encoded"
		      : "blocks of plain events decode to the events encoded");
}

/*
 * A block cut anywhere decodes to the events before the cut, stops at
 * the first one it cuts, and says so.
 */
static void test_cut(struct tf_codec *c)
{
	bool ok = true;
	size_t cut, i, at, used;
	const char *err;

	block_make(c, 300, true);
	for (cut = 0; cut < encoded_len; cut++) {
		for (i = 0; enc_starts[i + 1] <= cut; i++)
			;
		used = block_decode(c, cut, &err, &at);
		if (at != enc_starts[i] || used != starts[i] ||
		    (cut > enc_starts[i] && !err) ||
		    memcmp(decoded, events, used) != 0) {
			printf("# cut at %zu: stopped at %zu (event %zu at %zu), %s\n",
			       cut, at, i, enc_starts[i], err ? err : "no error");
			ok = false;
		}
	}
	tap(ok, decode_slack
		    ? "a block cut anywhere, the rest of it readable past the cut, decodes to the events before the cut, and stops at the one cut"
		    : "a block cut anywhere decodes to the events before the cut, and stops at the one cut");
}

/*
 * An entry whose first argument jumps (a word of 6 bytes: tag 3, a count
 * byte) in the middle of a block of entries, then its count byte made
 * 9: the error is the careful way's, at that entry, and the entries
 * before it are decoded.
 */
static void test_bad_count(struct tf_codec *c)
{
	const size_t bad = 50;
	size_t i, j, at, used, q;
	const char *err;
	struct ltr_event *ev;

	nevents = events_len = 0;
	memset(args, 0, sizeof(args));
	for (i = 0; i < 200; i++) {
		event_add(LTR_EV_ENTER, false);
		ev = (void *)((unsigned char *)events + starts[i]);
		/* the time grows by 1 (zigzag 2: one byte), the rest repeats */
		ev->ts = 5000 + i;
		ev->depth = 0;
		ev->fn = 1;
		ev->w[0] = i == bad ? (1ull << 40) : 0;
		for (j = 1; j < LTR_ENTER_WORDS; j++)
			ev->w[j] = 7;
	}
	tf_codec_reset(c);
	encoded_len = 0;
	for (i = 0; i < nevents; i++) {
		enc_starts[i] = encoded_len;
		encoded_len += tf_encode(c, (const void *)((unsigned char *)events + starts[i]),
					 encoded + encoded_len);
	}
	/* type, tag byte, the time's byte, then word 3's count byte */
	q = enc_starts[bad] + 3;
	tap(encoded[q] == 6, "the jumping word is encoded with a count byte of 6");
	encoded[q] = 9;
	used = block_decode(c, encoded_len, &err, &at);
	tap(err && strcmp(err, "a word of no encoding") == 0 &&
		    at == enc_starts[bad] && used == starts[bad] &&
		    memcmp(decoded, events, used) == 0,
	    "a count byte of no encoding is found at its event, the events before it decoded");
}

/* Encode the block's events with encode (on c) into out; the bytes. */
static size_t block_encode(struct tf_codec *c, unsigned char *out,
			   size_t (*encode)(struct tf_codec *,
					    const struct ltr_event *,
					    unsigned char *))
{
	size_t i, len = 0;

	tf_codec_reset(c);
	for (i = 0; i < nevents; i++)
		len += encode(c, (const void *)((unsigned char *)events + starts[i]),
			      out + len);
	return len;
}

/*
 * tf_encode()'s fast way (an ENTER, CALL or EXIT without blobs) writes
 * the bytes the general way (tf_encode_any()) writes, whatever came
 * before it in its block (none of its type, one of its type with blobs,
 * others), and writes the reserved fields of the header (the ring's
 * words count, reserved2) as 0 as that way does.
 */
static void test_fast_same(struct tf_codec *c, struct tf_codec *any)
{
	static const size_t sizes[] = { 1, 2, 5, 40, 400, MAX_EVENTS };
	static unsigned char again[sizeof(encoded)];
	bool ok = true;
	size_t round, k, i, len, len_any;
	struct ltr_event *ev;

	for (round = 0; round < 40; round++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			block_make(c, sizes[k], round % 2);
			for (i = 0; round % 4 >= 2 && i < nevents; i++) {
				ev = (void *)((unsigned char *)events + starts[i]);
				ev->words = (uint16_t)rnd();
				ev->reserved2 = (uint32_t)rnd();
			}
			len = block_encode(c, again, tf_encode);
			if (len != encoded_len ||
			    memcmp(again, encoded, len) != 0) {
				printf("# %zu events: the reserved fields change the encoding\n",
				       nevents);
				ok = false;
			}
			len_any = block_encode(any, again, tf_encode_any);
			if (len_any != encoded_len ||
			    memcmp(again, encoded, len_any) != 0) {
				printf("# %zu events: %zu bytes the fast way, %zu the general way\n",
				       nevents, encoded_len, len_any);
				ok = false;
			}
		}
	}
	tap(ok, "the fast way encodes every event as the general way does, byte for byte");
}

/*
 * The ring's form of each plain event of the block (an ENTER, CALL or
 * EXIT without blobs), packed with a count of words of its own, and the
 * whole layout the reader makes of it (reader.c's unpack(): the words
 * left out 0, an ENTER's return address last) in place of the event.
 */
static uint64_t packed[MAX_EVENTS][2 + LTR_ENTER_WORDS];
static struct event_plain plain_of[MAX_EVENTS];

static void block_pack(void)
{
	size_t i, k;

	for (i = 0; i < nevents; i++) {
		struct ltr_event *ev = (void *)((unsigned char *)events + starts[i]);
		struct event_plain *pl = &plain_of[i];
		unsigned full = ev->type == LTR_EV_EXIT ? LTR_EXIT_WORDS
							: LTR_ENTER_WORDS;
		unsigned words = 1 + (unsigned)(rnd() % full);
		/* An ENTER's words: the arguments, then its return address. */
		unsigned nargs = full == LTR_ENTER_WORDS ? words - 1 : words;

		pl->full = 0;
		if ((ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL &&
		     ev->type != LTR_EV_EXIT) ||
		    ev->size != sizeof(*ev) + 8 * full)
			continue;
		for (k = nargs; k < full - (full == LTR_ENTER_WORDS); k++)
			ev->w[k] = 0;
		for (k = 0; k < nargs; k++)
			packed[i][2 + k] = ev->w[k];
		if (full == LTR_ENTER_WORDS)
			packed[i][2 + words - 1] = ev->w[full - 1];
		/* Kind's words 0: all of them; the ring's size, words. */
		packed[i][0] = (sizeof(struct ltr_rec) + 8 * (uint64_t)words) |
			       (uint64_t)(ev->type |
					  (words == full && rnd() % 2 ? 0 : words << 4))
				       << 16 |
			       (uint64_t)ev->flags << 24 |
			       (uint64_t)ev->depth << 32 | (uint64_t)ev->fn << 48;
		packed[i][1] = ev->ts;
		*pl = (struct event_plain){ .head = packed[i][0], .ts = ev->ts,
					    .w = &packed[i][2], .type = ev->type,
					    .words = words, .full = full };
	}
}

/*
 * tf_encode_plain() (-w's way: a ring's plain record encoded where it is)
 * writes the bytes the general way writes of the whole layout the reader
 * makes of it, whatever its count of words and whatever came before it.
 */
static void test_plain_same(struct tf_codec *c, struct tf_codec *any)
{
	static const size_t sizes[] = { 1, 2, 5, 40, 400, MAX_EVENTS };
	static unsigned char again[sizeof(encoded)];
	bool ok = true;
	size_t round, k, i, len, len_any;

	for (round = 0; round < 40; round++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			block_make(c, sizes[k], round % 2);
			block_pack();
			tf_codec_reset(c);
			for (i = 0, len = 0; i < nevents; i++)
				len += plain_of[i].full
					       ? tf_encode_plain(c, &plain_of[i],
								 again + len)
					       : tf_encode(c, (const void *)((unsigned char *)events + starts[i]),
							   again + len);
			len_any = block_encode(any, encoded, tf_encode_any);
			if (len != len_any || memcmp(again, encoded, len) != 0) {
				printf("# %zu events: %zu bytes from the ring's records, %zu the general way\n",
				       nevents, len, len_any);
				ok = false;
			}
		}
	}
	tap(ok, "a ring's plain records encode as the general way encodes their whole layout, byte for byte");
}

int main(void)
{
	struct tf_codec c, any;

	tf_codec_init(&c);
	tf_codec_init(&any);
	test_whole(&c, false);
	test_whole(&c, true);
	test_cut(&c);
	decode_slack = TF_DECODE_SLACK;
	test_whole(&c, false);
	test_cut(&c);
	decode_slack = 0;
	test_bad_count(&c);
	test_fast_same(&c, &any);
	test_plain_same(&c, &any);
	tf_codec_free(&c);
	tf_codec_free(&any);
	printf("1..%u\n", tap_tests);
	return tap_failures != 0;
}
