/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-write.c: record a trace file (-w FILE) as the rings drain.
 *
 * Recording formats nothing: each event the reader takes out of a ring
 * (already checked, reader.c) is encoded (tracefile-codec.c: mostly a
 * byte or none a word) into an EVENTS block of a big buffer, in the order
 * the reader merged the threads, so that --read needs no merge and feeds
 * trace.c the very sequence the live trace would have.  Names, objects
 * and prototypes go into TABLES blocks just before the first event that
 * can name them; process ends into PROC blocks where the live trace
 * prints them.  The buffer is handed whole blocks at a time to a writer
 * thread (writer.c: a swap of two buffers, no copy), at least once a
 * second (tracefile_tick(), from the reader's loop), so that a killed
 * ltruss leaves a file that reads up to a second before, and the reader
 * waits for write(2) only when the disk is slower than it.
 *
 * A failed write (a full disk) stops the recording with one message, said
 * at the next handover or tick; the program runs on (its rings are still
 * drained), and since the writer writes nothing after its first failure,
 * what reached the file is whole blocks and at most one cut one: the file
 * still reads.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "build-id.h"
#include "clock.h"
#include "crc32.h"
#include "error.h"
#include "fd-util.h"
#include "outfile.h"
#include "reader.h"
#include "session-check.h"
#include "session-slots.h"
#include "retired.h"
#include "segments.h"
#include "tracefile-blocks.h"
#include "tracefile-codec.h"
#include "tracefile-records.h"
#include "tracefile-write.h"
#include "tracefile.h"
#include "writer.h"
#include "xmalloc.h"

#define BUF_SIZE (2u << 20)  /* written when full, or once a second */
#define FLUSH_NS 1000000000ull

static int fd = -1;
static struct writer writer;
static const char *path;
static const struct ltr_session *S;
static struct tf_codec file_codec;
static struct blocks F = { .open_at = NONE, .codec = &file_codec };
static uint64_t flushed_ns;
/* The segment being filled (segment_filling()), or NULL: ask segments.c. */
static struct segment *filling;
static bool stopped;
static uint32_t funcs_done, objects_done;

static void tracefile_plain(const struct event_rec *r,
			    const struct event_plain *pl);
static void tracefile_plain_par(const struct event_rec *r,
				const struct event_plain *pl);

/* Stop recording, saying why, if a write failed with err; false if so. */
static bool write_ok(int err)
{
	if (!err || stopped)
		return !stopped;
	errno = err;
	perror_msg("cannot write the trace file '%s' (-w); recording stopped there, the program runs on and the file reads up to it",
		   path);
	stopped = true;
	return false;
}

/* Close the file buffer's open block. */
static void block_close(void)
{
	blocks_close(&F);
}

/* Hand the buffer's whole blocks to the writer; fill its spare one next. */
static void flush(void)
{
	block_close();
	if (F.len && write_ok(writer_error(&writer)))
		F.buf = writer_swap(&writer, F.buf, F.len);
	F.len = 0;
	flushed_ns = clock_mono_ns();
}

/* Make room for a block of n more bytes (none open), flushing if needed. */
static void room(size_t n)
{
	if (F.len + n + 8 > BUF_SIZE)
		flush();
}

/* Open a block of type (closing the open one); room for n bytes in it. */
static void block_open(uint32_t type, size_t n)
{
	block_close();
	room(sizeof(struct tf_block) + n);
	blocks_open(&F, type);
}

/* Append n bytes to the open block. */
static void put(const void *p, size_t n)
{
	memcpy(F.buf + F.len, p, n);
	F.len += n;
}

/* Write a whole block of type with payload p (n bytes). */
static void block_write(uint32_t type, const void *p, size_t n)
{
	block_open(type, n);
	put(p, n);
	block_close();
}

/* Append a TABLES record, opening a TABLES block if none is open. */
static void record_put(uint32_t type, uint32_t at, const void *p, size_t n,
		       const void *tail, size_t tail_len)
{
	struct tf_record r = { .type = type, .at = at,
			       .len = (uint32_t)(n + tail_len) };
	size_t need = sizeof(r) + n + tail_len + 8;

	if (F.open_at != NONE &&
	    (F.open_type != TF_TABLES || F.len - F.open_at + need > TF_BLOCK_MAX ||
	     F.len + need + 8 > BUF_SIZE))
		block_close();
	if (F.open_at == NONE)
		block_open(TF_TABLES, need);
	put(&r, sizeof(r));
	put(p, n);
	if (tail_len)
		put(tail, tail_len);
	while (F.len % 8)
		F.buf[F.len++] = 0;
}

/*
 * Wait for object record i, claimed, to be written: the records go into
 * the file in order, once, and the calls after this point may have their
 * stacks in the objects of the records after it.  Its process writes it
 * a few stores after the claim (lib/objects.c); one killed in between
 * never does, and after the deadline (SESSION_OBJECT_WAIT_NS from the
 * first wait of this update: a forged count of claims holds ltruss up
 * for no longer) the record goes with no addresses and no path.
 */
static void object_wait(uint32_t i, uint64_t until)
{
	const struct timespec pause = { .tv_nsec = 50000 };

	while (!session_object_ready(S, i) && clock_mono_ns() < until)
		nanosleep(&pause, NULL);
}

/*
 * Deliver every segment queued (the one being filled too): what the
 * reader's thread writes next comes after their events.  The reader no
 * longer copies into the segment handed over.
 */
static void segments_flush(void)
{
	filling = NULL;
	reader_copy_to(NULL, 0);
	segments_collect(true);
}

/*
 * Append what the session's tables gained since the last time: the
 * functions filled in so far (in order), their prototypes, the objects
 * recorded, and the strings they name.  Only those strings: the string
 * area also holds every shipped prototype's name, some 100 KiB that no
 * event names.
 */
static void tables_update(bool final)
{
	uint32_t nf = session_funcs_used(S), objects, f = funcs_done, i;
	uint64_t until;
	bool forged;

	while (f < nf && session_func_ready(S, f))
		f++;
	objects = __atomic_load_n(&S->nobjects, __ATOMIC_ACQUIRE);
	/*
	 * No process claims further ahead of the records copied (lib/
	 * objects.c): a count past that is forged, and the file takes only
	 * the records written, waiting for none (and at the end, the rest of
	 * one ring's worth), so that a forged count costs neither time nor
	 * the file's size.
	 */
	forged = objects - objects_done > LTR_MAX_OBJECTS;
	if (forged)
		objects = objects_done + LTR_MAX_OBJECTS;
	until = clock_mono_ns() + SESSION_OBJECT_WAIT_NS;
	for (i = objects_done; i < objects && !final && !forged; i++)
		object_wait(i, until);
	if (forged && !final)
		for (i = objects_done; i < objects; i++)
			if (!session_object_ready(S, i))
				objects = i;
	if (f == funcs_done && objects <= objects_done)
		return;
	/* The events encoded so far come before the records added here. */
	segments_flush();
	for (i = objects_done; i < objects; i++)
		records_object(i);
	/* A function's prototype comes before it: the reader binds the two. */
	for (; funcs_done < f; funcs_done++) {
		records_proto(S->funcs[funcs_done].capture);
		records_func(funcs_done);
	}
	objects_done = objects > objects_done ? objects : objects_done;
	block_close();
}

uint32_t tracefile_objects_copied(void)
{
	uint32_t claimed = __atomic_load_n(&S->nobjects, __ATOMIC_ACQUIRE);

	if (fd < 0 || stopped)
		return claimed;
	if (claimed != objects_done)
		tables_update(false);
	return objects_done;
}

/* A CLOCK block with the rate measured so far (final: over the whole run). */
static void clock_put(bool final)
{
	struct tf_clock c;

	clock_anchor(&c.tsc0, &c.real0);
	c.ticks_per_ns = final ? clock_ticks_per_ns() : clock_rate_now();
	block_write(TF_CLOCK, &c, sizeof(c));
}

void tracefile_open(const char *file, const struct ltr_session *s,
		    const struct config *config, bool follow)
{
	struct tf_header h;
	struct utsname u;

	path = file;
	S = s;
	records_init(s, config, record_put);
	/* The user's alone: with -k it holds raw bytes of the program's stack. */
	fd = outfile_open(file, 0600, "-w");
	if (fd < 0)
		perror_msg_and_die("cannot write the trace file '%s' (-w)", file);
	F.buf = xmalloc(BUF_SIZE);
	tf_codec_init(F.codec);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, TF_MAGIC, sizeof(h.magic));
	h.version = TF_VERSION;
	h.header_size = sizeof(h);
	h.events_layout = TF_EVENTS_LAYOUT;
	h.strsize = config->strsize; /* printed at -s, even if copied whole (--whole) */
	h.depth_limit = s->depth_limit;
	h.follow = follow;
	h.start_time = s->start_time;
	snprintf(h.ltruss_version, sizeof(h.ltruss_version), "%s",
		 PACKAGE_VERSION);
	if (uname(&u) == 0)
		snprintf(h.host, sizeof(h.host), "%.63s", u.nodename);
	memcpy(h.command, s->command, sizeof(h.command));
	h.command[sizeof(h.command) - 1] = '\0';
	h.crc = crc32_update(0, &h, offsetof(struct tf_header, crc));
	writer_start(&writer, fd, BUF_SIZE);
	reader_plain(tracefile_plain);
	if (!write_ok(fd_write_all(fd, &h, sizeof(h))))
		exit(EXIT_LTRUSS_ERROR);
	flushed_ns = clock_mono_ns();
}

bool tracefile_recording(void)
{
	return fd >= 0;
}

/*
 * Several busy rings: encoding on workers (segments.c).  Every WINDOW
 * events the reader's thread looks at how many slots gave a good part of
 * them (BUSY_SHARE); with two or more, the events of the next window are
 * copied into segments, which workers encode into whole EVENTS blocks,
 * copied into the file in the order the reader merged them (deliver()).
 * A segment's blocks start from nothing (an EVENTS block's codec does), so
 * the file reads as if one thread had encoded it: the same events in the
 * same order, only cut into blocks at other places.  Anything else the
 * reader's thread writes (TABLES, PROC, CLOCK, the end) is written after
 * every segment queued before it is delivered (segments_collect(true)):
 * the records an event names precede it as before.  With one busy ring,
 * events are encoded here as before: a copy and a hand-over would only
 * add to the work.
 */
#define WINDOW 65536u
#define BUSY_SHARE (WINDOW / 16)
/*
 * A segment's record of an event: whose it is, then the event, whole;
 * or (plain: its words in the ring) a plain record as the ring held it:
 * its header's two words, then its words (struct event_plain).
 */
struct seg_event {
	uint32_t slot;
	int32_t pid, tid;
	uint32_t plain;
};

static bool par;                           /* events go to segments */
static uint32_t win_left = WINDOW;          /* events this window still counts */
static uint32_t win_count[LTR_MAX_THREADS]; /* this window's events a slot */
static struct tf_codec worker_codec[SEGMENTS_MAX_WORKERS];
static unsigned long long segments_encoded;

/* The plain record of words words copied at p (segment_plain()). */
static struct event_plain plain_copied(const unsigned char *p, unsigned words)
{
	struct event_plain pl = { .w = (const void *)(p + 16), .words = words };

	memcpy(&pl.head, p, 8);
	memcpy(&pl.ts, p + 8, 8);
	pl.type = LTR_REC_TYPE((unsigned)(pl.head >> 16));
	pl.full = pl.type == LTR_EV_EXIT ? LTR_EXIT_WORDS : LTR_ENTER_WORDS;
	return pl;
}

/* A worker: encode seg's events into whole EVENTS blocks in its out. */
static void segment_encode(struct segment *seg, unsigned worker)
{
	struct blocks o = { .open_at = NONE, .codec = &worker_codec[worker] };
	const unsigned char *p = seg->in, *end = seg->in + seg->in_len;
	struct seg_event h;
	struct event_rec r;

	if (!o.codec->z)
		tf_codec_init(o.codec);
	if (seg->out_size < seg->need) {
		free(seg->out);
		seg->out_size = seg->need;
		seg->out = xmalloc(seg->out_size);
	}
	o.buf = seg->out;
	while (p < end) {
		struct event_plain pl;
		size_t size;

		memcpy(&h, p, sizeof(h));
		r = (struct event_rec){ .slot = h.slot, .pid = h.pid,
					.tid = h.tid,
					.ev = (const void *)(p + sizeof(h)) };
		if (h.plain) {
			pl = plain_copied(p + sizeof(h), h.plain);
			size = sizeof(struct ltr_event) + 8 * (size_t)pl.full;
		} else {
			size = r.ev->size;
		}
		if (events_new(&o, &r, size)) {
			blocks_close(&o);
			events_open(&o, &r);
		}
		if (h.plain) {
			events_put_plain(&o, &pl, size);
			p += sizeof(h) + 16 + 8 * (size_t)h.plain;
		} else {
			events_put(&o, &r);
			p += sizeof(h) + size;
		}
	}
	blocks_close(&o);
	seg->out_len = o.len;
}

/*
 * A record is at least 16 + 24 bytes, its need (segment_event) under 3
 * times that; a segment holds less than SEGMENT_BYTES and one event more:
 * its blocks fit in the file's buffer, whatever it holds.
 */
_Static_assert(3 * (SEGMENT_BYTES + sizeof(struct seg_event) + 65536) + 8 <=
		       BUF_SIZE,
	       "a segment's blocks fit in the file's buffer");

/* The reader's thread: copy an encoded segment's blocks into the file. */
static void segment_deliver(struct segment *seg)
{
	segments_encoded++;
	if (stopped || !seg->out_len)
		return;
	block_close();
	room(seg->out_len);
	memcpy(F.buf + F.len, seg->out, seg->out_len);
	F.len += seg->out_len;
}

/*
 * At the end of a window: are two slots or more busy?  Every slot is
 * looked at, 2 KiB every WINDOW events, so that an event costs only its
 * count.
 */
static bool window_busy(void)
{
	uint32_t i, busy = 0;

	for (i = 0; i < LTR_MAX_THREADS; i++) {
		busy += win_count[i] >= BUSY_SHARE;
		win_count[i] = 0;
	}
	win_left = WINDOW;
	return busy >= 2;
}

/* The segment being filled, its buffer allocated. */
static struct segment *segment_filling(void)
{
	struct segment *seg = filling;

	if (seg)
		return seg;
	seg = filling = segments_filling();
	if (!seg->in) {
		/* Room for an event of any size while in_len is below SEGMENT_BYTES. */
		seg->in_size = SEGMENT_BYTES + sizeof(struct seg_event) + 65536;
		seg->in = xmalloc(seg->in_size);
	}
	return seg;
}

/*
 * Count r's event in the window; true if, with several busy rings, it
 * goes into the segment being filled.
 */
static inline bool segment_window(const struct event_rec *r)
{
	if (r->slot < LTR_MAX_THREADS)
		win_count[r->slot]++;
	if (!--win_left) {
		bool busy = window_busy() &&
			    segments_start(segment_encode, segment_deliver);

		if (par && !busy)
			segments_flush();
		par = busy;
		/* The plain records' way of each mode, with no test of it. */
		reader_plain(par ? tracefile_plain_par : tracefile_plain);
	}
	return par;
}

/*
 * The record of an event put at seg's end, rec bytes with its header h,
 * n at most encoded: queue the segment if full.  Returns the segment
 * being filled.
 */
static inline struct segment *segment_added(struct segment *seg,
					    struct seg_event h, size_t rec,
					    size_t n)
{
	memcpy(seg->in + seg->in_len, &h, sizeof(h));
	seg->in_len += rec;
	/* Each event may open a block: its header, the EVENTS header, padding. */
	seg->need += n + sizeof(struct tf_block) + sizeof(struct tf_events) + 8;
	if (seg->in_len < SEGMENT_BYTES)
		return seg;
	segments_submit();
	segments_collect(false);
	filling = NULL;
	return segment_filling();
}

/*
 * Is the reader copying the next event into the segment being filled
 * (reader_copy_to())?  A plain record is not copied by the reader, so
 * that a whole event after it would go over the plain one's place.
 */
static bool copying_to_segment;

/*
 * Count r's event in the window and, with several busy rings, put it in
 * the segment being filled (the reader copied it there, if it could:
 * reader_copy_to()); false if it is to be encoded here.
 */
static inline bool segment_event(const struct event_rec *r)
{
	size_t size = r->ev->size;
	struct seg_event h = { .slot = r->slot, .pid = r->pid, .tid = r->tid };
	struct segment *seg;
	unsigned char *at;

	if (!segment_window(r))
		return false;
	seg = segment_filling();
	at = seg->in + seg->in_len + sizeof(h);
	if ((const void *)r->ev != at)
		memcpy(at, r->ev, size);
	seg = segment_added(seg, h, sizeof(h) + size, TF_CODEC_MAX(size));
	/* The next event goes straight where its record will be. */
	reader_copy_to(seg->in + seg->in_len + sizeof(h),
		       seg->in_size - seg->in_len - sizeof(h));
	copying_to_segment = true;
	return true;
}

/* The longest encoding of a plain record, an ENTER's: a constant. */
#define PLAIN_MAX TF_CODEC_MAX(sizeof(struct ltr_event) + 8 * LTR_ENTER_WORDS)

/*
 * Put plain record pl into the segment being filled as the ring holds it,
 * its words read out of the ring once.
 */
static inline __attribute__((always_inline)) void
plain_to_segment(const struct event_rec *r, const struct event_plain *pl)
{
	struct seg_event h = { .slot = r->slot, .pid = r->pid, .tid = r->tid,
			       .plain = pl->words };
	struct segment *seg = segment_filling();
	unsigned char *at = seg->in + seg->in_len + sizeof(h);

	memcpy(at, &pl->head, 8);
	memcpy(at + 8, &pl->ts, 8);
	event_copy_words(at + 16, pl->w, 8 * (size_t)pl->words);
	segment_added(seg, h, sizeof(h) + 16 + 8 * (size_t)pl->words,
		      PLAIN_MAX);
	if (copying_to_segment) {
		reader_copy_to(NULL, 0);
		copying_to_segment = false;
	}
}

/* plain_to_segment(), apart: for the window that turns to several busy rings. */
static __attribute__((noinline)) void
plain_to_segment_apart(const struct event_rec *r, const struct event_plain *pl)
{
	plain_to_segment(r, pl);
}

/*
 * Open an EVENTS block of r's thread in the file's buffer with room for
 * an event of size bytes decoded, n encoded (file_room() said so).
 */
static __attribute__((noinline)) void file_open(const struct event_rec *r,
						size_t size, size_t n)
{
	if (events_new(&F, r, size)) {
		block_close();
		room(sizeof(struct tf_block) + sizeof(struct tf_events) + n);
	} else {
		flush();
	}
	events_open(&F, r);
}

/*
 * Make room in the file's buffer for an event of r's thread of size bytes
 * decoded, n at most encoded, in an EVENTS block of that thread open for it.
 */
static inline void file_room(const struct event_rec *r, size_t size, size_t n)
{
	if (events_new(&F, r, size) || F.len + n + 8 > BUF_SIZE)
		file_open(r, size, n);
}

void tracefile_event(const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;

	/* The reader checked it: no other type gets here. */
	if (stopped || ev->type >= TF_CODEC_TYPES)
		return;
	if (ev->fn >= funcs_done || S->nobjects != objects_done)
		tables_update(false);
	if (segment_event(r))
		return;
	file_room(r, ev->size, TF_CODEC_MAX(ev->size));
	events_put(&F, r);
}

/* Encode plain record pl of r's thread into the file's buffer. */
static inline __attribute__((always_inline)) void
plain_to_file(const struct event_rec *r, const struct event_plain *pl)
{
	size_t size = sizeof(struct ltr_event) + 8 * (size_t)pl->full;

	file_room(r, size, PLAIN_MAX);
	events_put_plain(&F, pl, size);
}

/* plain_to_file(), apart: for the window that turns to one busy ring. */
static __attribute__((noinline)) void
plain_to_file_apart(const struct event_rec *r, const struct event_plain *pl)
{
	plain_to_file(r, pl);
}

/* plain_recorded() when it has something to do. */
static __attribute__((noinline)) bool plain_recorded_slow(void)
{
	if (stopped)
		return false;
	tables_update(false);
	return true;
}

/*
 * What every plain record asks first: the tables it may name written;
 * false if it is not recorded.  One test: a split of its callers at
 * `stopped' cost a call more an event.
 */
static inline bool plain_recorded(const struct event_plain *pl)
{
	if (__builtin_expect(stopped | ((pl->head >> 48) >= funcs_done) |
				     (S->nobjects != objects_done),
			     0))
		return plain_recorded_slow();
	return true;
}

/*
 * tracefile_event() of a plain record (reader_plain()): with one busy
 * ring (several false), encoded straight from the ring; with several,
 * copied as it is into the segment being filled.  The other way, for the
 * window that turns, apart.
 */
static inline __attribute__((always_inline)) void
plain_record(const struct event_rec *r, const struct event_plain *pl,
	     bool several)
{
	bool par_now;

	if (!plain_recorded(pl))
		return;
	par_now = segment_window(r);
	if (par_now && several)
		plain_to_segment(r, pl);
	else if (par_now)
		plain_to_segment_apart(r, pl);
	else if (!several)
		plain_to_file(r, pl);
	else
		plain_to_file_apart(r, pl);
}

/*
 * Its two ways, the reader's plain sink in each mode (segment_window()).
 * Whole (noipa): GCC split them at their first test, a call more an event.
 */
static __attribute__((noipa)) void tracefile_plain(const struct event_rec *r,
						   const struct event_plain *pl)
{
	plain_record(r, pl, false);
}

static __attribute__((noipa)) void
tracefile_plain_par(const struct event_rec *r, const struct event_plain *pl)
{
	plain_record(r, pl, true);
}

void tracefile_process_end(int pid, uint64_t tsc, int exit_status, int sig,
			   bool core, bool multi)
{
	struct tf_proc p = { .pid = pid, .exit_status = exit_status,
			     .signal = sig,
			     .flags = (core ? TF_PROC_CORE : 0) |
				      (multi ? TF_PROC_MULTI : 0),
			     .ts = tsc };

	if (fd < 0)
		return;
	segments_flush();
	/* A failed write is said before the live trace's "+++" line. */
	if (!write_ok(writer_sync(&writer)))
		return;
	block_write(TF_PROC, &p, sizeof(p));
}

void tracefile_tick(void)
{
	if (fd < 0)
		return;
	segments_collect(false);
	if (!write_ok(writer_error(&writer)) ||
	    clock_mono_ns() - flushed_ns < FLUSH_NS)
		return;
	segments_flush();
	tables_update(false);
	clock_put(false);
	flush();
}

/* The file's row of pid's counters of function fn. */
static struct tf_count count_row(int32_t pid, uint32_t fn,
				 const struct ltr_count *c)
{
	return (struct tf_count){ .pid = pid, .fn = fn, .calls = c->calls,
				  .errors = c->errors, .total = c->total,
				  .self = c->self, .min = c->min,
				  .max = c->max };
}

/* Append a row to the COUNTS block being made (rows, *n of per). */
static void count_add(struct tf_count *rows, size_t *n, size_t per,
		      struct tf_count row)
{
	rows[(*n)++] = row;
	if (*n == per) {
		block_write(TF_COUNTS, rows, *n * sizeof(*rows));
		*n = 0;
	}
}

/* Write the counters of every thread slot and of those handed back. */
static void counts_put(void)
{
	uint32_t nfuncs = session_funcs_used(S), nthreads, nretired, i, f;
	size_t per = RECORD_MAX / sizeof(struct tf_count), n = 0;
	struct tf_count *rows = xmalloc(per * sizeof(*rows));

	nthreads = session_threads_used(S);
	for (i = 0; i < nthreads; i++) {
		const struct ltr_thread *slot = session_slot(S, i);

		for (f = 0; slot && f < nfuncs; f++)
			if (slot->counts[f].calls)
				count_add(rows, &n, per,
					  count_row(slot->pid, f,
						    &slot->counts[f]));
	}
	nretired = slots_retired_used(S);
	for (i = 0; i < nretired; i++)
		count_add(rows, &n, per,
			  count_row(S->retired[i].pid, S->retired[i].fn,
				    &S->retired[i].c));
	if (n)
		block_write(TF_COUNTS, rows, n * sizeof(*rows));
	free(rows);
}

void tracefile_close(unsigned long long dropped, uint32_t lost_returns,
		     int sig, bool core)
{
	struct tf_end e = { .dropped = dropped, .lost_returns = lost_returns,
			    .signal = sig, .core = core };
	uint64_t workers_ns;
	unsigned workers;
	size_t i;

	if (fd < 0)
		return;
	workers = segments_workers();
	reader_copy_to(NULL, 0);
	filling = NULL;
	workers_ns = segments_stop();
	/* What the tests and the benchmark look at: did workers take part? */
	if (getenv("LTRUSS_DEBUG_SEGMENTS"))
		fprintf(stderr, "ltruss: debug: %u encoding workers, %llu segments, workers' CPU %.3f s, reader's thread's %.3f s\n",
			workers, segments_encoded, (double)workers_ns / 1e9,
			(double)clock_thread_ns() / 1e9);
	for (i = 0; i < SEGMENTS_MAX_WORKERS; i++)
		if (worker_codec[i].z)
			tf_codec_free(&worker_codec[i]);
	/* What is left is written here: no thread started just for it. */
	write_ok(writer_stop(&writer));
	if (!stopped) {
		tables_update(true);
		counts_put();
		clock_put(true);
		block_write(TF_END, &e, sizeof(e));
		flush();
		write_ok(writer_error(&writer));
	}
	if (close(fd) < 0 && !stopped)
		perror_msg("cannot write the trace file '%s' (-w)", path);
	fd = -1;
	free(F.buf);
	tf_codec_free(F.codec);
	build_id_done();
	records_done();
}
