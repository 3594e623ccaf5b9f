/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * longnames.c: a library whose soname has 70 characters (a short name of
 * 67) and whose functions have names of 70, two alike in their first 63
 * bytes, for tests/select.bats.
 */
#include "longnames.h"

int a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_one(int x)
{
	return x + 1;
}

int a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_two(int x)
{
	return x + 2;
}

int short_one(int x)
{
	return x + 3;
}
