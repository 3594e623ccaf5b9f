/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltr-mutate.c: damage a trace file (ltruss-trace(5)) the way a fuzzer
 * would, deterministically from a seed, for tests/fuzz/tracefile-run.
 *
 * Usage: ltr-mutate IN OUT SEED
 *        ltr-mutate IN OUT type-name   (control bytes in a named type's
 *                                      first value name, CRC fixed: what
 *                                      the fuzzer found first)
 *        ltr-mutate IN OUT word-past   (the first EVENTS block made one
 *                                      event whose first word runs past
 *                                      the block's end, CRC fixed; the
 *                                      file ends there)
 *        ltr-mutate IN OUT string-ref  (the same, one whole event whose
 *                                      string is a back-reference to a
 *                                      string before the first)
 *        ltr-mutate IN OUT unknown-record (a TABLES block first, with
 *                                      a record of type 200, CRC right)
 *        ltr-mutate IN OUT slow-clock  (every CLOCK block's rate divided
 *                                      by 10000, CRC fixed: each call
 *                                      lasts 10000 times longer)
 *        ltr-mutate IN OUT last-second (every CLOCK block's realtime
 *                                      set 0.2 s into the last second a
 *                                      uint64_t of ns holds, CRC fixed)
 *        ltr-mutate IN OUT proto-again (after the first EVENTS block, a
 *                                      TABLES block with a second PROTO
 *                                      record for the first function that
 *                                      has one, and a TYPE record, then
 *                                      the first EVENTS block again: the
 *                                      use after free of issue 29)
 *        ltr-mutate IN OUT list-blocks (no damage: OUT gets a line a
 *                                      whole block, its offset, type,
 *                                      length, and an EVENTS block's slot
 *                                      and flags; "- -" for the others)
 *        ltr-mutate IN OUT round-slot  (the first block of a round's
 *                                      second slot made a block of slot
 *                                      LTR_MAX_THREADS, CRC fixed)
 *        ltr-mutate IN OUT soname-again, build-id-again, func-again,
 *                      object-again  (the same with a second record of
 *                                      that kind for what an earlier one
 *                                      wrote, its bytes changed)
 *
 * Most mutations change bytes inside a block's payload and then fix the
 * block's CRC-32C, so that the damage gets past the checksum into what
 * --read makes of records, events and tables (a flipped bit without the
 * fix only tests the checksum): random bytes, a 16- or 32-bit field set
 * to 0, 1, 0xff.., a power of two or a value near a table's size, blocks
 * swapped or repeated, a table record written again after the first
 * events (record_again()).  The rest are raw: bytes flipped anywhere, the
 * file cut short, a block length made huge.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../bin/util/crc32.h"
#include "../../../bin/tracefile/tracefile.h"
#include "../../../lib/session.h"
#include "ltr-encode.h"

static unsigned char *data;
static size_t size;
static uint64_t state;

/* The next pseudo-random number (xorshift64*). */
static uint64_t rnd(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ull;
}

/* Offsets of the whole blocks after the header; returns how many. */
static size_t blocks(size_t *at, size_t max)
{
	size_t off = sizeof(struct tf_header), n = 0;

	while (off + sizeof(struct tf_block) <= size && n < max) {
		struct tf_block b;

		memcpy(&b, data + off, sizeof(b));
		if (b.len > size - off - sizeof(b))
			break;
		at[n++] = off;
		off += sizeof(b) + ((b.len + 7u) & ~7u);
	}
	return n;
}

/* Recompute the CRC of the block at off. */
static void crc_fix(size_t off)
{
	struct tf_block b;

	memcpy(&b, data + off, sizeof(b));
	b.crc = crc32_update(0, data + off + sizeof(b), b.len);
	memcpy(data + off, &b, sizeof(b));
}

/* A value a fuzzer likes for a field. */
static uint32_t odd_value(void)
{
	static const uint32_t v[] = { 0, 1, 2, 7, 8, 0xff, 0xffff, 0x7fffffff,
				      0x80000000, 0xffffffff, 0xfffffff9,
				      16383, 16384, 65535, 65536, 4096,
				      LTR_MAX_FUNCS, LTR_MAX_OBJECTS,
				      LTR_STRINGS_SIZE, LTR_MAX_CAPTURES };

	return rnd() % 3 ? v[rnd() % (sizeof(v) / sizeof(v[0]))]
			 : (uint32_t)rnd();
}

/* One mutation inside the payload of the block at off, its CRC fixed. */
static void payload_mutate(size_t off)
{
	struct tf_block b;
	size_t p, k;
	uint32_t v;

	memcpy(&b, data + off, sizeof(b));
	if (!b.len || b.len > size - off - sizeof(b))
		return; /* an earlier mutation made it run past the end */
	p = off + sizeof(b) + rnd() % b.len;
	switch (rnd() % 3) {
	case 0:
		for (k = rnd() % 4 + 1; k-- > 0;)
			data[off + sizeof(b) + rnd() % b.len] ^=
				(unsigned char)(1u << (rnd() % 8));
		break;
	case 1:
		v = odd_value();
		p &= ~(size_t)3;
		if (p + 4 <= off + sizeof(b) + b.len)
			memcpy(data + p, &v, 4);
		break;
	default:
		v = odd_value();
		p &= ~(size_t)1;
		if (p + 2 <= off + sizeof(b) + b.len)
			memcpy(data + p, &v, 2);
		break;
	}
	crc_fix(off);
}

/* Put control bytes into the first value name of the first named type. */
static void type_name_damage(size_t *at, size_t n)
{
	size_t i, r;

	for (i = 0; i < n; i++) {
		struct tf_block b;

		memcpy(&b, data + at[i], sizeof(b));
		for (r = 0; b.type == TF_TABLES && r + sizeof(struct tf_record) <= b.len;) {
			const unsigned char *p = data + at[i] + sizeof(b) + r;
			struct tf_record rec;
			struct tf_type t;
			unsigned char *name;

			memcpy(&rec, p, sizeof(rec));
			if (rec.type == TF_REC_TYPE) {
				memcpy(&t, p + sizeof(rec), sizeof(t));
				name = (unsigned char *)p + sizeof(rec) + sizeof(t) +
				       8 * (t.nenums + t.nflags);
				name += strlen((char *)name) + 1;
				name[0] = 0x0e;
				name[1] = 0xa0;
				crc_fix(at[i]);
				return;
			}
			r += sizeof(rec) + ((rec.len + 7u) & ~7u);
		}
	}
}

/*
 * Make the first EVENTS block hold one event, ev (n bytes), and end the
 * file after it: the encoding lies, the checksum does not.
 */
static void event_forge(size_t *at, size_t n, const unsigned char *ev,
			size_t len)
{
	size_t i, p;

	for (i = 0; i < n; i++) {
		struct tf_block b;

		memcpy(&b, data + at[i], sizeof(b));
		if (b.type != TF_EVENTS || b.len < sizeof(struct tf_events) + len)
			continue;
		p = at[i] + sizeof(b) + sizeof(struct tf_events);
		memcpy(data + p, ev, len);
		b.len = (uint32_t)(sizeof(struct tf_events) + len);
		memcpy(data + at[i], &b, sizeof(b));
		crc_fix(at[i]);
		memset(data + p + len, 0, 8 - len % 8);
		size = p + ((len + 7u) & ~(size_t)7u);
		return;
	}
}

/* An ENTER event whose first word says 8 bytes follow, and 3 do. */
static void word_past(size_t *at, size_t n)
{
	static const unsigned char ev[] = { LTR_EV_ENTER, 0x03, 0x08, 0x80,
					    0x80, 0x80 };

	event_forge(at, n, ev, sizeof(ev));
}

/*
 * A whole ENTER event with one string argument of 8 bytes whose bytes
 * are a back-reference to the 5th string before it: there is none.
 */
static void string_ref(size_t *at, size_t n)
{
	uint64_t w[LTR_ENTER_WORDS + 4] = {
		(uint64_t)(8 * (LTR_ENTER_WORDS + 5)) | LTR_EV_ENTER << 16,
		0, 1000,
	};
	unsigned char ev[1 + 2 * sizeof(w)];
	struct ltr_blob b = { .type = LTR_BLOB_STRING, .len = 8 };
	size_t len;

	memcpy(&w[3 + LTR_ENTER_WORDS], &b, 8);
	ev[0] = LTR_EV_ENTER;
	len = 1 + words_put(ev + 1, w, 4 + LTR_ENTER_WORDS);
	ev[len++] = 5;
	event_forge(at, n, ev, len);
}

/*
 * Every CLOCK block: its TSC rate divided by 10000 (slow: durations grow
 * as much), or its realtime put 0.2 s into the last second a uint64_t of
 * ns holds (the second 18446744073, where a cache of the last second
 * seen starting at UINT64_MAX took a first timestamp for a kept one).
 */
static void clock_change(size_t *at, size_t n, bool slow)
{
	struct tf_block b;
	struct tf_clock c;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&b, data + at[i], sizeof(b));
		if (b.type != TF_CLOCK || b.len != sizeof(c))
			continue;
		memcpy(&c, data + at[i] + sizeof(b), sizeof(c));
		if (slow)
			c.ticks_per_ns /= 10000;
		else
			c.real0 = UINT64_MAX / 1000000000u * 1000000000u + 200000000u;
		memcpy(data + at[i] + sizeof(b), &c, sizeof(c));
		crc_fix(at[i]);
	}
}

/*
 * The first record of type type in a TABLES block: its offset, or 0.
 * Within the file too: an earlier mutation may have made a block's
 * length run past its end.
 */
static size_t record_find(const size_t *at, size_t n, uint32_t type)
{
	size_t i, r;

	for (i = 0; i < n; i++) {
		struct tf_block b;

		memcpy(&b, data + at[i], sizeof(b));
		for (r = 0; b.type == TF_TABLES && r + sizeof(struct tf_record) <= b.len &&
			    at[i] + sizeof(b) + r + sizeof(struct tf_record) <= size;) {
			struct tf_record rec;

			memcpy(&rec, data + at[i] + sizeof(b) + r, sizeof(rec));
			if (rec.type == type)
				return at[i] + sizeof(b) + r;
			r += sizeof(rec) + ((rec.len + 7u) & ~7u);
		}
	}
	return 0;
}

/*
 * Insert, after the first EVENTS block, a TABLES block holding a copy of
 * the first record of kind type (its last data byte before any NUL end
 * changed, unless type is TF_REC_PROTO), then that EVENTS block again: a
 * second record for what the first wrote, while its events are in use.
 * False if the file has no such record or no EVENTS block (an earlier
 * random mutation may have damaged them).
 */
static bool record_again(const size_t *at, size_t n, uint32_t type)
{
	static const char name[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	size_t rec = record_find(at, n, type), i, ev = 0, ev_len, len, o, k;
	struct tf_record r, tr = { .type = TF_REC_TYPE };
	struct tf_type t = { .size = 4, .name_len = sizeof(name) };
	struct tf_block b, nb = { .type = TF_TABLES };
	unsigned char *out;

	for (i = 0; i < n && !ev; i++) {
		memcpy(&b, data + at[i], sizeof(b));
		if (b.type == TF_EVENTS)
			ev = at[i];
	}
	if (!rec || !ev)
		return false;
	ev_len = sizeof(b) + ((b.len + 7u) & ~7u);
	memcpy(&r, data + rec, sizeof(r));
	/* Lengths an earlier random mutation damaged: nothing to copy. */
	if (ev_len > size - ev ||
	    sizeof(r) + ((r.len + 7u) & ~7u) > size - rec)
		return false;
	tr.len = (uint32_t)(sizeof(t) + sizeof(name));
	len = sizeof(r) + ((r.len + 7u) & ~7u);
	if (type == TF_REC_PROTO)
		len += sizeof(tr) + ((tr.len + 7u) & ~7u);
	nb.len = (uint32_t)len;
	out = calloc(1, size + sizeof(nb) + len + ev_len);
	if (!out)
		exit(2);
	o = ev + ev_len;
	memcpy(out, data, o);
	memcpy(out + o + sizeof(nb), data + rec, sizeof(r) + r.len);
	k = o + sizeof(nb) + sizeof(r) + r.len - 1;
	if (type != TF_REC_PROTO) {
		if (out[k] == 0 && r.len > 1)
			k--;
		out[k] ^= 1;
	} else {
		k = o + sizeof(nb) + sizeof(r) + ((r.len + 7u) & ~7u);
		memcpy(out + k, &tr, sizeof(tr));
		memcpy(out + k + sizeof(tr), &t, sizeof(t));
		memcpy(out + k + sizeof(tr) + sizeof(t), name, sizeof(name));
	}
	nb.crc = crc32_update(0, out + o + sizeof(nb), len);
	memcpy(out + o, &nb, sizeof(nb));
	memcpy(out + o + sizeof(nb) + len, data + ev, ev_len);
	memcpy(out + o + sizeof(nb) + len + ev_len, data + o, size - o);
	free(data);
	data = out;
	size += sizeof(nb) + len + ev_len;
	return true;
}

/*
 * Put a TABLES block with one record of type 200 (a kind no version has
 * yet) just after the header: what a later writer may add.
 */
static void unknown_record(void)
{
	static const char what[] = "a later version's table";
	struct tf_record r = { .type = 200, .len = sizeof(what) };
	struct tf_block b = { .type = TF_TABLES,
			      .len = (uint32_t)(sizeof(r) + 24) };
	size_t head = sizeof(struct tf_header), n = sizeof(b) + b.len;
	unsigned char *out = calloc(1, size + n);

	if (!out)
		exit(2);
	memcpy(out, data, head);
	memcpy(out + head + sizeof(b), &r, sizeof(r));
	memcpy(out + head + sizeof(b) + sizeof(r), what, sizeof(what));
	b.crc = crc32_update(0, out + head + sizeof(b), b.len);
	memcpy(out + head, &b, sizeof(b));
	memcpy(out + head + n, data + head, size - head);
	free(data);
	data = out;
	size += n;
}

/* The record type of mode "KIND-again", or 0. */
static size_t again_type(const char *mode)
{
	static const char *const kinds[] = {
		[TF_REC_FUNC] = "func-again", [TF_REC_OBJECT] = "object-again",
		[TF_REC_PROTO] = "proto-again",
		[TF_REC_BUILD_ID] = "build-id-again",
		[TF_REC_SONAME] = "soname-again",
	};
	size_t i;

	for (i = 1; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i] && strcmp(mode, kinds[i]) == 0)
			return i;
	return 0;
}

/* Mode list-blocks: a line a whole block into file out. */
static int list_blocks(const char *out)
{
	size_t off = sizeof(struct tf_header);
	FILE *f = fopen(out, "w");
	struct tf_block b;
	struct tf_events e;

	if (!f)
		return 2;
	while (size - off >= sizeof(b)) {
		memcpy(&b, data + off, sizeof(b));
		if (tf_padded(b.len) > size - off - sizeof(b))
			break;
		if (b.type == TF_EVENTS && b.len >= sizeof(e)) {
			memcpy(&e, data + off + sizeof(b), sizeof(e));
			fprintf(f, "%zu %u %u %u %u\n", off, b.type, b.len,
				e.slot, e.flags);
		} else {
			fprintf(f, "%zu %u %u - -\n", off, b.type, b.len);
		}
		off += sizeof(b) + tf_padded(b.len);
	}
	return fclose(f) ? 2 : 0;
}

/* Mode round-slot (see the top); false if no round has two slots. */
static bool round_slot(const size_t *at, size_t n)
{
	struct tf_events e, prev = { .flags = 0 };
	struct tf_block b;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&b, data + at[i], sizeof(b));
		if (b.type != TF_EVENTS || b.len < sizeof(e)) {
			prev.flags = 0;
			continue;
		}
		memcpy(&e, data + at[i] + sizeof(b), sizeof(e));
		if ((e.flags & prev.flags & TF_EVENTS_ROUND) &&
		    !(prev.flags & TF_EVENTS_ROUND_END) && e.slot != prev.slot) {
			e.slot = LTR_MAX_THREADS;
			memcpy(data + at[i] + sizeof(b), &e, sizeof(e));
			crc_fix(at[i]);
			return true;
		}
		prev = e;
	}
	return false;
}

int main(int argc, char **argv)
{
	size_t at[4096], n, i, k = 0;
	FILE *f;
	long len;

	if (argc != 4)
		return 2;
	state = strtoull(argv[3], NULL, 10) * 0x9e3779b97f4a7c15ull + 1;
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0)
		return 2;
	rewind(f);
	size = (size_t)len;
	data = malloc(size);
	if (!data || fread(data, 1, size, f) != size)
		return 2;
	fclose(f);
	if (strcmp(argv[3], "list-blocks") == 0)
		return list_blocks(argv[2]);
	n = blocks(at, sizeof(at) / sizeof(at[0]));
	if (strcmp(argv[3], "type-name") == 0)
		type_name_damage(at, n);
	else if (strcmp(argv[3], "word-past") == 0)
		word_past(at, n);
	else if (strcmp(argv[3], "string-ref") == 0)
		string_ref(at, n);
	else if (strcmp(argv[3], "slow-clock") == 0)
		clock_change(at, n, true);
	else if (strcmp(argv[3], "last-second") == 0)
		clock_change(at, n, false);
	else if (strcmp(argv[3], "unknown-record") == 0)
		unknown_record();
	else if (strcmp(argv[3], "round-slot") == 0) {
		if (!round_slot(at, n))
			return 3;
	}
	else if ((i = again_type(argv[3])) != 0) {
		if (!record_again(at, n, (uint32_t)i))
			return 3;
	}
	else
		k = rnd() % 3 + 1;
	for (; k-- > 0 && n;) {
		size_t b = at[rnd() % n];

		switch (rnd() % 10) {
		case 0: /* raw flips anywhere */
			data[rnd() % size] ^= (unsigned char)(1u << (rnd() % 8));
			break;
		case 1: /* cut */
			size = sizeof(struct tf_header) + rnd() % (size - sizeof(struct tf_header) + 1);
			n = blocks(at, sizeof(at) / sizeof(at[0]));
			break;
		case 2: { /* a huge length */
			uint32_t v = odd_value();

			memcpy(data + b + 4, &v, 4);
			break;
		}
		case 3: { /* a block copied over a later one of its size */
			struct tf_block h;

			memcpy(&h, data + b, sizeof(h));
			for (i = 0; i < n; i++) {
				if (at[i] > b && !memcmp(data + at[i] + 4, &h.len, 4) &&
				    at[i] + sizeof(h) + ((h.len + 7u) & ~7u) <= size) {
					memcpy(data + at[i], data + b, sizeof(h) +
					       ((h.len + 7u) & ~7u));
					break;
				}
			}
			break;
		}
		case 4: { /* a record again, after the first events */
			uint32_t type = TF_REC_PROTO + (uint32_t)(rnd() %
				(TF_REC_KNOWN_LAST - TF_REC_PROTO + 1));

			if (type != TF_REC_TYPE)
				(void)record_again(at, n, type);
			n = blocks(at, sizeof(at) / sizeof(at[0]));
			break;
		}
		default:
			payload_mutate(b);
		}
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		return 2;
	free(data);
	return 0;
}
