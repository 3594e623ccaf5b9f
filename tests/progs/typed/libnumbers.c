/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libnumbers.c: functions whose registers hold numbers at their limits,
 * for tests/typed.bats; numbers.yaml gives them narrower types than
 * these, so the registers also hold bits the printed value must drop.
 */
#include "libnumbers.h"

long num_sized(long a, long b, long c, long d, long e, long f)
{
	return a ^ b ^ c ^ d ^ e ^ f;
}

long num_wide(long a, long b, long c)
{
	return a + b + c;
}

long num_pointers(long a, long b, long c)
{
	return a | b | c;
}

long num_raw(long a, long b, long c)
{
	return a - b - c;
}

void num_void(long a)
{
	(void)a;
}

long num_mixed(long a, const char *s, long b)
{
	return a + b + (s ? 1 : 0);
}

int num_str(const char *s)
{
	int n = 0;

	while (s && *s++)
		n++;
	return n;
}
