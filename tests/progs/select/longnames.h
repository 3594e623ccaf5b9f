/* SPDX-License-Identifier: GPL-2.0-or-later */
/* longnames.h: functions of 70-character names, past the 63 bytes the interposer once kept. */
#ifndef LONGNAMES_H
#define LONGNAMES_H

int a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_one(int x);
int a_function_named_by_seventy_characters_to_run_past_the_63_byte_cut_two(int x);
int short_one(int x);

#endif
