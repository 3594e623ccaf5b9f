/* SPDX-License-Identifier: GPL-2.0-or-later */
/* alloc.c: millions of calls to libc's malloc, strlen, memcpy and free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const char *const src[] = { "", "a", "hello", "tracing libc",
					   "a somewhat longer string to copy" };
	long loops = argc > 1 ? atol(argv[1]) : 2000000, i;
	unsigned long sum = 0;

	for (i = 0; i < loops; i++) {
		const char *s = src[i % 5];
		size_t n = strlen(s);
		char *p = malloc(n + 1);

		if (!p)
			return 1;
		memcpy(p, s, n + 1);
		sum += n + (unsigned char)p[n / 2];
		free(p);
	}
	printf("loops: %ld, checksum: %lu\n", loops, sum);
	return 0;
}
