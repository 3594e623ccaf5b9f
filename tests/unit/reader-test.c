/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader-test.c: TAP unit tests of the merge of thread rings
 * (bin/events/reader.c) for what a real run does only now and then under load:
 * a thread publishes an event just after ltruss read its ring's head, and
 * another thread, whose head ltruss reads next, publishes a later event
 * that depends on it (a block handed over and freed); and records with
 * a short header and fewer fixed words (struct ltr_rec, lib/session.h),
 * which the reader hands on in the whole layout.  The rings, the clock and the session's checks are
 * the stubs below.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/util/clock.h"
#include "bin/util/error.h"
#include "bin/events/reader.h"
#include "bin/session/session-check.h"
#include "bin/session/session-slots.h"
#include "tests/unit/tap.h"

#define RING 4096
#define EVENT_SIZE (sizeof(struct ltr_rec) + 8 * LTR_ENTER_WORDS) /* in a ring */
#define GROWTH (sizeof(struct ltr_event) - sizeof(struct ltr_rec))


/* ---- stubs: two thread slots, a clock that says what the test says ------ */

static struct {
	struct ltr_thread slot;
	unsigned char ring[RING];
} slots[2];
static uint64_t now;			/* clock_tsc() */
static void (*on_second_head)(void);	/* runs as slot 1's head is read */

/* Write an ENTER event stamped ts into slot i's ring, unpublished. */
static void write_event(uint32_t i, uint64_t ts)
{
	struct ltr_rec *e =
		(void *)&slots[i].ring[slots[i].slot.ring.head % RING];

	memset(e, 0, EVENT_SIZE);
	e->size = EVENT_SIZE;
	e->kind = LTR_EV_ENTER;
	e->ts = ts;
}

/* Publish one event of slot i (write_event()'s). */
static void publish(uint32_t i)
{
	slots[i].slot.ring.head += EVENT_SIZE;
}

struct ltr_thread *session_slot(const struct ltr_session *s, uint32_t i)
{
	(void)s;
	if (i == 1 && on_second_head) {
		void (*run)(void) = on_second_head;

		on_second_head = NULL;
		run();
	}
	return i < 2 ? &slots[i].slot : NULL;
}

const unsigned char *session_ring(const struct ltr_session *s, uint32_t i)
{
	(void)s;
	return i < 2 ? slots[i].ring : NULL;
}

uint32_t session_threads_used(const struct ltr_session *s)
{
	(void)s;
	return 2;
}

bool check_ring_span(uint64_t tail, uint64_t head, uint32_t ring_size)
{
	return head >= tail && head - tail <= ring_size;
}

bool check_event_full(const struct ltr_event *ev)
{
	(void)ev;
	return true;
}

uint64_t clock_tsc(void)
{
	return now;
}

double clock_rate_now(void)
{
	return 1.0; /* a tick a nanosecond: a second is 1e9 ticks */
}

bool check_tid(long long tid)
{
	return tid > 0;
}

bool check_dropped(uint64_t dropped, uint64_t run_ticks)
{
	return dropped <= run_ticks;
}

void clock_anchor(uint64_t *tsc, uint64_t *real)
{
	*tsc = 0;
	*real = 0;
}

/* No reciprocal: every conversion is the "division", a tick a ns. */
struct clock_conv clock_conv;

uint64_t clock_ticks_to_ns_divided(uint64_t ticks)
{
	return ticks;
}

void warning_msg(const char *format, ...)
{
	(void)format;
}

/* xmalloc's end (the reader's copies are allocated). */
void error_msg_and_die(const char *format, ...)
{
	(void)format;
	abort();
}

/* ---- what the reader hands on ------------------------------------------- */

static uint64_t seen_ts[8];
static uint32_t seen_slot[8];
static unsigned nseen;

static unsigned char last[512]; /* the last event handed on, whole */

static void sink(const struct event_rec *r)
{
	if (r->ev->size <= sizeof(last))
		memcpy(last, r->ev, r->ev->size);
	if (nseen < 8) {
		seen_ts[nseen] = r->ev->ts;
		seen_slot[nseen] = r->slot;
	}
	nseen++;
}

/* Nothing seen yet, the clock at t (the rings go on where they were). */
static void reset(uint64_t t)
{
	nseen = 0;
	now = t;
}

/*
 * Slot 0 stamps an event at 900 and publishes it just after ltruss read
 * its head; slot 1, which saw it, stamps one at 1100 and publishes it
 * before ltruss reads slot 1's head.
 */
static void race(void)
{
	write_event(0, 900);
	publish(0);
	write_event(1, 1100);
	publish(1);
	now = 2000;
}

/*
 * Write into slot 0 an event of type as the interposer packs it: words
 * fixed words (an ENTER's last is its return address), then (blob) a
 * blob of 8 bytes; publish it.  Returns its size in the ring.
 */
static size_t write_rec(uint8_t type, unsigned words, uint64_t ts, bool blob)
{
	struct ltr_rec *e =
		(void *)&slots[0].ring[slots[0].slot.ring.head % RING];
	size_t size = sizeof(*e) + 8 * (size_t)words + 8 * blob;
	unsigned k;

	memset(e, 0xee, size); /* what is not written must not show */
	e->size = (uint16_t)size;
	e->kind = (uint8_t)(type | words << 4);
	e->flags = 0x80;
	e->depth = 0x1234;
	e->fn = 0x4321;
	e->ts = ts;
	for (k = 0; k < words; k++)
		e->w[k] = 0x100 + k;
	if (blob)
		memcpy(&e->w[words], "blobdata", 8);
	slots[0].slot.ring.head += size;
	return size;
}

/* write_rec() with a blob. */
static size_t write_packed(uint8_t type, unsigned words, uint64_t ts)
{
	return write_rec(type, words, ts, true);
}

/* The whole layout of the last plain record the plain sink took (event_plain_word()). */
static uint64_t plain_words[3 + LTR_ENTER_WORDS];
static unsigned nplain;

static void plain_sink(const struct event_rec *r, const struct event_plain *p)
{
	unsigned i;

	(void)r;
	for (i = 0; i < 3 + p->full && i < 3 + LTR_ENTER_WORDS; i++)
		plain_words[i] = event_plain_word(p, p->full, p->words, i);
	nplain++;
}

/*
 * With a plain sink (-w), an ENTER, a CALL or an EXIT without blobs,
 * packed with each count of words, goes to it as the ring holds it, and
 * its words there are those of the whole layout the sink gets without
 * it; one with a blob still comes whole.
 */
static void plain(struct ltr_session *s)
{
	static const uint8_t types[] = { LTR_EV_ENTER, LTR_EV_CALL, LTR_EV_EXIT };
	unsigned t, words, full, bad = 0;

	for (t = 0; t < sizeof(types); t++) {
		full = types[t] == LTR_EV_EXIT ? LTR_EXIT_WORDS : LTR_ENTER_WORDS;
		for (words = 1; words <= full; words++) {
			reader_plain(plain_sink);
			reset(9000);
			nplain = 0;
			write_rec(types[t], words, 8000, false);
			reader_drain(s);
			bad += nplain != 1 || nseen != 0;
			reader_plain(NULL);
			reset(9000);
			write_rec(types[t], words, 8000, false);
			reader_drain(s);
			bad += nseen != 1 ||
			       memcmp(last, plain_words, 24 + 8 * full) != 0;
		}
		reader_plain(plain_sink);
		reset(9000);
		nplain = 0;
		write_packed(types[t], 1, 8000);
		reader_drain(s);
		bad += nplain != 0 || nseen != 1;
	}
	reader_plain(NULL);
	tap(!bad, "a plain sink takes each plain record as the ring holds it, its words those of the whole layout; one with a blob comes whole");
}

/* An event packed with fewer fixed words comes out in the whole layout. */
static void packed(struct ltr_session *s)
{
	const struct ltr_event *ev = (const void *)last;
	size_t size;
	unsigned k;
	bool ok;

	/* A whole event first: the reader's copy then holds no zeros. */
	reset(5000);
	write_packed(LTR_EV_ENTER, LTR_ENTER_WORDS, 3000);
	size = write_packed(LTR_EV_ENTER, 4, 4000);
	reader_drain(s);
	ok = nseen == 2 && ev->type == LTR_EV_ENTER && ev->words == 0 &&
	     ev->size == size + GROWTH + 8 * (LTR_ENTER_WORDS - 4) &&
	     ev->flags == 0x80 && ev->depth == 0x1234 && ev->fn == 0x4321 &&
	     ev->reserved2 == 0 && ev->ts == 4000;
	for (k = 0; ok && k < 3; k++)
		ok = ev->w[k] == 0x100 + k;
	for (k = 3; ok && k < LTR_ENTER_WORDS - 1; k++)
		ok = ev->w[k] == 0;
	ok = ok && ev->w[LTR_ENTER_WORDS - 1] == 0x103 &&
	     !memcmp(&ev->w[LTR_ENTER_WORDS], "blobdata", 8);
	tap(ok, "a packed ENTER: the whole header, its arguments, 0 for the registers left out, the return address last, the blob after");

	reset(6000);
	size = write_packed(LTR_EV_EXIT, 1, 5000);
	reader_drain(s);
	ok = nseen == 1 && ev->type == LTR_EV_EXIT && ev->words == 0 &&
	     ev->size == size + GROWTH + 8 * (LTR_EXIT_WORDS - 1) &&
	     ev->w[0] == 0x100 && ev->fn == 0x4321 && ev->ts == 5000;
	for (k = 1; ok && k < LTR_EXIT_WORDS; k++)
		ok = ev->w[k] == 0;
	ok = ok && !memcmp(&ev->w[LTR_EXIT_WORDS], "blobdata", 8);
	tap(ok, "a packed EXIT: %rax, 0 for the words left out, the blob after");
}

/*
 * Every count of words an ENTER or EXIT may be packed with comes out
 * whole: each word written, 0 for the others, the return address last
 * (an ENTER's), the blob after.
 */
static void packed_every_count(struct ltr_session *s)
{
	static const uint8_t types[] = { LTR_EV_ENTER, LTR_EV_CALL, LTR_EV_EXIT };
	const struct ltr_event *ev = (const void *)last;
	unsigned t, words, full, k, bad = 0;
	uint64_t want;

	for (t = 0; t < sizeof(types); t++) {
		full = types[t] == LTR_EV_EXIT ? LTR_EXIT_WORDS : LTR_ENTER_WORDS;
		for (words = 1; words < full; words++) {
			reset(9000);
			write_packed(types[t], words, 8000);
			reader_drain(s);
			if (nseen != 1 || ev->type != types[t] || ev->ts != 8000 ||
			    ev->size != sizeof(struct ltr_rec) + 8 * full + 8 + GROWTH) {
				bad++;
				continue;
			}
			for (k = 0; k < full; k++) {
				want = k < words ? 0x100 + k : 0;
				/* An ENTER's last word written is its return address. */
				if (full == LTR_ENTER_WORDS && k == full - 1)
					want = 0x100 + words - 1;
				else if (full == LTR_ENTER_WORDS && k == words - 1)
					want = 0;
				bad += ev->w[k] != want;
			}
			bad += memcmp(&ev->w[full], "blobdata", 8) != 0;
		}
	}
	tap(!bad, "an ENTER, a CALL and an EXIT packed with each count of words come out whole");
}

/*
 * Write into slot 0 a record of kind (a type, words 0: all its fixed
 * words), size bytes in the ring, and publish it.
 */
static void write_record(uint8_t kind, uint16_t size, uint64_t ts)
{
	struct ltr_rec *e =
		(void *)&slots[0].ring[slots[0].slot.ring.head % RING];

	memset(e, 0, size);
	e->size = size;
	e->kind = kind;
	e->ts = ts;
	slots[0].slot.ring.head += size;
}

/*
 * A record shorter than its type's smallest size, or of a type no ring
 * carries, is not handed on (the reader looks both up in a table made
 * from session-check.h's sizes: each entry counts).
 */
static void too_short(struct ltr_session *s)
{
	static const uint8_t types[] = { LTR_EV_ENTER, LTR_EV_CALL, LTR_EV_EXIT,
					 LTR_EV_THREAD, LTR_EV_GUEST,
					 LTR_EV_UNTRACED };
	unsigned t, bad = 0;

	for (t = 0; t < sizeof(types); t++) {
		/* In the whole layout: a ring's record is GROWTH bytes less. */
		uint16_t min = (uint16_t)(check_event_min_size(types[t]) - GROWTH);

		reset(12000);
		write_record(types[t], (uint16_t)(min - 8), 11000);
		reader_drain(s);
		bad += nseen != 0;
		reset(12000);
		write_record(types[t], min, 11000);
		reader_drain(s);
		bad += nseen != 1;
	}
	reset(12000);
	write_record(13, 64, 11000);
	reader_drain(s);
	bad += nseen != 0;
	reset(12000);
	write_record(0, 64, 11000);
	reader_drain(s);
	bad += nseen != 0;
	tap(!bad, "a record shorter than its type's smallest, or of no type a ring carries, is not handed on");
}

int main(void)
{
	static char session_stub;
	struct ltr_session *s = (struct ltr_session *)&session_stub;
	size_t n;

	reader_init(RING, sink);
	reset(1000);
	on_second_head = race;
	n = reader_drain(s);
	tap(n == 2 && nseen == 2, "both events of the race are read in one drain");
	tap(seen_slot[0] == 0 && seen_ts[0] == 900 && seen_slot[1] == 1 &&
		    seen_ts[1] == 1100,
	    "the event published late comes before the later one that followed it");

	reset(1000);
	write_event(0, 1000 + 10 * 1000000000ull);
	publish(0);
	n = reader_drain(s);
	tap(n == 1 && nseen == 1,
	    "a stamp seconds past the clock (forged, or no TSC) does not hold its ring");

	reset(1000 + 20 * 1000000000ull);
	write_event(0, 1000 + 12 * 1000000000ull);
	publish(0);
	write_event(1, 1000 + 11 * 1000000000ull);
	publish(1);
	n = reader_drain(s);
	tap(n == 2 && seen_slot[0] == 1 && seen_slot[1] == 0,
	    "published events are read in the order of their stamps");

	packed(s);
	packed_every_count(s);
	plain(s);
	too_short(s);

	printf("1..%u\n", tap_tests);
	return tap_failures ? 1 : 0;
}
