/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ltr-gen.c: write a valid trace file (ltruss-trace(5)) whose counts are
 * as large as the format allows, to check that ltruss --read takes time
 * and memory close to linear in a file's size (tests/tracefile.bats).
 *
 * Usage: ltr-gen OUT N
 *        ltr-gen OUT stacks PIDS OBJECTS CALLS FILE OFFSET NAMES [dead]
 *
 * N objects (at most LTR_MAX_OBJECTS) of process 100, /gen/libNNNNN.so,
 * each with a build ID, and N functions fNNNNN, each of the library
 * short-named libNNNNN, called once each (one CALL event an EVENTS block).
 * The build IDs come first, each in a TABLES block of its own, and the
 * objects' table last: a reader that walked the IDs waiting for their
 * objects at every block, or matched each -u library glob against every
 * object for each library, took time N * N.
 *
 * stacks: PIDS processes (1000, 1001...) of OBJECTS objects each, all
 * copies of the ELF file FILE (FILE.0 to FILE.NAMES-1 when NAMES > 0: the
 * test links them to FILE) at addresses of their own, and CALLS calls of
 * function f, the processes taking turns, each with a -k stack copy whose
 * return address is 1 past OFFSET in one of its process's objects, in
 * turn: the code at OFFSET must be a function's first instruction, so
 * that the stack is that one frame (the copy holds a 0 return address
 * above it), " > FUNC+0x1 (FILE)".  A reader that built each process's
 * unwinder anew when another's calls came between, or looked at every
 * object for each frame, took time CALLS * OBJECTS.
 * With "dead", the objects' table starts with one more record, claimed by
 * a process killed before it wrote it (all zero): a reader that waits at
 * it for its writer never names a frame.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../bin/util/crc32.h"
#include "../../../bin/tracefile/tracefile.h"
#include "../../../lib/session.h"
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

/* A FUNC record: function at, name, of the library short-named lib. */
static void func_record(uint32_t at, const char *name, const char *lib)
{
	struct tf_func f = { .size = sizeof(f), .proto = -1 };
	unsigned char r[sizeof(f) + 2 * 4096];
	size_t n1 = strlen(name) + 1, n2 = strlen(lib) + 1;

	memcpy(r, &f, sizeof(f));
	memcpy(r + sizeof(f), name, n1);
	memcpy(r + sizeof(f) + n1, lib, n2);
	record(TF_REC_FUNC, at, r, sizeof(f) + n1 + n2);
}

/* An OBJECT record: object at of process pid, [start, end), its path. */
static void object_record(uint32_t at, int pid, uint64_t start, uint64_t end,
			  const char *path)
{
	struct tf_object o = { .size = sizeof(o), .pid = pid, .start = start,
			       .end = end, .bias = start };
	unsigned char r[sizeof(o) + 4096];
	size_t n = strlen(path) + 1;

	memcpy(r, &o, sizeof(o));
	memcpy(r + sizeof(o), path, n);
	record(TF_REC_OBJECT, at, r, sizeof(o) + n);
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

/* The header, the clock and string s at offset 1 of the strings. */
static void start(const char *cmd)
{
	struct tf_header h = { .magic = TF_MAGIC, .version = TF_VERSION,
			       .header_size = sizeof(h),
			       .events_layout = TF_EVENTS_LAYOUT,
			       .strsize = 32, .start_time = 1 };
	struct tf_clock clk = { .tsc0 = 0, .real0 = 1, .ticks_per_ns = 1.0 };

	strcpy(h.ltruss_version, "ltr-gen");
	strcpy(h.command, cmd);
	h.crc = crc32_update(0, &h, offsetof(struct tf_header, crc));
	fwrite(&h, sizeof(h), 1, out);
	put(&clk, sizeof(clk));
	block(TF_CLOCK);
}

/* One EVENTS block of slot's process pid: one event of words w[0..n). */
static void events(uint32_t slot, int pid, const uint64_t *w, size_t n)
{
	struct tf_events e = { .slot = slot, .pid = pid, .tid = pid };

	memcpy(blk, &e, sizeof(e));
	blk[sizeof(e)] = (unsigned char)(w[0] >> 16);
	len = sizeof(e) + 1 + words_put(blk + sizeof(e) + 1, w, n);
	n = len;
	block(TF_EVENTS);
	/* The next block starts 8-aligned: the padding is outside this one. */
	if (n % 8)
		fwrite("\0\0\0\0\0\0\0", 1, 8 - n % 8, out);
}

/* The end of the file. */
static int finish(void)
{
	struct tf_end end = { 0 };

	put(&end, sizeof(end));
	block(TF_END);
	return fclose(out) ? 2 : 0;
}

#define GEN_BASE 0x100000000ull /* where the generated objects lie */
#define GEN_SPAN 0x1000000ull   /* the room of each (FILE is smaller) */
#define GEN_SP 0x7ff000000000ull

/* ltr-gen OUT stacks PIDS OBJECTS CALLS FILE OFFSET NAMES [dead] (above). */
static int stacks(char **argv, bool dead)
{
	uint32_t pids = (uint32_t)strtoul(argv[3], NULL, 10);
	uint32_t nobj = (uint32_t)strtoul(argv[4], NULL, 10);
	uint32_t calls = (uint32_t)strtoul(argv[5], NULL, 10);
	uint64_t offset = strtoull(argv[7], NULL, 0);
	uint32_t names = (uint32_t)strtoul(argv[8], NULL, 10);
	uint32_t i, k, n = pids * nobj;
	char name[4096];

	if (!pids || !nobj || pids > LTR_MAX_THREADS ||
	    (uint64_t)pids * nobj > LTR_MAX_OBJECTS)
		return 2;
	start("ltr-gen stacks");
	func_record(0, "f", "libgen");
	block(TF_TABLES);
	/* The dead claim: no addresses, no path. */
	if (dead)
		object_record(0, 0, 0, 0, "");
	for (i = 0; i < n; i++) {
		uint64_t base = GEN_BASE + (uint64_t)(i % nobj) * GEN_SPAN;

		/* Object i of each process is a copy of name i % names. */
		if (names)
			snprintf(name, sizeof(name), "%s.%u", argv[6],
				 i % names);
		else
			snprintf(name, sizeof(name), "%s", argv[6]);
		object_record(i + dead, (int)(1000 + i / nobj), base,
			      base + GEN_SPAN, name);
		if (len > TF_BLOCK_MAX / 2)
			block(TF_TABLES);
	}
	block(TF_TABLES);
	for (i = 0; i < calls; i++) {
		uint32_t p = i % pids, o = i % nobj;
		uint64_t words = 3 + LTR_ENTER_WORDS + 1 + 8 + 2;
		uint64_t w[3 + LTR_ENTER_WORDS + 1 + 8 + 2] = {
			words * 8 | (uint64_t)LTR_EV_CALL << 16, 0, i,
			1, 2, 3, 4, 5, 6, 0,
			/* The blob: its header, the registers, the copy. */
			(uint64_t)LTR_BLOB_CALLSTACK | (uint64_t)(8 * 10) << 32,
			GEN_SP, GEN_BASE + o * GEN_SPAN + offset + 1,
			0, 0, 0, 0, 0, 0,
			GEN_BASE + o * GEN_SPAN + offset + 1, 0,
		};

		events(p, (int)(1000 + p), w, words);
	}
	return finish();
}

int main(int argc, char **argv)
{
	struct tf_header h = { .magic = TF_MAGIC, .version = TF_VERSION,
			       .header_size = sizeof(h),
			       .events_layout = TF_EVENTS_LAYOUT,
			       .strsize = 32, .start_time = 1 };
	struct tf_clock clk = { .tsc0 = 0, .real0 = 1, .ticks_per_ns = 1.0 };
	struct tf_end end = { 0 };
	uint32_t n, i;
	char name[64];

	if ((argc == 9 || (argc == 10 && strcmp(argv[9], "dead") == 0)) &&
	    strcmp(argv[2], "stacks") == 0) {
		out = fopen(argv[1], "wb");
		blk = malloc(TF_BLOCK_MAX);
		if (!out || !blk)
			return 2;
		return stacks(argv, argc == 10);
	}
	if (argc != 3 || !(out = fopen(argv[1], "wb")))
		return 2;
	n = (uint32_t)strtoul(argv[2], NULL, 10);
	if (!n || n > LTR_MAX_OBJECTS)
		return 2;
	blk = malloc(TF_BLOCK_MAX);
	if (!blk)
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
		record(TF_REC_BUILD_ID, i, id, sizeof(id));
		block(TF_TABLES);
	}
	for (i = 0; i < n; i++) {
		char lib[64];

		snprintf(name, sizeof(name), "f%05u", i);
		snprintf(lib, sizeof(lib), "lib%05u", i);
		func_record(i, name, lib);
		if (len > TF_BLOCK_MAX / 2)
			block(TF_TABLES);
	}
	block(TF_TABLES);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "/gen/lib%05u.so", i);
		object_record(i, 100, 0x10000000ull + i * 0x10000ull,
			      0x10001000ull + i * 0x10000ull, name);
		if (len > TF_BLOCK_MAX / 2)
			block(TF_TABLES);
	}
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
