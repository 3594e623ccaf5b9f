/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * merge-test.c: TAP unit tests of merge.h: the heap that merges the lines
 * of many rings (trace-rounds.c) must put events in the order the rule
 * itself gives (merge_start()/merge_offer() over every stream at each
 * pick, as the live reader and --read merge), run by run: on streams of
 * one to 40, times drawn from ranges so small that most events tie with
 * other streams', from ranges where runs are long, and with empty
 * streams among them.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bin/events/merge.h"
#include "tests/unit/tap.h"

#define STREAMS_MAX 40
#define EVENTS_MAX 200


/* A xorshift generator: the same streams on every run. */
static uint32_t next_random(void)
{
	static uint64_t x = 0x2545f4914f6cdd1dull;

	return (uint32_t)(tap_xorshift(&x) >> 16);
}

static uint64_t ts[STREAMS_MAX][EVENTS_MAX];
static uint32_t len[STREAMS_MAX];

/* The picks of the rule over n streams, as (stream << 16 | event) a run's events each; their count. */
static size_t by_rule(uint32_t n, uint32_t *out)
{
	size_t next[STREAMS_MAX] = { 0 }, got = 0;

	for (;;) {
		struct merge m = merge_start();
		uint32_t i;

		for (i = 0; i < n; i++)
			if (next[i] < len[i])
				merge_offer(&m, i, ts[i][next[i]]);
		if (m.b == MERGE_NONE)
			return got;
		i = m.b;
		while (next[i] < len[i] && ts[i][next[i]] <= m.next_other)
			out[got++] = i << 16 | (uint32_t)next[i]++;
	}
}

/* The same by the heap, as trace-rounds.c's lines_merge() runs it. */
static size_t by_heap(uint32_t n, uint32_t *out)
{
	struct merge_head heap[STREAMS_MAX];
	size_t next[STREAMS_MAX] = { 0 }, got = 0;
	uint32_t i, h = 0;

	for (i = 0; i < n; i++)
		if (len[i])
			heap[h++] = (struct merge_head){ ts[i][0], i };
	merge_heapify(heap, h);
	while (h) {
		uint64_t other = merge_next_other(heap, h);

		i = heap[0].i;
		do
			out[got++] = i << 16 | (uint32_t)next[i]++;
		while (next[i] < len[i] && ts[i][next[i]] <= other);
		merge_ran(heap, &h, next[i] < len[i], next[i] < len[i] ? ts[i][next[i]] : 0);
	}
	return got;
}

/* Make n streams of times up to span apart (sorted; some empty), merge them both ways: the same order? */
static bool same_order(uint32_t n, uint32_t span)
{
	static uint32_t a[STREAMS_MAX * EVENTS_MAX], b[STREAMS_MAX * EVENTS_MAX];
	uint32_t i, j;
	size_t na, nb;

	for (i = 0; i < n; i++) {
		uint64_t t = next_random() % span;

		len[i] = next_random() % 5 == 0 ? 0 : 1 + next_random() % EVENTS_MAX;
		for (j = 0; j < len[i]; j++) {
			t += next_random() % span;
			ts[i][j] = t;
		}
	}
	na = by_rule(n, a);
	nb = by_heap(n, b);
	return na == nb && memcmp(a, b, na * sizeof(a[0])) == 0;
}

int main(void)
{
	static const uint32_t spans[] = { 1, 2, 3, 10, 1000 };
	unsigned s, round;

	printf("1..%zu\n", sizeof(spans) / sizeof(spans[0]));
	for (s = 0; s < sizeof(spans) / sizeof(spans[0]); s++) {
		char what[128];
		bool ok = true;

		for (round = 0; round < 400 && ok; round++)
			ok = same_order(1 + next_random() % STREAMS_MAX, spans[s]);
		snprintf(what, sizeof(what),
			 "the heap picks as the rule does: 400 merges of 1 to %d streams, steps of 0 to %u",
			 STREAMS_MAX, spans[s] - 1);
		tap(ok, what);
	}
	return tap_failures ? 1 : 0;
}
