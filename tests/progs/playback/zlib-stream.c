/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zlib-stream.c: a zlib stream for tests/playback.bats: deflateInit,
 * deflate in chunks (input and output buffers smaller than the data),
 * deflateEnd, then inflate it back the same way and compare.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define DATA 20000
#define CHUNK 4096
#define ROOM 1024

static unsigned char data[DATA], packed[DATA + 1024], back[DATA];

/* Deflate data into packed, CHUNK bytes in, ROOM bytes out at a time; its size. */
static size_t pack(void)
{
	unsigned char room[ROOM];
	size_t in = 0, out = 0, n;
	z_stream zs;
	int flush;

	memset(&zs, 0, sizeof(zs));
	if (deflateInit(&zs, 6) != Z_OK)
		return 0;
	do {
		n = DATA - in < CHUNK ? DATA - in : CHUNK;
		zs.next_in = data + in;
		zs.avail_in = (uInt)n;
		in += n;
		flush = in == DATA ? Z_FINISH : Z_NO_FLUSH;
		do {
			zs.next_out = room;
			zs.avail_out = ROOM;
			deflate(&zs, flush);
			memcpy(packed + out, room, ROOM - zs.avail_out);
			out += ROOM - zs.avail_out;
		} while (zs.avail_out == 0);
	} while (flush != Z_FINISH);
	deflateEnd(&zs);
	return out;
}

/* Inflate packed[0..len) into back, in the same steps; its size. */
static size_t unpack(size_t len)
{
	size_t in = 0, n;
	z_stream zs;
	int rc = Z_OK;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return 0;
	zs.next_out = back;
	zs.avail_out = DATA;
	while (rc == Z_OK && in < len) {
		n = len - in < ROOM ? len - in : ROOM;
		zs.next_in = packed + in;
		zs.avail_in = (uInt)n;
		in += n;
		rc = inflate(&zs, Z_NO_FLUSH);
	}
	inflateEnd(&zs);
	return DATA - zs.avail_out;
}

int main(void)
{
	unsigned seed = 1;
	size_t i, len, back_len;

	/* Letters of a fixed pseudo-random sequence: compressed to several ROOMs. */
	for (i = 0; i < DATA; i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (unsigned char)('a' + (seed >> 16) % 16);
	}
	len = pack();
	back_len = unpack(len);
	printf("%d bytes -> %zu bytes -> %zu bytes, %s\n", DATA, len, back_len,
	       memcmp(data, back, DATA) == 0 ? "the same" : "different");
	return 0;
}
