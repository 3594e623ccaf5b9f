/* SPDX-License-Identifier: GPL-2.0-or-later */
/* longnames-main.c: calls each function of the long-named library once, and prints their sum. */
#include <stdio.h>

#include "longnames.h"

int main(void)
{
	int sum = a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_one(1) +
		  a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_two(2) +
		  short_one(3);

	printf("%d\n", sum);
	return 0;
}
