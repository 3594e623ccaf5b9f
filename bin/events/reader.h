/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reader.h: drain the event rings of the session. */
#ifndef LTRUSS_READER_H
#define LTRUSS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/session.h"
#include "trace.h"

/*
 * Read the rings at ring_area, each size bytes (ltruss's own numbers),
 * and pass their events on to sink: trace_event(), or the trace file.
 */
void reader_init(uint32_t size,
		 void (*sink)(const struct event_rec *r));

/*
 * A plain ENTER, CALL or EXIT (its fixed words, no blob: nearly every
 * event) as its ring holds it, handed to the plain sink (reader_plain())
 * instead of being unpacked into the whole layout (struct ltr_event): a
 * sink that only re-encodes it (-w), or takes only its words (a live
 * trace: trace_plain()), saves the copy.  Word i of the whole
 * layout, the header's three included, is event_plain_word(p, i); the
 * record is whole and checked (check_event() would pass its whole layout
 * at once).
 */
struct event_plain {
	uint64_t head;     /* the ring header's first word (struct ltr_rec) */
	uint64_t ts;
	const uint64_t *w; /* its words in the ring: read each once (the program may write them) */
	unsigned type;     /* LTR_EV_ENTER, LTR_EV_CALL or LTR_EV_EXIT */
	unsigned words;    /* how many the ring holds, 1 to full */
	unsigned full;     /* of the whole layout: LTR_ENTER_WORDS or LTR_EXIT_WORDS */
};

/*
 * Word i of the whole layout of p (unpack() in reader.c lays it out), of
 * full fixed words (p->full) of which the ring holds words (p->words):
 * the header's size (whole), type, flags and depth, then fn, then the
 * stamp; then the fixed words, an ENTER's last written (its return
 * address) at the end, 0 for those the ring left out.  Constant full,
 * words and i fold it away.
 */
static inline __attribute__((always_inline)) uint64_t
event_plain_word(const struct event_plain *p, unsigned full, unsigned words,
		 unsigned i)
{
	unsigned k = i - 3;

	if (i == 0)
		return (p->head & 0x0000ffffff0f0000ull) |
		       (sizeof(struct ltr_event) + 8 * (uint64_t)full);
	if (i == 1)
		return p->head >> 48;
	if (i == 2)
		return p->ts;
	if (k < words - (full == LTR_ENTER_WORDS))
		return p->w[k];
	if (full == LTR_ENTER_WORDS && k == LTR_ENTER_WORDS - 1)
		return p->w[words - 1];
	return 0;
}

/*
 * The whole layout of p at u (3 + p->full words: the header's three and
 * the fixed words), for a sink that takes plain records but hands the
 * odd one on whole.
 */
static inline void event_plain_whole(uint64_t *u, const struct event_plain *p)
{
	unsigned i;

	for (i = 0; i < 3 + p->full; i++)
		u[i] = event_plain_word(p, p->full, p->words, i);
}

/*
 * Copy n bytes, 8 <= n <= 64 and a multiple of 8, in two stores of 8, 16
 * or 32 bytes that may overlap: a memcpy() of a size only known at run
 * time becomes `rep movsq', whose start-up took two fifths of the
 * reader's cycles (perf, -w on the loop): an event's fixed words are 8
 * to 56 bytes.  Nothing outside the n bytes is read or written.
 */
static inline void event_copy_words(void *to, const void *from, size_t n)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	if (n >= 32) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else if (n >= 16) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else {
		memcpy(d, s, 8);
	}
}

/* Hand the plain events to plain (NULL: none; every event to the sink, whole). */
void reader_plain(void (*plain)(const struct event_rec *r,
				const struct event_plain *p));

/*
 * What drains rings on one thread: the sinks the events go to, a buffer
 * of its own for the whole events copied out (peek() in reader.c), and
 * whether an event waits for the next round.  The merge has one
 * (reader_init(), reader_plain()); each thread that drains rings apart
 * (reader_drain_ring()) another, zeroed, its sinks set.
 */
struct drainer {
	void (*sink)(const struct event_rec *r);
	void (*plain)(const struct event_rec *r, const struct event_plain *p);
	struct ltr_event *copy_buf;
	size_t copy_size;
	bool deferred;
};

/* Free d's buffer. */
void reader_drainer_free(struct drainer *d);

/*
 * Drain the rings apart instead of merging them (-w: --read merges them):
 * each round, once every ring's head is read, round(s, n, deferred) is
 * called with the rings' count; it drains each ring that has events
 * (reader_ring_pending()) with reader_drain_ring(), on any thread but one
 * thread a ring, sets *deferred if an event waits for the next round, and
 * returns how many events it drained.
 */
void reader_streams(size_t (*round)(struct ltr_session *s, uint32_t n,
				    bool *deferred));

/*
 * A round that may take the merge's place on a live trace (the trace's
 * lines formatted on several threads: trace-rounds.c): called as
 * reader_streams()'s round, once the heads are read, it either drains
 * the rings itself (reader_drain_ring()), giving the lines the merge
 * would have given, and returns how many events it took, or returns
 * READER_DECLINED having taken none, and the merge runs.
 */
#define READER_DECLINED SIZE_MAX
void reader_parallel(size_t (*round)(struct ltr_session *s, uint32_t n,
				     bool *deferred));

/* Bytes ring i holds this round, not taken yet. */
uint64_t reader_ring_bytes(uint32_t i);

/* Gather n drainers' deferred flags into *deferred, and clear theirs (the end of a round of rings drained apart). */
void reader_drainers_deferred(struct drainer *d, unsigned n, bool *deferred);

/* Say once a run that ring i held a corrupt record, and what is done about it (what). */
void reader_corrupt(const struct ltr_session *s, uint32_t i, const char *what);

/*
 * Is each record ring i holds this round, from its header alone, of a
 * type ok[fn] has a bit for (1 << type; ok: 65536 bytes, one a function
 * number a header may hold), or one that ask(type, fn) accepts (it may
 * set that bit; NULL: none is)?  None is taken; false at the first refused, or at a
 * header that does not make sense (the drain then says what is wrong
 * with it).  What the ring holds past the round's clock is asked too.
 */
bool reader_ring_scan(uint32_t i, const unsigned char *ok,
		      bool (*ask)(unsigned type, uint32_t fn));

/* Does ring i hold events this round (reader_streams())? */
bool reader_ring_pending(uint32_t i);

/*
 * Pass the events of ring i this round holds to d's sinks, in its order,
 * checked as the merge checks them, handing the space back as it goes;
 * returns how many.  Rings may drain at once on several threads, each
 * with its own drainer (d->deferred set if an event waits).
 */
size_t reader_drain_ring(struct ltr_session *s, uint32_t i, struct drainer *d);

/* Pass every event published so far to the sink, oldest first; returns how many. */
size_t reader_drain(struct ltr_session *s);

/* How long launch_wait() may leave the rings alone between passes. */
uint64_t reader_pace_ns(void);

/* Has every event of slot i published so far been passed on? */
bool reader_drained(const struct ltr_session *s, uint32_t i);

/* Events dropped with --drop, over all threads; counts no thread can have dropped (forged) left out, with a warning. */
unsigned long long reader_dropped(const struct ltr_session *s);

/*
 * LTRUSS_DEBUG_RINGS: each ring's bytes written, the times its thread
 * found it full and waited, its sleeps, and the fewest bytes free it
 * went on with after a stop, on stderr (the tests and the benchmark).
 */
void reader_debug_rings(const struct ltr_session *s);

#endif
