/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-rounds.c: a live trace's lines formatted on several threads, in
 * the rounds where several rings are busy (issue #36).
 *
 * The reader merges the threads' rings by time (merge.h) and hands each
 * event to the call state machine (trace.c), which formats its lines;
 * on one thread, that is a core's worth of events at most.  Yet most of
 * what an event costs (its checks, its thread's stack of calls, its
 * line) concerns its thread alone.  So in a round where two rings or
 * more hold events, each ring is drained apart (reader_drain_ring()) on
 * the worker threads of -w (segments.c: up to one a core, the reader's
 * thread helping), its events run through the state machine of its
 * thread, and its lines go to a buffer of the ring's own (a block the
 * worker formats into: output.h's collect).  With each event the worker
 * notes its stamp and where its lines end in that buffer (a mark).
 *
 * Then the reader's thread puts the lines in the merge's order.  The
 * merge is a function of each stream's stamps alone: the stream whose
 * next event is oldest goes first (the first offered on a tie), and runs
 * on while its events are no later than the oldest next event of the
 * others.  The same rule run over the marks (stamps, in each ring's
 * order, the same events the merge would have taken: the same round's
 * heads and clock, the same checks; merge.h's heap, a pick in log n
 * comparisons over many rings) gives the same runs, and a run's
 * lines are the bytes between its first event's start and its last
 * event's end in its ring's buffer: copied out run by run, the trace is
 * the merge's byte for byte.
 *
 * That holds only if an event's lines depend on nothing but its own
 * thread's calls, and on caches filled before the round.  So a round goes
 * apart only when, for each busy ring:
 *  - its thread is known to trace.c already, with no vfork child in its
 *    ring (a new slot, a thread's start, an exec, touch other threads);
 *  - every record it holds is an entry, an end or an entry-only call
 *    (reader_ring_scan(), on the workers first: rings_scanned(); a
 *    thread's start, a guest, an untraced process change the "[pid N]"
 *    prefixes or other threads' calls);
 *  - each of their functions is warm (struct format's warm: its names and
 *    its prototype's view kept, its console toggle decided) and prints no
 *    symbol's name (symbolize()'s caches are one thread's);
 * and no partial line is open (the next line of any thread ends it), no
 * profile or count is kept (trace_lines_apart()).  The caller starts
 * this only for traces whose lines need nothing else: no -k, --caller,
 * -r (the time since the line before), -i.  Any other round is merged on
 * the reader's thread as before.  Process ends, freed slots and the idle
 * pass (partial lines) come between rounds, on the reader's thread.
 *
 * One busy ring (the usual single-threaded program) is merged as before:
 * the worker would only add a hand-over.  So is a round whose busy rings
 * hold less than RING_BUSY bytes each but one.
 *
 * Rounds apart cost more CPU an event than the merge (the marks, the
 * copy, the headers read twice, the rings' lines bouncing between cores:
 * on the loop's 2 threads, 29-37 ns an event on the workers and 11-13 on
 * the reader's thread, against some 45 merged): they pay only where cores
 * would otherwise wait, the program's threads asleep on full rings while
 * the reader's thread formats.  On 2 cores with 2 busy threads there is
 * little such idle time (0.3 of a core) and rounds apart make the loop
 * slower (-o, 5 runs each: 0.80 s against 0.59 merged, medians); on 16
 * cores with 16 busy threads nearly every core waits.  So
 * the rounds are merged for PROBE_NS every PROBE_EVERY_NS while the
 * cores this process may run on are sampled (/proc/stat), and go apart
 * until the next probe only if at least IDLE_MIN cores were idle (and,
 * under a cgroup's CPU quota, the quota had as much room left:
 * cpu-quota.c).
 * LTRUSS_DEBUG_APART skips the probes (every busy round apart: the tests,
 * on whatever load), LTRUSS_DEBUG_SERIAL merges every round (to compare);
 * LTRUSS_DEBUG_SEGMENTS says at the end how many rounds went apart and
 * who formatted them.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-quota.h"
#include "merge.h"
#include "output.h"
#include "reader.h"
#include "segments.h"
#include "session-slots.h"
#include "toggles.h"
#include "trace-calls.h"
#include "trace-rounds.h"
#include "trace.h"
#include "xmalloc.h"

#define RING_BUSY 2048 /* bytes a ring holds this round to count as busy */
#define PROBE_EVERY_NS 1000000000ull /* a probe a second (see the top) */
#define PROBE_NS 50000000ull         /* of 50 ms, merged */
#define IDLE_MIN 0.5                 /* cores idle in a probe for rounds apart to pay */
#define LINES_START (512u << 10) /* a ring's buffer of lines, at first */

/* An event formatted apart: its stamp, and where its lines end in its ring's buffer. */
struct mark {
	uint64_t ts;
	size_t end;
};

/*
 * A ring's lines this round: written by the one thread draining it, then
 * read by the reader's.  A cache line each: two rings' mark counts, each
 * written at every event by another thread, shared one (lines[] started
 * 32 bytes into a line): the loop's 2 threads under -o, rounds apart,
 * spent a third of the workers' CPU reloading it.
 */
struct ring_lines {
	struct output_block out;
	struct mark *marks;
	size_t nmarks, marks_room;
} __attribute__((aligned(64)));

static struct ring_lines lines[LTR_MAX_THREADS];
/* The rings drained apart this round, in their order; those a worker's scan did not pass. */
static uint32_t apart[LTR_MAX_THREADS], napart;
static uint32_t rescan[LTR_MAX_THREADS], nrescan;
/* What the segments queued are for (written between rounds of segments: the lock orders it). */
static enum { SCAN_PHASE, FORMAT_PHASE } phase;
static struct drainer drainers[SEGMENTS_MAX_WORKERS + 1];
/* The ring the thread running reader_drain_ring() formats (its sinks' context). */
static __thread struct ring_lines *filling;
static struct ltr_session *drained;
static bool started, serial, forced, debug;
/* The probe (see the top): when the phase began, and the idle time then (and the quota's use). */
static struct {
	bool probing, apart;
	uint64_t since_ns, quota_used_ns;
	unsigned long long idle_ticks;
	int stat_fd;
} probe = { .probing = true, .stat_fd = -1 }; /* opened once, kept */
/* What each function's warm gave, once it gave READY or NEVER (0: ask). */
static unsigned char warmed[LTR_MAX_FUNCS];
/* The records' types whose lines may be made apart: a call's. */
#define CALL_TYPES                                                       \
	(1u << LTR_EV_ENTER | 1u << LTR_EV_EXIT | 1u << LTR_EV_UNWOUND | \
	 1u << LTR_EV_CALL)
_Static_assert(CALL_TYPES < 256, "a byte of bits by type");
/* By function number, CALL_TYPES once record_apart() accepted it (reader_ring_scan()). */
static unsigned char apart_ok[1u << 16];
/* LTRUSS_DEBUG_SEGMENTS: rounds apart, rings formatted by each thread, events, ordering time. */
static unsigned long long rounds_all, rounds_apart, rounds_merged;
static unsigned long long formatted[SEGMENTS_MAX_WORKERS + 1];
static unsigned long long events_apart;
static unsigned long long probes; /* probes that found idle cores */
static uint64_t ordering_ns, reader_format_ns; /* the reader's thread's, in rounds apart */

/* Note the event just formatted, stamped ts: its lines end here. */
static inline void mark(uint64_t ts)
{
	struct ring_lines *rl = filling;

	if (__builtin_expect(rl->nmarks == rl->marks_room, 0)) {
		rl->marks_room = rl->marks_room ? 2 * rl->marks_room : 4096;
		rl->marks = xrealloc(rl->marks,
				     rl->marks_room * sizeof(*rl->marks));
	}
	rl->marks[rl->nmarks++] = (struct mark){ .ts = ts,
						 .end = output_block.len };
}

/*
 * Is the record a worker is about to run (of type, for function fn) one
 * that reader_ring_scan() let through?  The ring is the program's memory:
 * between the scan and the drain a program writing over its own session
 * may put any record where a call was, and one of another kind (a
 * thread's start, an exec) would have the worker change what other
 * threads' workers read.  Such a record is skipped, as a corrupt one is.
 */
static bool scanned_as(unsigned type, uint32_t fn, uint32_t slot)
{
	if (type < 8 && fn < LTR_MAX_FUNCS && (apart_ok[fn] >> type & 1))
		return true;
	reader_corrupt(trace_session, slot, "skipping it");
	return false;
}

/* A drainer's plain sink: trace_plain(), marked. */
static void apart_plain(const struct event_rec *r, const struct event_plain *pl)
{
	if (!scanned_as(pl->type, (uint32_t)(pl->head >> 48), r->slot))
		return;
	trace_plain(r, pl);
	mark(pl->ts);
}

/* A drainer's sink: trace_event(), marked. */
static void apart_event(const struct event_rec *r)
{
	uint64_t ts = r->ev->ts;

	if (!scanned_as(r->ev->type, r->ev->fn, r->slot))
		return;
	trace_event(r);
	mark(ts);
}

/* Drain seg's ring through the state machine into its lines, as worker number worker. */
static void format_ring(struct segment *seg, unsigned worker)
{
	struct ring_lines *rl = &lines[seg->ring];
	struct output_block own = output_block; /* the reader's thread's, when it helps */
	struct drainer *d = &drainers[worker];

	if (!rl->out.buf) {
		rl->out.size = LINES_START;
		rl->out.buf = xmalloc(rl->out.size);
		rl->out.collect = true;
	}
	rl->out.len = 0;
	rl->nmarks = 0;
	output_block = rl->out;
	filling = rl;
	d->sink = apart_event;
	d->plain = apart_plain;
	seg->count = reader_drain_ring(drained, seg->ring, d);
	filling = NULL;
	rl->out = output_block;
	output_block = own;
	formatted[worker]++;
}

/*
 * A segment's job on worker number worker: its ring's headers scanned
 * (the round's first pass; seg->count: 1 if they passed) or its lines
 * formatted (seg->count: its events).
 */
static void ring_job(struct segment *seg, unsigned worker)
{
	uint64_t t0 = debug && worker == SEGMENTS_READER ? clock_thread_ns() : 0;

	if (phase == SCAN_PHASE)
		seg->count = reader_ring_scan(seg->ring, apart_ok, NULL);
	else
		format_ring(seg, worker);
	if (t0)
		reader_format_ns += clock_thread_ns() - t0;
}

/* The reader's thread, each segment done: a ring to scan again, or its events counted (its lines wait for the merge). */
static void ring_job_done(struct segment *seg)
{
	if (phase == FORMAT_PHASE)
		events_apart += seg->count;
	else if (!seg->count)
		rescan[nrescan++] = seg->ring;
}

/* reader_ring_scan()'s question when apart_ok does not say: may this record's lines be made apart? */
static bool record_apart(unsigned type, uint32_t fn)
{
	if (!(CALL_TYPES >> type & 1))
		return false;
	if (fn >= LTR_MAX_FUNCS)
		return false;
	/* Its toggle decided here: deciding one writes the decisions. */
	if (fn >= toggles_decided) {
		toggles_disabled(trace_session, fn);
		if (fn >= toggles_decided)
			return false;
	}
	if (!warmed[fn]) {
		enum format_warm w = trace_warm(fn);

		if (w == WARM_LATER)
			return false;
		warmed[fn] = (unsigned char)w;
	}
	if (warmed[fn] != WARM_READY)
		return false;
	apart_ok[fn] = CALL_TYPES; /* decided and warm stay so */
	return true;
}

/*
 * Are the records of every ring of the round (apart[]) ones whose lines
 * may be made apart?  The workers read the headers (reader_ring_scan()),
 * a ring each, which brings its records into the cache of a thread that
 * drains one: on the reader's thread alone this was the largest part of
 * what it did an event, 6 of its 13 ns on the loop's 2 threads, and the
 * part a machine with more busy threads could not spread.  A ring with a
 * record apart_ok does not let through yet is scanned again here, where
 * record_apart() may decide (it writes the toggles' decisions and the
 * format's caches, which the workers read).
 */
static bool rings_scanned(void)
{
	uint32_t k;

	phase = SCAN_PHASE;
	nrescan = 0;
	for (k = 0; k < napart; k++) {
		segments_filling()->ring = apart[k];
		segments_submit();
	}
	segments_collect(true);
	phase = FORMAT_PHASE;
	for (k = 0; k < nrescan; k++)
		if (!reader_ring_scan(rescan[k], apart_ok, record_apart))
			return false;
	return true;
}

/* Append n bytes at p to the trace (n may pass OUTPUT_ROOM_MAX). */
static void lines_copy(const char *p, size_t n)
{
	size_t k;

	for (; n; p += k, n -= k) {
		k = n < OUTPUT_ROOM_MAX ? n : OUTPUT_ROOM_MAX;
		output_mem(p, k);
	}
	output_line_end();
}

/* Copy the rings' lines into the trace in the merge's order (see the top), by merge.h's heap. */
static void lines_merge(void)
{
	static size_t next[LTR_MAX_THREADS]; /* each ring's next mark */
	static struct merge_head heap[LTR_MAX_THREADS];
	uint32_t k, n = 0;

	for (k = 0; k < napart; k++) {
		next[k] = 0;
		if (lines[apart[k]].nmarks)
			heap[n++] = (struct merge_head){ lines[apart[k]].marks[0].ts, k };
	}
	merge_heapify(heap, n);
	while (n) {
		uint64_t other = merge_next_other(heap, n);
		struct ring_lines *rl;
		size_t from;

		k = heap[0].i;
		rl = &lines[apart[k]];
		from = next[k] ? rl->marks[next[k] - 1].end : 0;
		/* Its first event is the oldest: no later than other. */
		do
			next[k]++;
		while (next[k] < rl->nmarks && rl->marks[next[k]].ts <= other);
		if (rl->marks[next[k] - 1].end > from)
			lines_copy(rl->out.buf + from,
				   rl->marks[next[k] - 1].end - from);
		merge_ran(heap, &n, next[k] < rl->nmarks,
			  next[k] < rl->nmarks ? rl->marks[next[k]].ts : 0);
	}
}

/*
 * The idle time (and I/O wait) of the cores this process may run on so
 * far, in clock ticks (/proc/stat's cpuN lines); false if unknown.
 */
static bool idle_ticks(unsigned long long *ticks)
{
	static char buf[1 << 16];
	cpu_set_t set;
	ssize_t n;
	char *p;

	/* Opened at the first busy round: most runs have none. */
	if (probe.stat_fd < 0)
		probe.stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (probe.stat_fd < 0 ||
	    sched_getaffinity(0, sizeof(set), &set) < 0 ||
	    (n = pread(probe.stat_fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return false;
	buf[n] = '\0';
	*ticks = 0;
	for (p = strstr(buf, "\ncpu"); p; p = strstr(p + 1, "\ncpu")) {
		unsigned long long f[5];
		unsigned cpu;

		/* "cpuN", not the sum of them all ("cpu "). */
		if (p[4] >= '0' && p[4] <= '9' &&
		    sscanf(p + 4, "%u %llu %llu %llu %llu %llu", &cpu, &f[0],
			   &f[1], &f[2], &f[3], &f[4]) == 6 &&
		    cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set))
			*ticks += f[3] + f[4];
	}
	return true;
}

/* Start a probe at now: the idle time so far, and the quota's use (ULLONG_MAX, UINT64_MAX: unknown). */
static void probe_begin(uint64_t now)
{
	probe.since_ns = now;
	if (!idle_ticks(&probe.idle_ticks))
		probe.idle_ticks = ULLONG_MAX;
	if (!cpu_quota_used_ns(cpu_quota(), &probe.quota_used_ns))
		probe.quota_used_ns = UINT64_MAX;
}

/*
 * Did at least IDLE_MIN cores sit idle since the probe began: idle in
 * /proc/stat, and, under a cgroup quota, the quota not used up either
 * (cpu-quota.c; a quota whose use is unknown has no room known).
 */
static bool probe_found_idle(uint64_t now)
{
	double secs = (double)(now - probe.since_ns) / 1e9;
	const struct cpu_quota *q = cpu_quota();
	unsigned long long ticks;
	uint64_t used;

	if (probe.idle_ticks == ULLONG_MAX || !idle_ticks(&ticks) ||
	    (double)(ticks - probe.idle_ticks) / (double)sysconf(_SC_CLK_TCK) <
		    IDLE_MIN * secs)
		return false;
	return q->cores == 0 ||
	       (probe.quota_used_ns != UINT64_MAX && cpu_quota_used_ns(q, &used) &&
		q->cores * secs - (double)(used - probe.quota_used_ns) / 1e9 >=
			IDLE_MIN * secs);
}

/* Do rounds apart pay now (see the top)?  Asked at each busy round. */
static bool apart_pays(void)
{
	uint64_t now = clock_mono_ns();

	if (forced)
		return true;
	if (!probe.probing) {
		if (now - probe.since_ns < PROBE_EVERY_NS)
			return probe.apart;
		probe.probing = true;
		probe.apart = false;
		probe_begin(now);
		return false;
	}
	if (!probe.since_ns) /* the first busy round */
		probe_begin(now);
	if (now - probe.since_ns < PROBE_NS)
		return false;
	probe.apart = probe_found_idle(now);
	probe.probing = false;
	probe.since_ns = now;
	probes += probe.apart;
	return probe.apart;
}

/* reader_parallel()'s round: see the top. */
static size_t trace_round(struct ltr_session *s, uint32_t n, bool *deferred)
{
	unsigned long long before = events_apart;
	uint32_t i, busy = 0;
	uint64_t t0;

	rounds_all++;
	if (serial || !trace_lines_apart())
		return READER_DECLINED;
	for (i = 0; i < n; i++)
		busy += reader_ring_bytes(i) >= RING_BUSY;
	if (busy < 2 || !apart_pays())
		return READER_DECLINED;
	t0 = debug ? clock_thread_ns() : 0;
	napart = 0;
	for (i = 0; i < n; i++) {
		struct thread_trace *t = trace_threads[i];

		if (!reader_ring_pending(i))
			continue;
		if (!t || t->guest) {
			rounds_merged++;
			return READER_DECLINED;
		}
		apart[napart++] = i;
	}
	if (!segments_start(ring_job, ring_job_done))
		return READER_DECLINED;
	if (!rings_scanned()) {
		rounds_merged++;
		return READER_DECLINED;
	}
	drained = s;
	for (i = 0; i < napart; i++) {
		segments_filling()->ring = apart[i];
		segments_submit();
	}
	segments_collect(true);
	reader_drainers_deferred(drainers, SEGMENTS_MAX_WORKERS + 1, deferred);
	lines_merge();
	rounds_apart++;
	if (debug)
		ordering_ns += clock_thread_ns() - t0;
	return (size_t)(events_apart - before);
}

void trace_rounds_start(struct ltr_session *s)
{
	(void)s;
	serial = getenv("LTRUSS_DEBUG_SERIAL") != NULL;
	forced = getenv("LTRUSS_DEBUG_APART") != NULL;
	debug = getenv("LTRUSS_DEBUG_SEGMENTS") != NULL;
	reader_parallel(trace_round);
	started = true;
}

void trace_rounds_stop(void)
{
	unsigned long long by_workers = 0;
	unsigned workers;
	uint64_t workers_ns;
	uint32_t i;

	if (!started)
		return;
	started = false;
	if (probe.stat_fd >= 0)
		close(probe.stat_fd);
	reader_parallel(NULL);
	workers = segments_workers();
	workers_ns = segments_stop();
	for (i = 0; i < SEGMENTS_MAX_WORKERS; i++)
		by_workers += formatted[i];
	if (debug)
		fprintf(stderr, "ltruss: debug: %u formatting workers, %llu rounds apart of %llu, %llu busy ones merged for their records, %llu probes found idle cores; %llu rings formatted by workers, %llu by the reader's thread; %llu events apart, the workers' CPU %.1f ns an event, the reader's thread's %.1f ns an event apart outside its rings\n",
			workers, rounds_apart, rounds_all, rounds_merged, probes,
			by_workers,
			formatted[SEGMENTS_READER], events_apart,
			events_apart ? (double)workers_ns / (double)events_apart : 0,
			events_apart ? (double)(ordering_ns - reader_format_ns) /
					       (double)events_apart
				     : 0);
	/* Most runs had no round apart: lines[] (32 KiB) never touched. */
	if (!rounds_apart)
		return;
	for (i = 0; i <= SEGMENTS_MAX_WORKERS; i++)
		reader_drainer_free(&drainers[i]);
	for (i = 0; i < LTR_MAX_THREADS; i++) {
		free(lines[i].out.buf);
		free(lines[i].marks);
		lines[i] = (struct ring_lines){ 0 };
	}
}
