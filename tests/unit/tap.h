/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h: the C unit tests' TAP results, and their random numbers, the same on every run. */
#ifndef LTRUSS_TESTS_UNIT_TAP_H
#define LTRUSS_TESTS_UNIT_TAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Results printed so far, and how many said "not ok" (the exit status). */
static unsigned tap_tests, tap_failures;

/* Print one TAP result. */
static inline void tap(bool ok, const char *what)
{
	printf("%s %u - %s\n", ok ? "ok" : "not ok", ++tap_tests, what);
	tap_failures += !ok;
}

/* The next number of the xorshift64 sequence in *state (not 0). */
static inline uint64_t tap_xorshift(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

#endif
