/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * numbers.c: call libnumbers with integers and pointers at their limits
 * (and registers with bits above a narrow type's), printing each call
 * as ltruss should show it, by printf, for tests/typed.bats to compare;
 * "numbers strings" calls num_str with strings of every kind of byte to
 * escape, in runs of every length, and prints nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libnumbers.h"

static const uint64_t values[] = {
	0, 1, UINT64_MAX, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, (uint64_t)INT64_MIN,
	INT64_MAX, 0x123456789abcdef0, 9, 10, 99, 100, 999999999, 1000000000,
	0xdeadbeef00000064, 0xfffffffffffffff6, 0xf, 0x10, 12345678901234567ull,
};
#define NVALUES (sizeof(values) / sizeof(values[0]))

/* A pointer or register as ltruss prints it: zero as zero, else hex. */
static const char *hex(char *buf, uint64_t v, const char *zero)
{
	if (!v)
		return zero;
	snprintf(buf, 24, "0x%llx", (unsigned long long)v);
	return buf;
}

/* num_str with strings of quotes, backslashes and other bytes to escape. */
static void strings(void)
{
	static const char *const tails[] = { "", "\n", "\001", "\303\251",
					     "\177", "0", "\"", "\\",
					     "\0017", "\3037" };
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	char s[1024];
	size_t t, n;
	unsigned k, j;

	for (k = 0; k <= 12; k++) {
		for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
			n = 0;
			for (j = 0; j < k; j++) {
				size_t run = (j * 7 + k + t) % 19;

				memcpy(s + n, plain, run);
				n += run;
				s[n++] = j % 2 ? '\\' : '"';
			}
			n += (size_t)sprintf(s + n, "%.*s%s", (int)(k % 18),
					     plain, tails[t]);
			s[n] = '\0';
			num_str(s);
		}
	}
}

int main(int argc, char **argv)
{
	char b1[24], b2[24], b3[24], b4[24];
	uint64_t a, b, c, d, e, f, r;
	size_t i;

	if (argc > 1 && strcmp(argv[1], "strings") == 0) {
		strings();
		return 0;
	}
	for (i = 0; i < NVALUES; i++) {
		a = values[i];
		b = values[(i + 1) % NVALUES];
		c = values[(i + 2) % NVALUES];
		d = values[(i + 3) % NVALUES];
		e = values[(i + 5) % NVALUES];
		f = values[(i + 7) % NVALUES];
		r = (uint64_t)num_sized((long)a, (long)b, (long)c, (long)d,
					(long)e, (long)f);
		printf("num_sized(%d, %u, %d, %u, %d, %u) = %d\n",
		       (signed char)a, (unsigned char)b, (short)c,
		       (unsigned short)d, (int)e, (unsigned)f, (int)r);
		r = (uint64_t)num_wide((long)a, (long)b, (long)c);
		printf("num_wide(%lld, %llu, %ld) = %lld\n", (long long)a,
		       (unsigned long long)b, (long)c, (long long)r);
		r = (uint64_t)num_pointers((long)a, (long)b, (long)c);
		printf("num_pointers(%s, %s, %s) = %s\n", hex(b1, a, "NULL"),
		       hex(b2, b, "NULL"), hex(b3, c, "NULL"),
		       hex(b4, r, "NULL"));
		r = (uint64_t)num_raw((long)a, (long)b, (long)c);
		printf("num_raw(%s, %s, %s) = %s\n", hex(b1, a, "0"),
		       hex(b2, b, "0"), hex(b3, c, "0"), hex(b4, r, "0"));
		num_void((long)a);
		printf("num_void(%d) = <void>\n", (int)a);
		r = (uint64_t)num_mixed((long)a, "str", (long)b);
		printf("num_mixed(%ld, \"str\", %lu) = %lu\n", (long)a,
		       (unsigned long)b, (unsigned long)r);
	}
	return 0;
}
