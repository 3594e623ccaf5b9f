/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock-test.c: TAP unit tests of the inline tick conversions
 * (bin/util/clock.h): clock_ticks_to_ns() and clock_realtime_ns() multiply
 * by the rate's reciprocal, and must print the very ns the division by the
 * rate gives (clock_*_divided()), whatever the rate and the span: spans of
 * every size, spans whose quotient lies a hair from a whole ns (where a
 * product alone truncates the other way: the test counts such spans, so it
 * shows it reaches them), times before the anchor, rates no product can
 * stand for, and the rate before it is known.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bin/util/clock.h"
#include "tests/unit/tap.h"


/* A xorshift generator: the same spans on every run. */
static uint64_t next_random(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;

	return tap_xorshift(&x);
}

/* Do both conversions of span (forward and, as a time, both ways from the anchor) agree with the division's? */
static bool agrees(uint64_t span)
{
	const uint64_t tsc0 = clock_conv.tsc0;

	return clock_ticks_to_ns(span) == clock_ticks_to_ns_divided(span) &&
	       clock_realtime_ns(tsc0 + span) == clock_realtime_ns_divided(tsc0 + span) &&
	       clock_realtime_ns(tsc0 - span) == clock_realtime_ns_divided(tsc0 - span);
}

/* Check n spans at rate: random ones of every size and ones whose quotient is a hair from a whole ns. */
static void check_rate(double rate, unsigned n, unsigned *product_wrong)
{
	char what[160];
	unsigned i, wrong = 0;

	clock_set(1ull << 62, 1795897708920950527ull, rate);
	for (i = 0; i < n; i++) {
		uint64_t span = next_random() >> (next_random() % 64);
		/* A whole ns k, back in ticks, give or take a tick. */
		double k = (double)(next_random() >> (12 + next_random() % 40));
		uint64_t near = (uint64_t)llround(k * rate) + next_random() % 3 - 1;
		double quotient = (double)near / rate;

		*product_wrong += (uint64_t)((double)near * (1 / rate)) != (uint64_t)quotient;
		if (!agrees(span) || !agrees(near) || !agrees(near >> 20)) {
			wrong++;
			if (wrong == 1)
				fprintf(stderr, "# rate %.17g: span %llu or %llu differs\n", rate,
					(unsigned long long)span, (unsigned long long)near);
		}
	}
	snprintf(what, sizeof(what),
		 "rate %.17g ticks a ns: %u spans, each converted as the division converts it", rate, 3 * n);
	tap(wrong == 0, what);
}

int main(void)
{
	static const double rates[] = { 2.0, 2.899999123, 3.1234567891234, 1.0 / 3, 0.999999999, 2.4e-3, 1e3 };
	unsigned i, product_wrong = 0;
	uint64_t before;

	printf("1..%zu\n", sizeof(rates) / sizeof(rates[0]) + 3);

	/* Before the rate is measured, the conversion measures it (as it always did). */
	clock_start();
	before = clock_conv.tsc0;
	tap(clock_conv.ns_per_tick == 0 && clock_ticks_to_ns(1000) > 0 && clock_conv.ns_per_tick > 0 &&
		    clock_conv.tsc0 == before,
	    "the first conversion before a rate is known measures it, then multiplies");

	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		check_rate(rates[i], 300000, &product_wrong);
	tap(product_wrong > 0, "some spans truncate otherwise by the product alone: the checks above reached them");

	/* A damaged file's rates: no product stands for them (the division converts, as it did). */
	clock_set(0, 0, 0);
	product_wrong = clock_conv.ns_per_tick != 0;
	clock_set(0, 0, -2.5);
	product_wrong += clock_conv.ns_per_tick != 0;
	clock_set(0, 0, 1e-305);
	product_wrong += clock_conv.ns_per_tick != 0;
	tap(product_wrong == 0, "rates of 0, below 0 and too small to invert have no reciprocal to multiply by");
	return tap_failures ? 1 : 0;
}
