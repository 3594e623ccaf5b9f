/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * typed.c: call every function of libtyped once with known values, and
 * print what each returned, so that a traced run can be compared with an
 * untraced one; "typed wait" calls only the one that blocks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libtyped.h"

static int twice(int v)
{
	return 2 * v;
}

int main(int argc, char **argv)
{
	char buf[64] = "";
	int out = 0;

	/* "typed wait": only calls that block, with hidden and shown arguments. */
	if (argc > 1 && strcmp(argv[1], "wait") == 0) {
		int ret = ty_wait_out(5, &out, 0);

		printf("%d %d\n", ret, out);
		ret = ty_wait_out(5, &out, 1);
		printf("%d %d\n", ret, out);
		return 0;
	}

	printf("%d %d %d\n", ty_string("tab\there \"q\" \\ nl\n\001"),
	       ty_string(NULL), ty_string((const char *)16));
	printf("%d\n", ty_string("0123456789012345678901234567890123456789"));
	printf("%g\n", ty_floats(1.5, 0.25f, 3));
	printf("%Lg\n", ty_ldouble(1.25L));
	printf("%d %d\n", ty_out_int(&out), out);
	printf("%zd %s", ty_fill(buf, sizeof(buf)), buf);
	printf("%zd %s", ty_fill_nested(buf, sizeof(buf)), buf);
	printf("%d\n", ty_flags(0x41 | 0x400));
	printf("%d\n", ty_flags(0));
	printf("%d %d\n", ty_fail(ENOENT), errno);
	printf("%d\n", ty_errnum(EAGAIN));
	printf("%d\n", ty_many(1, 2, 3, 4, 5, 6, 7, "eight"));
	printf("%g\n", ty_many_doubles(1, 2, 3, 4, 5, 6, 7, 8, 9.5));
	printf("%d\n", ty_callback(twice, 21));
	printf("%d %c\n", ty_bool(true), ty_char('a'));
	printf("%d\n", ty_small(-1, 65535, 1ull << 40));
	printf("%s\n", ty_name(1) ? "name" : "null");
	printf("%d\n", ty_name(0) == NULL);
	printf("%d\n", ty_print("%d|%s|%5.2f|%c|%lu|%x|%p|%%|%s|%*d\n", -42,
				"str", 3.14159, 'z', 10ul, 255u, (void *)0,
				(char *)NULL, 4, 7));
	return 0;
}
