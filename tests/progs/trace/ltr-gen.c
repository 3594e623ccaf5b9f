/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltr-gen.c: write a valid trace file (ltruss-trace(5)) whose counts are
 * as large as the format allows, to check that ltruss --read takes time
 * and memory close to linear in a file's size (tests/tracefile.bats).
 *
 * Usage: ltr-gen OUT N
 *
 * N objects (at most LTR_MAX_OBJECTS) of process 100, /gen/libNNNNN.so,
 * each with a build ID, and N functions fNNNNN, each of the library
 * short-named libNNNNN, called once each (one CALL event an EVENTS block).
 * The build IDs come first, each in a TABLES block of its own, and the
 * objects' table last: a reader that walked the IDs waiting for their
 * objects at every block, or matched each -u library glob against every
 * object for each library, took time N * N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../bin/crc32.h"
#include "../../../bin/tracefile.h"
#include "ltr-encode.h"

static FILE *out;
static unsigned char *blk; /* the payload of the block being made */
static size_t len;

/* Append n bytes of p to the block, padded to 8. */
static void put(const void *p, size_t n)
{
	memcpy(blk + len, p, n);
	len += n;
	while (len % 8)
		blk[len++] = 0;
}

/* Append a TABLES record. */
static void record(uint32_t type, uint32_t at, const void *p, size_t n)
{
	struct tf_record r = { .type = type, .at = at, .len = (uint32_t)n };

	put(&r, sizeof(r));
	put(p, n);
}

/* Write the block made so far as one of type type. */
static void block(uint32_t type)
{
	struct tf_block b = { .type = type, .len = (uint32_t)len,
			      .crc = crc32_update(0, blk, len) };

	fwrite(&b, sizeof(b), 1, out);
	fwrite(blk, 1, len, out);
	len = 0;
}

int main(int argc, char **argv)
{
	struct tf_header h = { .magic = TF_MAGIC, .version = TF_VERSION,
			       .header_size = sizeof(h),
			       .session_version = LTR_SESSION_VERSION,
			       .strsize = 32, .start_time = 1 };
	struct tf_clock clk = { .tsc0 = 0, .real0 = 1, .ticks_per_ns = 1.0 };
	struct tf_end end = { 0 };
	struct ltr_objrec *objs;
	struct ltr_func *funcs;
	uint32_t n, i, off = 1;
	char name[64];

	if (argc != 3 || !(out = fopen(argv[1], "wb")))
		return 2;
	n = (uint32_t)strtoul(argv[2], NULL, 10);
	if (!n || n > LTR_MAX_OBJECTS)
		return 2;
	blk = malloc(TF_BLOCK_MAX);
	objs = calloc(n, sizeof(*objs));
	funcs = calloc(n, sizeof(*funcs));
	if (!blk || !objs || !funcs)
		return 2;
	strcpy(h.ltruss_version, "ltr-gen");
	strcpy(h.command, "ltr-gen");
	h.crc = crc32_update(0, &h, offsetof(struct tf_header, crc));
	fwrite(&h, sizeof(h), 1, out);
	put(&clk, sizeof(clk));
	block(TF_CLOCK);
	for (i = 0; i < n; i++) {
		unsigned char id[20];

		memset(id, 0, sizeof(id));
		memcpy(id, &i, sizeof(i));
		snprintf(name, sizeof(name), "/gen/lib%05u.so", i);
		record(TF_REC_STRINGS, off, name, strlen(name) + 1);
		record(TF_REC_BUILD_ID, i, id, sizeof(id));
		block(TF_TABLES);
		objs[i] = (struct ltr_objrec){ .pid = 100, .path = off,
					       .start = 0x10000000ull + i * 0x10000ull,
					       .end = 0x10001000ull + i * 0x10000ull,
					       .bias = 0x10000000ull + i * 0x10000ull };
		off += (uint32_t)strlen(name) + 1;
	}
	for (i = 0; i < n; i++) {
		funcs[i] = (struct ltr_func){ .capture = -1, .name = off,
					      .flags = LTR_FN_READY };
		snprintf(name, sizeof(name), "f%05u", i);
		record(TF_REC_STRINGS, off, name, strlen(name) + 1);
		off += (uint32_t)strlen(name) + 1;
		funcs[i].lib = off;
		snprintf(name, sizeof(name), "lib%05u", i);
		record(TF_REC_STRINGS, off, name, strlen(name) + 1);
		off += (uint32_t)strlen(name) + 1;
		if (len > TF_BLOCK_MAX / 2)
			block(TF_TABLES);
	}
	record(TF_REC_FUNCS, 0, funcs, n * sizeof(*funcs));
	block(TF_TABLES);
	record(TF_REC_OBJECTS, 0, objs, n * sizeof(*objs));
	block(TF_TABLES);
	for (i = 0; i < n; i++) {
		struct tf_events e = { .slot = 0, .pid = 100, .tid = 100 };
		uint64_t w[3 + LTR_ENTER_WORDS] = {
			(uint64_t)(8 * (3 + LTR_ENTER_WORDS)) |
				(uint64_t)LTR_EV_CALL << 16,
			i, 1000 + i, 1, 2, 3, 4, 5, 6,
			0x10000800ull + i * 0x10000ull,
		};
		unsigned char ev[1 + 2 * sizeof(w)];
		size_t k;

		ev[0] = LTR_EV_CALL;
		k = 1 + words_put(ev + 1, w, 3 + LTR_ENTER_WORDS);
		memcpy(blk, &e, sizeof(e));
		memcpy(blk + sizeof(e), ev, k);
		len = sizeof(e) + k;
		block(TF_EVENTS);
		while (len % 8)
			len++;
		if ((sizeof(e) + k) % 8)
			fwrite("\0\0\0\0\0\0\0", 1, 8 - (sizeof(e) + k) % 8, out);
	}
	put(&end, sizeof(end));
	block(TF_END);
	return fclose(out) ? 2 : 0;
}
