/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-write.c: record a trace file (-w FILE) as the rings drain.
 *
 * Recording formats nothing: each event taken out of a ring (checked as
 * the live reader checks it, reader.c) is encoded (tracefile-codec.c:
 * mostly a byte or none a word) into EVENTS blocks of its thread slot,
 * each ring apart, on several threads when several rings are busy (the
 * rounds, below); --read merges the rings' blocks of each round by time
 * and feeds trace.c the very sequence the live trace would have.  Names,
 * objects and prototypes go into TABLES blocks before the round whose
 * events can name them; process ends into PROC blocks where the live
 * trace prints them.  The buffer is handed whole blocks at a time to a writer
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
/* The file's buffer: TABLES, PROC, CLOCK... and the rounds' blocks copied. */
static struct blocks F = { .open_at = NONE };
static uint64_t flushed_ns;
static bool stopped;
static uint32_t funcs_done, objects_done;

static size_t tracefile_round(struct ltr_session *s, uint32_t n,
			      bool *deferred);
/* LTRUSS_DEBUG_SEGMENTS: the CPU the reader's thread spent draining rings. */
static bool debug;
static uint64_t reader_drain_ns;

/* Stop recording, saying why, if a write failed with err; false if so. */
static bool write_ok(int err)
{
	if (!err || stopped)
		return !stopped;
	errno = err;
	perror_msg("cannot write the trace file '%s' (-w); recording stopped there, the program runs on and the file reads up to it",
		   path);
	__atomic_store_n(&stopped, true, __ATOMIC_RELAXED);
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
	/* Between rounds: the events encoded so far come before the records. */
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
	reader_streams(tracefile_round);
	debug = getenv("LTRUSS_DEBUG_SEGMENTS") != NULL;
	if (!write_ok(fd_write_all(fd, &h, sizeof(h))))
		exit(EXIT_LTRUSS_ERROR);
	flushed_ns = clock_mono_ns();
}

bool tracefile_recording(void)
{
	return fd >= 0;
}

/*
 * The rings drain apart (reader_streams()): each round, once the reader
 * has read every ring's head, the reader's thread writes what the tables
 * gained (the events up to those heads name nothing added later), then
 * each ring that holds events is drained, checked and encoded into EVENTS
 * blocks of its own slot (a segment), by a worker when two rings or more
 * hold events (segments.c; the reader's thread encodes too while it
 * waits), else by the reader's thread; the segments' blocks go into the
 * file in slot order, the last one flagged the end of the round (its
 * checksum made again: one block a round).  The blocks of a round carry
 * TF_EVENTS_ROUND: --read merges them by time as the live reader merges
 * the rings (tracefile-read.c), and gets the sequence the live trace
 * would have had.  So no work an event is serial: with w workers the
 * drain, the checks and the encoding of every ring spread over w + 1
 * cores.  Anything else (TABLES, PROC, CLOCK, the end) is written between
 * rounds.
 */

/* The blocks a thread draining a ring encodes into, and their buffer's size. */
struct job {
	struct blocks o;
	size_t size;
};

/* The job of the thread running reader_drain_ring() (its sinks' context). */
static __thread struct job *job;
static struct tf_codec job_codec[SEGMENTS_MAX_WORKERS + 1];
static struct drainer drainers[SEGMENTS_MAX_WORKERS + 1];
/* Segments each thread encoded ([SEGMENTS_READER]: the reader's); events. */
static unsigned long long segments_encoded[SEGMENTS_MAX_WORKERS + 1];
static unsigned long long events_recorded;
/* The session whose rings this round drains (the reader's, not const). */
static struct ltr_session *drained;
/* The segment the reader's thread drains alone (one busy ring, or no worker). */
static struct segment one;
/* The offset in F of the last block a round copied, or NONE. */
static size_t round_last = NONE;

/* The job's buffer, grown to take need bytes more. */
static __attribute__((noinline)) void job_grow(struct job *j, size_t need)
{
	size_t size = j->size ? 2 * j->size : 256u << 10;

	while (size < j->o.len + need)
		size *= 2;
	j->o.buf = xrealloc(j->o.buf, size);
	j->size = size;
}

/*
 * Make room in the job's buffer for an event of r's thread of size bytes
 * decoded, n at most encoded, in an EVENTS block of that thread open for it.
 */
static inline void job_room(struct job *j, const struct event_rec *r,
			    size_t size, size_t n)
{
	bool open = events_new(&j->o, r, size);
	size_t need = n + 8 + sizeof(struct tf_block) + sizeof(struct tf_events);

	/*
	 * The codec remembers the open block's byte blobs where it wrote
	 * them, in this buffer: a buffer moved by growing would leave it
	 * comparing freed memory.  So the event that makes it grow opens a
	 * new block, whose codec starts from nothing (blocks encode apart;
	 * the open one is closed by its offset, wherever the buffer is).
	 */
	if (__builtin_expect(j->o.len + need > j->size, 0)) {
		job_grow(j, need);
		open = true;
	}
	if (open) {
		blocks_close(&j->o);
		events_open(&j->o, r);
	}
}

/* The stop a failed write made, as a worker sees it. */
static inline bool recording_stopped(void)
{
	return __atomic_load_n(&stopped, __ATOMIC_RELAXED);
}

/* A drainer's sink: encode a whole event into the job's blocks. */
static void job_event(const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;

	/* The reader checked it: no other type gets here. */
	if (recording_stopped() || ev->type >= TF_CODEC_TYPES)
		return;
	job_room(job, r, ev->size, TF_CODEC_MAX(ev->size));
	events_put(&job->o, r);
}

/* The longest encoding of a plain record, an ENTER's: a constant. */
#define PLAIN_MAX TF_CODEC_MAX(sizeof(struct ltr_event) + 8 * LTR_ENTER_WORDS)

/* A drainer's plain sink: encode plain record pl straight from its ring. */
static void job_plain(const struct event_rec *r, const struct event_plain *pl)
{
	size_t size = sizeof(struct ltr_event) + 8 * (size_t)pl->full;

	if (recording_stopped())
		return;
	job_room(job, r, size, PLAIN_MAX);
	events_put_plain(&job->o, pl, size);
}

/* Drain seg's ring and encode its events into seg's blocks, as worker number worker. */
static void segment_encode(struct segment *seg, unsigned worker)
{
	struct drainer *d = &drainers[worker];
	struct job j = { .o = { .open_at = NONE, .codec = &job_codec[worker],
				.buf = seg->out,
				.events_flags = TF_EVENTS_ROUND },
			 .size = seg->out_size };
	uint64_t t0 = debug && worker == SEGMENTS_READER ? clock_thread_ns() : 0;

	if (!j.o.codec->z)
		tf_codec_init(j.o.codec);
	d->sink = job_event;
	d->plain = job_plain;
	job = &j;
	seg->count = reader_drain_ring(drained, seg->ring, d);
	job = NULL;
	blocks_close(&j.o);
	seg->out = j.o.buf;
	seg->out_size = j.size;
	seg->out_len = j.o.len;
	segments_encoded[worker]++;
	if (t0)
		reader_drain_ns += clock_thread_ns() - t0;
}

/*
 * The reader's thread: copy a segment's blocks into the file, a block at
 * a time (a ring's may be more than the file's buffer holds).
 */
static void segment_deliver(struct segment *seg)
{
	size_t at = 0, n;

	events_recorded += seg->count;
	while (!stopped && at < seg->out_len) {
		const struct tf_block *b = (const void *)(seg->out + at);

		n = sizeof(*b) + tf_padded(b->len);
		room(n);
		memcpy(F.buf + F.len, seg->out + at, n);
		round_last = F.len;
		F.len += n;
		at += n;
	}
}

/* Flag the last block the round copied the end of the round. */
static void round_end(void)
{
	struct tf_block *b;
	struct tf_events *e;

	if (round_last == NONE || stopped)
		return;
	b = (struct tf_block *)(F.buf + round_last);
	e = (struct tf_events *)(b + 1);
	e->flags |= TF_EVENTS_ROUND_END;
	b->crc = crc32_update(0, b + 1, b->len);
	round_last = NONE;
}

/* reader_streams()'s round: see above. */
static size_t tracefile_round(struct ltr_session *s, uint32_t n, bool *deferred)
{
	uint32_t i, busy = 0, last = 0;
	unsigned long long before = events_recorded;
	bool pool;

	if (session_funcs_used(S) != funcs_done || S->nobjects != objects_done)
		tables_update(false);
	for (i = 0; i < n; i++)
		if (reader_ring_pending(i)) {
			busy++;
			last = i;
		}
	if (!busy)
		return 0;
	drained = s;
	block_close();
	pool = busy >= 2 && segments_start(segment_encode, segment_deliver);
	for (i = 0; i <= last; i++) {
		if (!reader_ring_pending(i))
			continue;
		if (pool) {
			segments_filling()->ring = i;
			segments_submit();
		} else {
			one.ring = i;
			segment_encode(&one, SEGMENTS_READER);
			segment_deliver(&one);
		}
	}
	if (pool)
		segments_collect(true);
	reader_drainers_deferred(drainers, SEGMENTS_MAX_WORKERS + 1, deferred);
	round_end();
	return (size_t)(events_recorded - before);
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
	/* A failed write is said before the live trace's "+++" line. */
	if (!write_ok(writer_sync(&writer)))
		return;
	block_write(TF_PROC, &p, sizeof(p));
}

void tracefile_tick(void)
{
	if (fd < 0)
		return;
	if (!write_ok(writer_error(&writer)) ||
	    clock_mono_ns() - flushed_ns < FLUSH_NS)
		return;
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
	unsigned long long by_workers = 0;
	uint64_t workers_ns;
	unsigned workers;
	size_t i;

	if (fd < 0)
		return;
	workers = segments_workers();
	workers_ns = segments_stop();
	for (i = 0; i < SEGMENTS_MAX_WORKERS; i++)
		by_workers += segments_encoded[i];
	/* What the tests and the benchmark look at: did workers take part? */
	/*
	 * The reader's thread's CPU less its draining: what no worker can
	 * take (the rounds, the copies of the blocks, the tables, ltruss's
	 * start), the part that does not spread over cores.
	 */
	if (debug) {
		double n = events_recorded ? (double)events_recorded : 1,
		       cpu = (double)clock_thread_ns();

		fprintf(stderr, "ltruss: debug: %u encoding workers, %llu segments, workers' CPU %.3f s, reader's thread's %.3f s; %llu rings drained by workers, %llu by the reader's thread; %llu events, the workers' CPU %.1f ns an event, the reader's thread's %.1f ns, %.1f ns of it not draining\n",
			workers, by_workers + segments_encoded[SEGMENTS_READER],
			(double)workers_ns / 1e9, cpu / 1e9, by_workers,
			segments_encoded[SEGMENTS_READER], events_recorded,
			(double)workers_ns / n, cpu / n,
			(cpu - (double)reader_drain_ns) / n);
	}
	free(one.out);
	for (i = 0; i <= SEGMENTS_MAX_WORKERS; i++) {
		if (job_codec[i].z)
			tf_codec_free(&job_codec[i]);
		reader_drainer_free(&drainers[i]);
	}
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
	build_id_done();
	records_done();
}
