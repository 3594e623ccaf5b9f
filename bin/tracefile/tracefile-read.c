/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-read.c: the event source of --read FILE.
 *
 * The file is read twice, a block at a time.  The first pass checks every block's
 * length and CRC and finds where the file ends: at its END block, or cut
 * where the last whole block ends (a block that runs past the end of the
 * file: the writer was killed, or the disk was full); a whole block that
 * fails its checksum, or a header no writer makes, is corruption and
 * stops everything before a line is printed.  It also takes the last
 * CLOCK block, so that every timestamp converts with the run's final
 * rate.  The second pass replays the blocks: TABLES fill the catalog
 * (tracefile-tables.c into catalog.c: tables of what the file holds) that
 * every formatter reads, as it reads a live session through it; EVENTS are decoded back into the ring records a block at a
 * time (tracefile-codec.c), checked as the live reader checks a ring's
 * records (check_event()) and go to trace.c through narrow.c; PROC blocks end
 * processes where the live trace did; COUNTS become the summary's rows.
 * Every length is checked against the block it is in, and no block is
 * larger than TF_BLOCK_MAX, so no file makes the reader allocate more.
 *
 * A round (version 10 on: the EVENTS blocks with TF_EVENTS_ROUND up to
 * one with TF_EVENTS_ROUND_END, each slot's blocks one after the other) holds
 * each ring's events of one pass of the live reader apart: the reader
 * notes where each slot's blocks are (a run), then decodes a block of
 * each run at a time and merges the runs by time exactly as the live
 * reader merges the rings (reader.c's drain_round()), so trace.c gets
 * the sequence the live trace would have had.  Memory: a decoded block a
 * run, and no more runs than thread slots (more, in a damaged file, are
 * merged in turns); a round cut short (a killed ltruss) merges what it
 * has.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "clock.h"
#include "conf.h"
#include "crc32.h"
#include "error.h"
#include "format.h"
#include "merge.h"
#include "narrow.h"
#include "pyreuse.h"
#include "session-check.h"
#include "trace.h"
#include "tracefile-codec.h"
#include "tracefile-objects.h"
#include "tracefile-tables.h"
#include "tracefile-read.h"
#include "tracefile.h"
#include "xmalloc.h"

#define PAUSE_NS 1000000ull /* a gap between events the live reader idles in */

static const char *path;
static int fd = -1;
static size_t size;
static unsigned char *blk; /* the block being read: header and payload */
/* Its events decoded: TF_EVENTS_MAX bytes, or one event (tracefile-write.c). */
#define DECODED_MAX (TF_EVENTS_MAX + 65536)
static uint64_t *decoded;
static struct tf_codec codec;
static size_t end_at;      /* where the blocks read end */
static bool cut;
static bool have_clock;
static struct tf_clock clock_rec;
static int slot_pid[LTR_MAX_THREADS]; /* the process each slot's events were of */
/* Each its own allocation: resolved prototypes point at them (ptype.def). */
static struct tf_end end_rec;
static uint64_t last_ts;   /* of the last event replayed */
/*
 * PAUSE_NS in ticks, give or take one (0: not known yet), and the gap
 * below which there is surely no pause (0: ask pause_ticks).
 */
static uint64_t pause_ticks, pause_below;
static int first_pid;       /* of the first events block */
static bool several;        /* events of more than one process */

/* The file is not one this ltruss reads: say why and where, exit 2. */
static void __attribute__((noreturn)) bad(size_t at, const char *what)
{
	error_msg_and_die("cannot read the trace file '%s': %s at byte %zu; it is not a trace ltruss -w wrote, or it was damaged",
			  path, what, at);
}

/* Check the header: magic, version, checksum. */
static void header_check(const struct tf_header *h)
{
	if (size < sizeof(h->magic) ||
	    memcmp(h->magic, TF_MAGIC, sizeof(h->magic)) != 0)
		bad(0, "no trace file magic (\"LTRUSS\")");
	if (size < offsetof(struct tf_header, header_size) + 4)
		bad(size, "the header is cut");
	if (h->version < TF_VERSION_FIRST)
		error_msg_and_die("cannot read the trace file '%s': it is format version %u, this ltruss reads versions %u to %u; read it with the ltruss that wrote it",
				  path, h->version, TF_VERSION_FIRST, TF_VERSION);
	if (h->version > TF_VERSION)
		error_msg_and_die("cannot read the trace file '%s': it is format version %u, this ltruss reads versions %u to %u; read it with a newer ltruss",
				  path, h->version, TF_VERSION_FIRST, TF_VERSION);
	if (size < sizeof(*h))
		bad(size, "the header is cut");
	if (h->header_size != sizeof(*h) ||
	    h->crc != crc32_update(0, h, offsetof(struct tf_header, crc)))
		bad(0, "the header fails its checksum");
	if (h->events_layout != TF_EVENTS_LAYOUT)
		bad(offsetof(struct tf_header, events_layout),
		    "an events layout no writer makes");
}

/* Read n bytes at offset off of the file into p, or die. */
static void bytes_read(void *p, size_t n, size_t off)
{
	ssize_t r;
	size_t done = 0;

	while (done < n) {
		r = pread(fd, (unsigned char *)p + done, n - done,
			  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			perror_msg_and_die("cannot read the trace file '%s'",
					   path);
		if (r == 0)
			error_msg_and_die("cannot read the trace file '%s': it shrank while being read",
					  path);
		done += (size_t)r;
	}
}

/*
 * The block at off, checked whole; NULL where the file ends (cut) before
 * it does.  Corruption does not return.
 */
static const struct tf_block *block_at(size_t off)
{
	const struct tf_block *b = (const void *)blk;

	if (size - off < sizeof(*b))
		return NULL;
	bytes_read(blk, sizeof(*b), off);
	if (b->type < TF_TABLES || b->type > TF_END || b->len > TF_BLOCK_MAX ||
	    b->reserved)
		bad(off, "a block header no writer makes");
	if (tf_padded(b->len) > size - off - sizeof(*b))
		return NULL;
	bytes_read(blk + sizeof(*b), b->len, off + sizeof(*b));
	/* What the decoder may read past it (tf_decode_block()), known. */
	memset(blk + sizeof(*b) + b->len, 0, TF_DECODE_SLACK);
	if (crc32_update(0, b + 1, b->len) != b->crc)
		bad(off, "a block fails its checksum");
	return b;
}

/* First pass: check every block, find the end, take the last clock. */
static void blocks_check(void)
{
	const struct tf_block *b;
	size_t off = sizeof(struct tf_header);
	bool ended = false;

	while (off < size && !ended) {
		b = block_at(off);
		if (!b)
			break;
		if (b->type == TF_CLOCK) {
			if (b->len != sizeof(clock_rec))
				bad(off, "a clock block of the wrong size");
			memcpy(&clock_rec, b + 1, sizeof(clock_rec));
			if (!isfinite(clock_rec.ticks_per_ns) ||
			    clock_rec.ticks_per_ns <= 0)
				bad(off, "a clock rate that is not a number");
			have_clock = true;
		}
		if (b->type == TF_EVENTS && b->len >= sizeof(struct tf_events)) {
			const struct tf_events *e = (const void *)(b + 1);

			if (!first_pid)
				first_pid = e->pid;
			several |= e->pid != first_pid;
		}
		ended = b->type == TF_END;
		off += sizeof(*b) + tf_padded(b->len);
	}
	cut = !ended;
	end_at = off;
}

/*
 * PAUSE_NS in ticks, give or take one, from the clock now set (the
 * file's, or this machine's once an event asks), and the gap below which
 * pause_replay() needs no other test.
 */
static void pause_set(void)
{
	pause_ticks = (uint64_t)((double)PAUSE_NS * clock_ticks_per_ns()) + 2;
	pause_below = pause_ticks > 4 ? pause_ticks - 4 : 0;
}

/*
 * Live, ltruss shows a call blocking for a while when nothing comes for a
 * moment (trace_idle()): a pause before an event or a process end does
 * the same here, at the time the pause ended.
 */
static inline void pause_replay(uint64_t ts)
{
	/*
	 * Most events come later than the last by less than the pause: one
	 * test of each, no idle and the time taken (the test below at
	 * once).  PAUSE_NS in ticks, give or take one: the conversion only
	 * near it.
	 */
	if (__builtin_expect(ts >= last_ts && ts - last_ts < pause_below, 1)) {
		last_ts = ts;
		return;
	}
	if (!pause_ticks)
		pause_set();
	if (last_ts && ts > last_ts && ts - last_ts + 4 >= pause_ticks &&
	    clock_ticks_to_ns(ts - last_ts) >= PAUSE_NS)
		trace_idle_at(ts);
	if (ts > last_ts)
		last_ts = ts;
}

/*
 * Decode the events of an EVENTS block (p, n bytes at off) into to
 * (DECODED_MAX bytes); returns the bytes.  The whole block first, as the
 * live reader hands on a ring's records while they are still in the ring.
 */
static size_t events_decode(const unsigned char *p, size_t n, size_t off,
			    uint64_t *to)
{
	const unsigned char *q = p + sizeof(struct tf_events);
	size_t used;
	const char *err;

	tf_codec_reset(&codec);
	used = tf_decode_block(&codec, &q, p + n, TF_DECODE_SLACK, to,
			       DECODED_MAX, &err);
	if (err)
		bad(off + sizeof(struct tf_block) + (size_t)(q - p), err);
	return used;
}

/* The header of an EVENTS block (p, n bytes at off), checked. */
static struct tf_events events_header(const unsigned char *p, size_t n,
				      size_t off)
{
	struct tf_events h;

	if (n < sizeof(h))
		bad(off, "an events block too short");
	memcpy(&h, p, sizeof(h));
	if (h.slot >= LTR_MAX_THREADS)
		bad(off, "an events block of no thread slot");
	return h;
}

/* Event ev of r's thread, to trace.c (r->ev changed). */
static inline void event_replay(struct event_rec *r, const struct ltr_event *ev)
{
	/* Python frames made whole before narrowing leaves any out. */
	r->ev = pyreuse_whole(r->slot, ev);
	pause_replay(ev->ts);
	narrow_event(r);
}

/* The events of an EVENTS block (p, n bytes at off), to trace.c. */
static void events_replay(const unsigned char *p, size_t n, size_t off)
{
	struct tf_events h = events_header(p, n, off);
	struct event_rec r;
	size_t i = 0, used;

	used = events_decode(p, n, off, decoded);
	slot_pid[h.slot] = h.pid;
	/*
	 * One record for the block, its event changed: written field by
	 * field for each event, it was read back whole (a copy, two fields
	 * at once) before the stores were done, and the load waited.
	 */
	r = (struct event_rec){ .slot = h.slot, .pid = h.pid, .tid = h.tid };
	while (i < used) {
		const struct ltr_event *ev = (const void *)((unsigned char *)decoded + i);

		event_replay(&r, ev);
		i += ev->size;
	}
}

/*
 * A run of a round: consecutive EVENTS blocks of one slot (see the top),
 * the one being read decoded, and its next event's time once looked at.
 */
struct run {
	struct tf_events h;
	size_t next, end; /* offsets of its next block and of its end */
	uint64_t *decoded; /* DECODED_MAX bytes, or NULL: none yet */
	size_t at, used;  /* bytes of decoded read and there */
	uint64_t next_ts;
	bool known, has_next;
};

#define RUNS_MAX LTR_MAX_THREADS

/* Are a and b the headers of blocks of the same slot, process and thread? */
static bool same_thread(const struct tf_events *a, const struct tf_events *b)
{
	return a->slot == b->slot && a->pid == b->pid && a->tid == b->tid;
}
static struct run *runs;
static uint32_t nruns;

/* run_event() when r's decoded block is read: decode its next one; NULL if none. */
static __attribute__((noinline)) const struct ltr_event *run_block(struct run *r)
{
	while (r->at >= r->used) {
		const struct tf_block *b;
		struct tf_events h;

		if (r->next >= r->end)
			return NULL;
		b = block_at(r->next);
		if (!b) { /* cut since the round was noted */
			r->next = r->end;
			return NULL;
		}
		h = events_header((const void *)(b + 1), b->len, r->next);
		if (b->type != TF_EVENTS || !same_thread(&h, &r->h))
			bad(r->next, "a block changed while the file was read");
		if (!r->decoded)
			r->decoded = xmalloc(DECODED_MAX);
		r->used = events_decode((const void *)(b + 1), b->len, r->next,
					r->decoded);
		r->at = 0;
		r->next += sizeof(*b) + tf_padded(b->len);
	}
	return (const void *)((unsigned char *)r->decoded + r->at);
}

/* The next event of run r, decoding its next block if need be; NULL if none. */
static inline const struct ltr_event *run_event(struct run *r)
{
	if (__builtin_expect(r->at < r->used, 1))
		return (const void *)((unsigned char *)r->decoded + r->at);
	return run_block(r);
}

/*
 * Replay the events of r's decoded block up to its end or one later than
 * until, the first of them known to be due.  Where they are, in locals:
 * in r, they were loaded and stored again around every event's replay.
 */
static void run_replay(struct run *r, struct event_rec *rec, uint64_t until)
{
	const unsigned char *at = (const unsigned char *)r->decoded + r->at;
	const unsigned char *end = (const unsigned char *)r->decoded + r->used;
	const struct ltr_event *ev = (const void *)at;

	do {
		event_replay(rec, ev);
		at += ev->size;
		ev = (const void *)at;
	} while (at < end && ev->ts <= until);
	r->at = (size_t)(at - (const unsigned char *)r->decoded);
}

/*
 * Replay the round noted: the runs merged by time, as drain_round() in
 * reader.c merges the rings (merge.h; ties to the run noted first).
 */
static void round_replay(void)
{
	uint32_t k;

	for (k = 0; k < nruns; k++)
		runs[k].known = false;
	for (;;) {
		struct merge m = merge_start();
		const struct ltr_event *ev;
		struct event_rec rec;
		struct run *r;

		for (k = 0; k < nruns; k++) {
			r = &runs[k];
			if (!r->known) {
				ev = run_event(r);
				r->has_next = ev != NULL;
				r->next_ts = ev ? ev->ts : 0;
				r->known = true;
			}
			if (r->has_next)
				merge_offer(&m, k, r->next_ts);
		}
		if (m.b == MERGE_NONE)
			break;
		r = &runs[m.b];
		rec = (struct event_rec){ .slot = r->h.slot, .pid = r->h.pid,
					  .tid = r->h.tid };
		slot_pid[r->h.slot] = r->h.pid;
		while ((ev = run_event(r)) != NULL && ev->ts <= m.next_other)
			run_replay(r, &rec, m.next_other);
		r->has_next = ev != NULL;
		r->next_ts = ev ? ev->ts : 0;
	}
	nruns = 0;
}

/*
 * If the block at *off is an EVENTS block of a round, note it in its run
 * without decoding it (replaying the round if it is its last block), step
 * *off past it and return true.
 */
static bool round_note(size_t *off)
{
	struct {
		struct tf_block b;
		struct tf_events h;
	} head;
	size_t n;
	struct run *r;

	if (size - *off < sizeof(head))
		return false;
	bytes_read(&head, sizeof(head), *off);
	if (head.b.type != TF_EVENTS || head.b.len > TF_BLOCK_MAX ||
	    head.b.len < sizeof(head.h) || !(head.h.flags & TF_EVENTS_ROUND))
		return false;
	events_header((const void *)&head.h, head.b.len, *off);
	n = sizeof(head.b) + tf_padded(head.b.len);
	r = nruns ? &runs[nruns - 1] : NULL;
	if (r && r->end == *off && same_thread(&r->h, &head.h)) {
		r->end += n;
	} else {
		if (nruns == RUNS_MAX)
			round_replay();
		if (!runs)
			runs = xcalloc(RUNS_MAX, sizeof(*runs));
		r = &runs[nruns++];
		r->h = head.h;
		r->next = *off;
		r->end = *off + n;
		r->at = r->used = 0;
	}
	*off += n;
	if (head.h.flags & TF_EVENTS_ROUND_END)
		round_replay();
	return true;
}

/* A PROC block: the process ends where the live trace ended it. */
static void proc_replay(const unsigned char *p, size_t n, size_t off)
{
	struct tf_proc pr;
	uint32_t i;

	if (n != sizeof(pr))
		bad(off, "a process block of the wrong size");
	memcpy(&pr, p, sizeof(pr));
	if (!check_tid(pr.pid) || pr.signal < 0 || pr.signal > 64)
		bad(off, "a process block that names no process");
	if (!narrow_pid(pr.pid))
		return;
	pause_replay(pr.ts);
	if (pr.flags & TF_PROC_MULTI)
		format_seen_process();
	trace_process_end(pr.pid, pr.ts, pr.exit_status, pr.signal,
			  pr.flags & TF_PROC_CORE);
	for (i = 0; i < LTR_MAX_THREADS; i++) {
		if (slot_pid[i] == pr.pid) {
			trace_slot_freed(i);
			slot_pid[i] = 0;
		}
	}
}

/* A COUNTS block: the interposer's counters, the summary's rows. */
static void counts_load(const unsigned char *p, size_t n, size_t off)
{
	size_t k = n / sizeof(struct tf_count), i;

	if (n % sizeof(struct tf_count))
		bad(off, "a counts block of the wrong size");
	for (i = 0; i < k; i++) {
		struct tf_count r;

		memcpy(&r, p + i * sizeof(r), sizeof(r));
		if (r.fn >= LTR_MAX_FUNCS)
			bad(off, "a counter of no function");
		if (!narrow_pid(r.pid) || !tracefile_counts_recorded())
			continue;
		catalog_retired_add(&(struct ltr_retired){
			.pid = r.pid, .fn = r.fn,
			.c = { .calls = r.calls, .errors = r.errors,
			       .total = r.total, .self = r.self,
			       .min = r.min, .max = r.max } });
	}
}

void tracefile_load(const char *file, uint32_t strsize)
{
	struct tf_header header, *h = &header;
	struct stat st;

	path = file;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		perror_msg_and_die("cannot read the trace file '%s' (--read)",
				   file);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		error_msg_and_die("cannot read the trace file '%s': not a regular file; give the file ltruss -w wrote",
				  file);
	size = (size_t)st.st_size;
	if (!size)
		bad(0, "the file is empty");
	memset(h, 0, sizeof(*h));
	bytes_read(h, size < sizeof(*h) ? size : sizeof(*h), 0);
	header_check(h);
	/* One block at a time: memory stays bounded, however big the file. */
	blk = xmalloc(sizeof(struct tf_block) + TF_BLOCK_MAX + TF_DECODE_SLACK);
	decoded = xmalloc(DECODED_MAX);
	tf_codec_init(&codec);
	blocks_check();
	tracefile_tables_init(file, bad);
	/* -s shows less of the strings than were recorded, not more. */
	catalog_file_start(strsize && strsize < h->strsize ? strsize
							   : h->strsize);
	if (have_clock) {
		clock_set(clock_rec.tsc0, clock_rec.real0,
			  clock_rec.ticks_per_ns);
		pause_set();
	} else {
		/* Cut before the first clock: this machine's, measured when an event asks. */
		clock_start();
	}
	/* Any process of the file may be shown. */
	check_init(0, true);
}

/* An END block: what the recording run lost, how its command ended. */
static void end_load(const unsigned char *p, size_t n, size_t off)
{
	if (n != sizeof(end_rec))
		bad(off, "an end block of the wrong size");
	memcpy(&end_rec, p, sizeof(end_rec));
}

/* What each block type does in the second pass (CLOCK: done in the first). */
static void (*const replay[TF_END + 1])(const unsigned char *p, size_t n,
					 size_t off) = {
	[TF_TABLES] = tracefile_tables_load, [TF_EVENTS] = events_replay,
	[TF_PROC] = proc_replay, [TF_COUNTS] = counts_load,
	[TF_END] = end_load,
};

/*
 * If the block at *off is an EVENTS block, step *off past it without
 * reading it and return true.  Its header is the one the first pass
 * checked; a file changed since is caught at the next block read whole.
 */
static bool event_block_skip(size_t *off)
{
	struct tf_block b;

	if (size - *off < sizeof(b))
		return false;
	bytes_read(&b, sizeof(b), *off);
	if (b.type != TF_EVENTS || b.len > TF_BLOCK_MAX)
		return false;
	*off += sizeof(b) + tf_padded(b.len);
	return true;
}

void tracefile_replay(void)
{
	size_t off = sizeof(struct tf_header);
	bool calls = trace_wants_calls();

	while (off < end_at) {
		const struct tf_block *b;

		/*
		 * -c of a whole file: the summary is the recorded counters,
		 * and the events are not even read (the first pass checked
		 * every block).
		 */
		if (!calls && event_block_skip(&off))
			continue;
		if (round_note(&off))
			continue;
		/* Any other block ends the round noted before it. */
		if (nruns)
			round_replay();
		b = block_at(off);

		if (!b)
			break; /* cut since the first pass */
		if (replay[b->type])
			replay[b->type]((const unsigned char *)(b + 1), b->len,
					off);
		off += sizeof(*b) + tf_padded(b->len);
	}
	/* A round cut short: what it has. */
	round_replay();
	if (cut)
		trace_cut();
}

/*
 * The interposer's counters come last, just before END: a file cut short
 * (ltruss killed) has none or some of them, so its summary counts the
 * calls it holds, as a narrowed one does.
 */
bool tracefile_counts_recorded(void)
{
	return !cut && !narrow_calls();
}

void tracefile_counts_from_trace(void)
{
	size_t n = trace_counts(NULL, LTR_MAX_RETIRED);

	trace_counts(catalog_retired_reset((uint32_t)n), n);
}

bool tracefile_processes(void)
{
	return several;
}

bool tracefile_was_cut(size_t *at)
{
	*at = end_at;
	return cut;
}


void tracefile_ends(unsigned long long *dropped, uint32_t *lost)
{
	*dropped = end_rec.dropped;
	*lost = end_rec.lost_returns;
}

int tracefile_command_signal(bool *core)
{
	*core = end_rec.core;
	return end_rec.signal > 0 && end_rec.signal < 65 ? end_rec.signal : 0;
}

void tracefile_unload(void)
{
	uint32_t k;

	tracefile_tables_free();
	if (fd >= 0)
		close(fd);
	free(blk);
	free(decoded);
	for (k = 0; runs && k < RUNS_MAX; k++)
		free(runs[k].decoded);
	free(runs);
	runs = NULL;
	nruns = 0;
	tf_codec_free(&codec);
	decoded = NULL;
	blk = NULL;
	fd = -1;
}
