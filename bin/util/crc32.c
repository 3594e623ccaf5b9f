/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.c: CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the
 * checksum of iSCSI, ext4 and Btrfs metadata, which x86_64 computes with
 * one instruction (SSE4.2 crc32) eight bytes at a time.  The writer checks
 * every byte of a trace file, hundreds of MB a second: with zlib's CRC-32
 * by tables it was a third of ltruss's time on the loop benchmark.  CPUs
 * without SSE4.2 use the same CRC by tables (slicing-by-8).
 */
#include "config.h"

#include <cpuid.h>
#include <stdbool.h>
#include <string.h>

#include "crc32.h"

#define POLY 0x82f63b78u

static uint32_t table[8][256];
static int mode; /* 0: not chosen yet; 1: instruction; 2: tables */

/* Fill the tables: table[0] bytewise, table[k] a byte followed by k zeros. */
static void tables_make(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? POLY ^ (c >> 1) : c >> 1;
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			table[k][i] = (table[k - 1][i] >> 8) ^
				      table[0][table[k - 1][i] & 0xff];
}

/* The CRC by tables, on the inverted crc. */
static uint32_t by_tables(uint32_t crc, const unsigned char *b, size_t n)
{
	uint64_t w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		w ^= crc;
		crc = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^
		      table[5][(w >> 16) & 0xff] ^ table[4][(w >> 24) & 0xff] ^
		      table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
		      table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
	}
	while (n--)
		crc = table[0][(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* The CRC by the SSE4.2 instruction, on the inverted crc. */
__attribute__((target("sse4.2")))
static uint32_t by_instruction(uint32_t crc, const unsigned char *b, size_t n)
{
	uint64_t c = crc, w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		c = __builtin_ia32_crc32di(c, w);
	}
	while (n--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *b++);
	return (uint32_t)c;
}

/*
 * Has the CPU the SSE4.2 instructions?  Asked here, at the first CRC, not
 * by __builtin_cpu_supports: that links libgcc's CPU model, whose
 * constructor runs a dozen CPUID instructions at every start (each one a
 * trip to the hypervisor in a virtual machine), -w or not.
 */
static bool has_sse42(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
}

uint32_t crc32_update(uint32_t crc, const void *p, size_t n)
{
	if (!mode) {
		mode = has_sse42() ? 1 : 2;
		if (mode == 2)
			tables_make();
	}
	crc = ~crc;
	crc = mode == 1 ? by_instruction(crc, p, n) : by_tables(crc, p, n);
	return ~crc;
}
