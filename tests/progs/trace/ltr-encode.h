/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ltr-encode.h: the first event of an EVENTS block, encoded (ltr-mutate, ltr-gen). */
#ifndef LTRUSS_LTR_ENCODE_H
#define LTRUSS_LTR_ENCODE_H

#include <stdint.h>
#include <string.h>

/*
 * Encode the words w[0..n) of the first event of a block (its references
 * are zeros) at p, as ltruss-trace(5) says: a tag byte for each four
 * words, each word zigzagged in as few bytes as hold it (past 2, after a
 * byte that counts them).  Returns the bytes.
 */
static inline size_t words_put(unsigned char *p, const uint64_t *w, size_t n)
{
	size_t i, o = 0, tag = 0;

	for (i = 0; i < n; i++) {
		uint64_t z = (w[i] << 1) ^ (uint64_t)((int64_t)w[i] >> 63);
		unsigned len = 0;

		for (; z >> (8 * len) && len < 8; len++)
			;
		if (i % 4 == 0) {
			tag = o++;
			p[tag] = 0;
		}
		p[tag] |= (unsigned char)((len > 2 ? 3 : len) << (2 * (i % 4)));
		if (len > 2)
			p[o++] = (unsigned char)len;
		memcpy(p + o, &z, len);
		o += len;
	}
	return o;
}

#endif
