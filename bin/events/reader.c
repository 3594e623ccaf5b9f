/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reader.c: drain the per-thread event rings (lib/session.h), in time order.
 *
 * Each round takes every ring's head once, then merges the threads by
 * timestamp: the thread with the oldest next event runs until another
 * thread has an older one.  Within a thread the order is exact; across
 * threads it is by timestamp among the events published so far.  Consumed
 * space is handed back (tail) every BATCH events, so a traced thread
 * waiting for room does not wait for a whole round.
 *
 * A round reads the heads one after another, so it may see thread B's
 * newest events and not those thread A published a moment before them:
 * A's malloc returning a block that B then frees came after B's free
 * (--heap counted the free unknown and the block leaked, under load).  An
 * event published before the round's clock reading was stamped before it,
 * and whatever happened before that event was published before it, so a
 * round takes only the events stamped before the clock it read first
 * (the cut); a later one waits for the next round, which follows at once.
 * A stamp more than a second past the cut was not the TSC (forged, or a
 * counter of its own after rdtsc faulted): it is taken as it comes, or it
 * would hold its ring, and the program, for ever.
 *
 * Each event is copied out of its ring into the whole layout (struct
 * ltr_event) for the sink, but for a plain sink (struct drainer's plain:
 * -w) a plain entry or exit, nearly every event, is handed on where it
 * is: re-encoding it is all that sink does, and the copy was half its
 * work.
 *
 * Under -w the rings are not merged here (reader_streams()): each round,
 * once the heads are read, the sink drains each ring apart
 * (reader_drain_ring()), on as many threads as it likes, each with a
 * drainer of its own; --read merges them.
 */
#include "config.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "error.h"
#include "merge.h"
#include "reader.h"
#include "session-check.h"
#include "session-slots.h"
#include "trace.h"
#include "xmalloc.h"

#define BATCH 256
#define PREFETCH 256 /* bytes ahead of the event read (peek) */

/* The longest event a ring may hold: the fixed words and the longest payload. */
#define EVENT_MAX \
	(sizeof(struct ltr_event) + 8 * (LTR_ENTER_WORDS + LTR_PAYLOAD_MAX / 8 + 1))
#define COPY_MIN 4096 /* bytes of a copy's buffer, at least */

struct cursor {
	uint64_t tail;    /* next byte to read */
	uint64_t size;    /* bytes in the ring of the event copied out last */
	uint64_t head;    /* published end, read once a round */
	uint64_t next_ts; /* the time of the event at tail, if has_next */
	const unsigned char *data; /* the ring, looked up once a round */
	bool known;       /* has_next and next_ts are those of tail */
	bool has_next;
} __attribute__((aligned(64))); /* a line each: rings drained apart write their tails at every event */

static struct cursor cursors[LTR_MAX_THREADS];
static int corrupt_reported; /* atomic: rings may drain on several threads */
static uint32_t ring_size;
/* The merge's drainer (the sinks of reader_init() and reader_plain()). */
static struct drainer merged;
/* A sink that drains each ring apart (reader_streams()), or NULL. */
static size_t (*streams)(struct ltr_session *s, uint32_t n, bool *deferred);
/* A round that may take the merge's place (reader_parallel()), or NULL. */
static size_t (*parallel)(struct ltr_session *s, uint32_t n, bool *deferred);
/*
 * For each byte a record's type may hold: the fixed words of its whole
 * layout when the interposer may pack it (packed_words), and its smallest
 * size (check_event_min_size, 0: no ring carries it).  Looked up once an
 * event, where the two switches took a tenth of the reader's instructions.
 */
static struct {
	uint16_t min_size;
	uint8_t full;
} kinds[256];
/*
 * For each byte a record's kind may hold: the size in the ring of a plain
 * ENTER, CALL or EXIT of that kind (its fixed words, no blob), its words
 * and its type's full count; size 0 for the kinds of no such record.
 * One test then says that a record is plain and well-formed.
 */
static struct {
	uint16_t size;
	uint8_t words, full;
} plains[256];
/* This round's clock reading; a second (set before any ring drains). */
static uint64_t cut, cut_slack;

/* ts was stamped after this round began, by the TSC (see the top). */
static bool stamped_after_cut(uint64_t ts)
{
	return ts > cut && ts - cut <= cut_slack;
}

/*
 * Say once that the ring of slot i held something no interposer writes,
 * naming its thread if the slot's thread id is one (it is forged too).
 */
void reader_corrupt(const struct ltr_session *s, uint32_t i, const char *what)
{
	const struct ltr_thread *slot = session_slot(s, i);
	int tid = slot ? slot->tid : 0;

	if (__atomic_fetch_add(&corrupt_reported, 1, __ATOMIC_RELAXED))
		return;
	if (check_tid(tid))
		warning_msg("a corrupt event in the ring of thread %d; %s (did the program write over its trace session?)",
			    tid, what);
	else
		warning_msg("a corrupt event in the ring of thread slot %u; %s (did the program write over its trace session?)",
			    i, what);
}

/* d's copy_buf, with room for size bytes (its old content lost). */
static struct ltr_event *copy_room(struct drainer *d, size_t size)
{
	if (d->copy_size < size) {
		free(d->copy_buf);
		d->copy_size = size > COPY_MIN ? (size + COPY_MIN - 1) &
							 ~(size_t)(COPY_MIN - 1)
					       : COPY_MIN;
		d->copy_buf = xmalloc(d->copy_size);
	}
	return d->copy_buf;
}

void reader_drainer_free(struct drainer *d)
{
	free(d->copy_buf);
	d->copy_buf = NULL;
	d->copy_size = 0;
}

/*
 * The fixed words of an event of type type in the whole layout, when the
 * interposer writes fewer into a ring (lib/session.h); 0 for the others.
 */
static unsigned packed_words(uint8_t type)
{
	if (type == LTR_EV_ENTER || type == LTR_EV_CALL)
		return LTR_ENTER_WORDS;
	return type == LTR_EV_EXIT ? LTR_EXIT_WORDS : 0;
}

/* Bytes an event grows by from the ring's header to the whole one. */
#define HEADER_GROWTH (sizeof(struct ltr_event) - sizeof(struct ltr_rec))

void reader_init(uint32_t size, void (*to)(const struct event_rec *r))
{
	unsigned t;

	ring_size = size;
	merged.sink = to;
	for (t = 0; t < 256; t++) {
		kinds[t].min_size = (uint16_t)check_event_min_size((uint8_t)t);
		kinds[t].full = (uint8_t)packed_words((uint8_t)t);
	}
	for (t = 0; t < 256; t++) {
		unsigned full = kinds[LTR_REC_TYPE(t)].full,
			 words = LTR_REC_WORDS(t) ? LTR_REC_WORDS(t) : full;

		if (!full || words > full)
			continue;
		plains[t].size = (uint16_t)(sizeof(struct ltr_rec) + 8 * words);
		plains[t].words = (uint8_t)words;
		plains[t].full = (uint8_t)full;
		/* What the checks below ask of its whole layout. */
		if (plains[t].size + HEADER_GROWTH + 8 * (full - words) !=
		    kinds[LTR_REC_TYPE(t)].min_size)
			plains[t].size = 0;
	}
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
		       offsetof(struct ltr_event, type) == 2 &&
		       offsetof(struct ltr_event, flags) == 3 &&
		       offsetof(struct ltr_event, depth) == 4 &&
		       offsetof(struct ltr_event, words) == 6 &&
		       offsetof(struct ltr_event, fn) == 8 &&
		       offsetof(struct ltr_event, reserved2) == 12 &&
		       offsetof(struct ltr_event, ts) == 16 &&
		       offsetof(struct ltr_rec, fn) == 6 &&
		       offsetof(struct ltr_rec, ts) == 8,
	       "unpack's three stores of a header");

/*
 * Copy record p, size bytes in the ring with words of its type's full
 * fixed words (full; 0: a type the interposer never packs), whose header
 * rec was read already, into ev in the whole layout: struct ltr_event's
 * header, an ENTER's return address back in w[6], the registers its
 * call does not print and an EXIT's words after %rax 0, the blobs after
 * them (lib/session.h).  The header comes from rec, not from the ring,
 * which the program may have changed since.
 */
static void unpack(struct ltr_event *ev, const struct ltr_rec *rec,
		   const struct ltr_rec *p, size_t size, unsigned words,
		   unsigned full)
{
	size_t fixed = sizeof(*p) + 8 * (size_t)words;
	uint64_t r, h[3];

	/*
	 * The header in three stores: rec's first word has kind's type,
	 * flags and depth where struct ltr_event has them, and fn in its
	 * top 16 bits; the size, the words (0) and reserved2 (0) change.
	 */
	memcpy(&r, rec, sizeof(r));
	h[0] = (r & 0x0000ffffff0f0000ull) |
	       (size + HEADER_GROWTH + 8 * (size_t)(full - words));
	h[1] = r >> 48;
	h[2] = rec->ts;
	memcpy(ev, h, sizeof(h));
	if (!full) {
		memcpy(ev->w, p->w, size - sizeof(*p));
		return;
	}
	/*
	 * Every call goes through here: the words are zeroed by a store of
	 * a constant size (a few vector stores, not a call of memset) before
	 * the record's own go over them.
	 */
	if (full == LTR_EXIT_WORDS) {
		memset(ev->w, 0, 8 * LTR_EXIT_WORDS);
		event_copy_words(ev->w, p->w, 8 * (size_t)words);
	} else {
		memset(ev->w, 0, 8 * LTR_ENTER_WORDS);
		event_copy_words(ev->w, p->w, 8 * (size_t)words);
		ev->w[full - 1] = ev->w[words - 1];
		if (words < full)
			ev->w[words - 1] = 0;
	}
	if (size > fixed)
		memcpy(&ev->w[full], (const unsigned char *)p + fixed,
		       size - fixed);
}

void reader_plain(void (*plain)(const struct event_rec *r,
				const struct event_plain *p))
{
	merged.plain = plain;
}

void reader_streams(size_t (*round)(struct ltr_session *s, uint32_t n,
				    bool *deferred))
{
	streams = round;
}

void reader_parallel(size_t (*round)(struct ltr_session *s, uint32_t n,
				     bool *deferred))
{
	parallel = round;
}

/*
 * event_rec's take: the sink keeps the event it was given (copy_buf),
 * spare becomes the buffer of the next copies.
 */
static void *reader_take(void *spare, size_t spare_size, size_t *size)
{
	void *ev = merged.copy_buf;

	*size = merged.copy_size;
	merged.copy_buf = spare;
	merged.copy_size = spare ? spare_size : 0;
	return ev;
}

/*
 * The next events after the one at off were written by the traced thread
 * on another core: ask for their lines now, so that they travel while
 * this one is handed on.  A prefetch never faults.
 */
static inline void prefetch_ahead(const unsigned char *data, uint32_t off)
{
	__builtin_prefetch(&data[(off + PREFETCH) & (ring_size - 1)]);
	__builtin_prefetch(&data[(off + PREFETCH + 64) & (ring_size - 1)]);
}

/*
 * The next event of thread i, skipping padding, copied (the traced
 * process writes the ring: nothing is read twice) whole into copy_buf,
 * or only its stamp into head->ts unless whole; NULL if none.  A record
 * whose header does not make sense ends what the ring holds so far; a
 * whole record that fails its checks (session-check.c) is skipped.  A
 * record (struct ltr_rec, fewer fixed words) comes out a whole struct
 * ltr_event (unpack); its bytes in the ring are c->size.  With a plain
 * sink, a plain ENTER, CALL or EXIT is not copied: *pl says where it is,
 * and head (its stamp in head->ts) is returned.  Inlined in the one loop
 * that calls it for every event: a call, and saving its registers, was a
 * tenth of the reader's work an event.
 */
static inline __attribute__((always_inline)) const struct ltr_event *
peek(struct ltr_session *s, struct drainer *d, uint32_t i,
     struct ltr_event *head, bool whole, struct event_plain *pl)
{
	struct cursor *c = &cursors[i];
	const unsigned char *data = c->data;
	struct ltr_event *ev;

	if (!data)
		return NULL;

	/* After a forged head, the reader may sit where no record can start. */
	if (c->tail % 8 && c->tail < c->head) {
		reader_corrupt(s, i, "skipping what it holds");
		c->tail = c->head;
	}
	while (c->tail < c->head && c->tail % 8 == 0) {
		uint32_t off = (uint32_t)(c->tail & (ring_size - 1));
		const struct ltr_rec *p = (const void *)&data[off];
		struct ltr_rec rec;
		size_t size, gap, min_size;
		unsigned full, words, type;

		if (LTR_REC_TYPE(p->kind) == LTR_EV_PAD &&
		    c->tail + (ring_size - off) <= c->head) {
			c->tail += ring_size - off;
			continue;
		}
		if (off + sizeof(rec) <= ring_size)
			memcpy(&rec, p, sizeof(rec));
		else
			memset(&rec, 0, sizeof(rec));
		size = rec.size;
		/*
		 * A plain record for the plain sink: its kind gives its size,
		 * and checks it (the checks below would pass it); it is not
		 * copied (*pl says where it is).  A kind that is not plain
		 * has size 0 there, which a forged record may say too: such a
		 * record would be taken for ever without a step.
		 */
		if (whole && d->plain && size && size == plains[rec.kind].size &&
		    off + size <= ring_size && c->tail + size <= c->head) {
			if (stamped_after_cut(rec.ts)) {
				d->deferred = true;
				return NULL;
			}
			prefetch_ahead(data, off);
			c->size = size;
			memcpy(&pl->head, &rec, sizeof(pl->head));
			pl->ts = rec.ts;
			pl->w = p->w;
			pl->type = LTR_REC_TYPE(rec.kind);
			pl->words = plains[rec.kind].words;
			pl->full = plains[rec.kind].full;
			head->ts = rec.ts;
			return head;
		}
		type = LTR_REC_TYPE(rec.kind);
		full = kinds[type].full;
		min_size = kinds[type].min_size;
		words = full && LTR_REC_WORDS(rec.kind) ? LTR_REC_WORDS(rec.kind)
							 : full;
		/* What the whole layout adds: its header, the words left out. */
		gap = HEADER_GROWTH + 8 * (size_t)(full - words);
		if (!min_size || words > full || size + gap < min_size ||
		    size + gap > EVENT_MAX || size % 8 ||
		    off + size > ring_size || c->tail + size > c->head) {
			reader_corrupt(s, i, "skipping the rest of it");
			c->tail = c->head;
			return NULL;
		}
		if (stamped_after_cut(rec.ts)) {
			d->deferred = true;
			return NULL;
		}
		if (!whole) {
			head->ts = rec.ts;
			return head;
		}
		prefetch_ahead(data, off);
		c->size = size;
		ev = copy_room(d, size + gap);
		unpack(ev, &rec, p, size, words, full);
		if (check_event(ev))
			return ev;
		reader_corrupt(s, i, "skipping it");
		c->tail += size;
	}
	return NULL;
}

/*
 * Hand consumed space of thread i back to its producer, and wake it if it
 * sleeps on a full ring and now has the room it asked for (wake_at; the
 * handshake is at the top of lib/events.c: tail stored, then wake_at read,
 * both sequentially consistent).  Compared with the ring's tail itself,
 * not with what was stored there last: a program that writes it back (or
 * ahead) would otherwise wait for room for ever, with ltruss idle.  The
 * producer writes that line only when its ring is full (lib/events.c):
 * reading it here mostly costs no miss.  A forged wake_at costs a futex
 * wake at most.
 */
static void publish_tail(struct ltr_session *s, uint32_t i)
{
	struct ltr_thread *slot = session_slot(s, i);
	uint64_t t = cursors[i].tail, at;

	if (!slot || __atomic_load_n(&slot->ring.tail, __ATOMIC_RELAXED) == t)
		return;
	__atomic_store_n(&slot->ring.tail, t, __ATOMIC_SEQ_CST);
	at = __atomic_load_n(&slot->ring.wake_at, __ATOMIC_SEQ_CST);
	if (at && t >= at &&
	    __atomic_exchange_n(&slot->ring.wake_at, 0, __ATOMIC_RELAXED))
		syscall(SYS_futex, &slot->ring.tail, FUTEX_WAKE, INT_MAX, NULL,
			NULL, 0);
}

/* One round: the events published so far and stamped before it began. */
static size_t drain_round(struct ltr_session *s)
{
	uint32_t n = session_threads_used(s), i;
	size_t count = 0;

	cut = clock_tsc();
	cut_slack = (uint64_t)(clock_rate_now() * 1e9);
	merged.deferred = false;

	/*
	 * A head more than a ring ahead of what was read (or behind it)
	 * was not written by an interposer: reading up to it would go round
	 * the ring replaying old events, for ever with a head 2^62 ahead.
	 * Skip to it instead, so that the program, which takes room from
	 * there on, finds it free.
	 */
	for (i = 0; i < n; i++) {
		struct cursor *c = &cursors[i];
		struct ltr_thread *slot = session_slot(s, i);

		c->head = slot ? __atomic_load_n(&slot->ring.head,
						 __ATOMIC_ACQUIRE)
			       : c->tail;
		c->data = slot ? session_ring(s, i) : NULL;
		if (!check_ring_span(c->tail, c->head, ring_size)) {
			reader_corrupt(s, i, "skipping what it holds");
			c->tail = c->head;
		}
		c->known = false;
	}
	if (streams)
		return streams(s, n, &merged.deferred);
	if (parallel) {
		size_t taken = parallel(s, n, &merged.deferred);

		if (taken != READER_DECLINED)
			return taken;
	}
	for (;;) {
		struct ltr_event head;
		struct event_plain pl;
		const struct ltr_event *ev;
		struct event_rec r;
		struct merge m = merge_start();
		uint32_t b;

		/*
		 * The oldest next event, and the oldest of the other threads.
		 * A thread's next event is looked at once, not at every run of
		 * another thread: with threads that interleave finely, runs are
		 * an event or two long.
		 */
		for (i = 0; i < n; i++) {
			struct cursor *c = &cursors[i];

			if (!c->known) {
				ev = peek(s, &merged, i, &head, false, NULL);
				c->has_next = ev != NULL;
				c->next_ts = ev ? ev->ts : 0;
				c->known = true;
			}
			if (c->has_next)
				merge_offer(&m, i, c->next_ts);
		}
		b = m.b;
		if (b == MERGE_NONE)
			break;
		/*
		 * Run thread b while it is the oldest.  The slot's ids share a
		 * cache line with its ring's head, which the traced thread
		 * writes at every event: read them once a run, or each event
		 * costs a cache miss here and one in the interposer.
		 */
		r = (struct event_rec){ .slot = b,
					.pid = session_slot(s, b)->pid,
					.tid = session_slot(s, b)->tid,
					.take = reader_take };
		while ((ev = peek(s, &merged, b, &head, true, &pl)) != NULL &&
		       ev->ts <= m.next_other) {
			if (ev == &head) {
				merged.plain(&r, &pl);
			} else {
				r.ev = ev;
				merged.sink(&r);
			}
			cursors[b].tail += cursors[b].size;
			if (++count % BATCH == 0)
				publish_tail(s, b);
		}
		/* Where the run stopped is b's next event. */
		cursors[b].has_next = ev != NULL;
		cursors[b].next_ts = ev ? ev->ts : 0;
	}
	for (i = 0; i < n; i++)
		publish_tail(s, i);
	return count;
}

size_t reader_drain(struct ltr_session *s)
{
	size_t count = drain_round(s);

	/* What waited was published already: take it now, not a pass later. */
	if (merged.deferred)
		count += drain_round(s);
	return count;
}

bool reader_ring_pending(uint32_t i)
{
	return cursors[i].data && cursors[i].tail < cursors[i].head;
}

void reader_drainers_deferred(struct drainer *d, unsigned n, bool *deferred)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		*deferred |= d[i].deferred;
		d[i].deferred = false;
	}
}

uint64_t reader_ring_bytes(uint32_t i)
{
	return cursors[i].data ? cursors[i].head - cursors[i].tail : 0;
}

bool reader_ring_scan(uint32_t i, const unsigned char *ok,
		      bool (*ask)(unsigned type, uint32_t fn))
{
	const struct cursor *c = &cursors[i];
	uint64_t at = c->tail;

	if (!c->data || at % 8)
		return false;
	while (at < c->head) {
		uint32_t off = (uint32_t)(at & (ring_size - 1));
		struct ltr_rec rec;

		if (off + sizeof(rec) > ring_size)
			return false;
		/* One read of the header: the program may be writing it. */
		memcpy(&rec, &c->data[off], sizeof(rec));
		if (LTR_REC_TYPE(rec.kind) == LTR_EV_PAD) {
			at += ring_size - off;
			continue;
		}
		if (!rec.size || rec.size % 8 || off + rec.size > ring_size)
			return false;
		/* The table inline: a call through a pointer an event was most of the scan. */
		if (!(ok[rec.fn] >> LTR_REC_TYPE(rec.kind) & 1) &&
		    (!ask || !ask(LTR_REC_TYPE(rec.kind), rec.fn)))
			return false;
		at += rec.size;
	}
	return true;
}

size_t reader_drain_ring(struct ltr_session *s, uint32_t i, struct drainer *d)
{
	const struct ltr_thread *slot = session_slot(s, i);
	struct ltr_event head;
	struct event_plain pl;
	const struct ltr_event *ev;
	struct event_rec r;
	size_t count = 0;

	if (!slot)
		return 0;
	r = (struct event_rec){ .slot = i, .pid = slot->pid, .tid = slot->tid };
	while ((ev = peek(s, d, i, &head, true, &pl)) != NULL) {
		if (ev == &head) {
			d->plain(&r, &pl);
		} else {
			r.ev = ev;
			d->sink(&r);
		}
		cursors[i].tail += cursors[i].size;
		if (++count % BATCH == 0)
			publish_tail(s, i);
	}
	publish_tail(s, i);
	return count;
}

/*
 * An ENTER and an EXIT without blobs (48 to 120 bytes) take a traced thread
 * at least 40 ns: 3 bytes a nanosecond.  In ring_size / 16 ns such a thread
 * fills a fifth of its ring, and one that copies strings at 8 bytes a
 * nanosecond half of it.  Longer than 100 us adds nothing: a pass then
 * takes a thousand events or more already.
 */
uint64_t reader_pace_ns(void)
{
	uint64_t pace = ring_size / 16;

	return pace < 100000 ? pace : 100000;
}

bool reader_drained(const struct ltr_session *s, uint32_t i)
{
	const struct ltr_thread *slot = session_slot(s, i);

	return !slot || cursors[i].tail == __atomic_load_n(&slot->ring.head,
							   __ATOMIC_ACQUIRE);
}

unsigned long long reader_dropped(const struct ltr_session *s)
{
	uint32_t n = session_threads_used(s), i, forged = 0;
	unsigned long long dropped = 0;
	uint64_t tsc0, real0, run_ns;

	clock_anchor(&tsc0, &real0);
	run_ns = clock_ticks_to_ns(clock_tsc() - tsc0);
	for (i = 0; i < n; i++) {
		const struct ltr_thread *slot = session_slot(s, i);
		uint64_t d;

		if (!slot)
			continue;
		d = __atomic_load_n(&slot->ring.dropped, __ATOMIC_RELAXED);
		if (check_dropped(d, run_ns))
			dropped += d;
		else
			forged++;
	}
	if (forged)
		warning_msg("%u thread slot%s dropped more events than the run lasted nanoseconds; left out of the count of dropped events (did the program write over its trace session?)",
			    forged, forged == 1 ? " says it" : "s say they");
	return dropped;
}

void reader_debug_rings(const struct ltr_session *s)
{
	uint32_t n = session_threads_used(s), i;

	for (i = 0; i < n; i++) {
		const struct ltr_thread *slot = session_slot(s, i);

		if (slot && slot->ring.head)
			fprintf(stderr, "ltruss: debug: ring %u: %llu bytes, %llu stops, %llu sleeps, least room after a stop %llu of %u\n",
				i, (unsigned long long)slot->ring.head,
				(unsigned long long)slot->ring.stops,
				(unsigned long long)slot->ring.sleeps,
				(unsigned long long)slot->ring.least_room,
				ring_size);
	}
}
