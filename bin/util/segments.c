/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segments.c: the worker threads that drain -w's rings and encode their
 * events when several rings are busy (tracefile-write.c decides when);
 * live, without -w, the same threads drain rings and format their lines
 * (trace-rounds.c: "encode" is then that).
 *
 * Each round, the reader's thread queues a segment for each ring that
 * holds events; a worker drains that ring and encodes its events into
 * whole EVENTS blocks (an EVENTS block's encoding starts from nothing:
 * tf_codec_reset(), so blocks encode apart), and the reader's thread
 * copies the blocks of the segments into the file in the order it queued
 * them (segments_collect()), encoding itself those no worker took yet
 * while it waits.  The order of the file is the reader's alone.  A
 * segment is a ring's events of a round (up to the ring's size), so the
 * lock is taken a few times per round: with w workers the reader's
 * thread does no work an event but a copy of the encoded bytes, and the
 * drain, the checks and the encoding spread over w + 1 cores.
 *
 * The segments are a ring of NSEG, numbered by how many were queued
 * before them.  Shared fields, all under lock (no field is read or written
 * outside it by two threads):
 *   queued   written by the reader's thread (segments_submit), read by
 *            the workers: segments below it may be taken;
 *   taken    the next segment a worker takes; workers only;
 *   done[]   set by the worker that encoded the segment, read and cleared
 *            by the reader's thread;
 *   stop     set by the reader's thread at the end.
 * A segment's own fields (struct segment) are the reader's thread's while
 * it fills the segment (number `queued') and after done[] said it was
 * encoded; the one worker's that took it in between: the lock taken at
 * either hand-over orders the accesses.  `released' (the oldest not
 * copied yet) is the reader's thread's alone.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include "clock.h"
#include "cpu-quota.h"
#include "segments.h"
#include "xmalloc.h"

#define MAX_WORKERS SEGMENTS_MAX_WORKERS
#define NSEG (2 * MAX_WORKERS + 2)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;     /* queued grew */
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER; /* a done[] set */
static struct segment segs[NSEG];
static bool done[NSEG];
static uint64_t queued, taken, released;
static bool stop;
static uint64_t worker_cpu_ns; /* added by each worker as it ends, under lock */
static pthread_t threads[MAX_WORKERS];
static unsigned nworkers, nsegs;
static void (*encode_fn)(struct segment *seg, unsigned worker);
static void (*deliver_fn)(struct segment *seg);

/* Take the next queued segment and encode it as worker (called and returning under lock). */
static void encode_next(unsigned worker)
{
	uint64_t n = taken++;

	pthread_mutex_unlock(&lock);
	encode_fn(&segs[n % nsegs], worker);
	pthread_mutex_lock(&lock);
	done[n % nsegs] = true;
}

/* A worker: encode the queued segments in turn until stopped. */
static void *worker_main(void *arg)
{
	unsigned worker = (unsigned)(uintptr_t)arg;

	pthread_setname_np(pthread_self(), "ltruss-encode");
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!stop && taken == queued)
			pthread_cond_wait(&work, &lock);
		if (taken == queued)
			break;
		encode_next(worker);
		pthread_cond_signal(&finished);
	}
	worker_cpu_ns += clock_thread_ns();
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* The cores this process may run on, and its cgroup's quota lets it use (cpu-quota.c). */
static unsigned cores(void)
{
	double quota = cpu_quota()->cores;
	unsigned n;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	n = (unsigned)CPU_COUNT(&set);
	if (quota > 0 && quota < n)
		n = (unsigned)quota + (quota > (unsigned)quota); /* rounded up */
	return n;
}

bool segments_start(void (*encode)(struct segment *seg, unsigned worker),
		    void (*deliver)(struct segment *seg))
{
	static bool tried; /* once: a thread that could not start will not */
	unsigned want, i, n = cores();
	sigset_t all, old;

	if (tried)
		return nworkers > 0;
	tried = true;
	want = n > 1 ? n - 1 : 0;
	if (want > MAX_WORKERS)
		want = MAX_WORKERS;
	encode_fn = encode;
	deliver_fn = deliver;
	/* Enough for each worker to have one in hand and one waiting. */
	nsegs = 2 * want + 2;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < want; i++)
		if (pthread_create(&threads[nworkers], NULL, worker_main,
				   (void *)(uintptr_t)nworkers) == 0)
			nworkers++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return nworkers > 0;
}

unsigned segments_workers(void)
{
	return nworkers;
}

/* Copy the oldest queued segment's blocks out, once it is encoded (waiting if wait); false if it was not. */
static bool deliver_oldest(bool wait)
{
	struct segment *seg;
	bool ready;

	pthread_mutex_lock(&lock);
	if (released == queued) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	while (wait && !done[released % nsegs]) {
		/* A segment no worker took yet: encode it here, not wait. */
		if (taken < queued)
			encode_next(SEGMENTS_READER);
		else
			pthread_cond_wait(&finished, &lock);
	}
	ready = done[released % nsegs];
	done[released % nsegs] = false;
	pthread_mutex_unlock(&lock);
	if (!ready)
		return false;
	seg = &segs[released % nsegs];
	deliver_fn(seg);
	seg->count = seg->out_len = 0;
	released++;
	return true;
}

struct segment *segments_filling(void)
{
	/* queued is only written by this thread: read without the lock. */
	while (queued - released >= nsegs)
		deliver_oldest(true);
	return &segs[queued % nsegs];
}

void segments_submit(void)
{
	pthread_mutex_lock(&lock);
	queued++;
	pthread_cond_signal(&work);
	pthread_mutex_unlock(&lock);
}

void segments_collect(bool all)
{
	if (!nworkers)
		return;
	while (deliver_oldest(all))
		;
}

uint64_t segments_stop(void)
{
	unsigned i;

	if (!nworkers)
		return 0;
	segments_collect(true);
	pthread_mutex_lock(&lock);
	stop = true;
	pthread_cond_broadcast(&work);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < nworkers; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < NSEG; i++)
		free(segs[i].out);
	nworkers = 0;
	return worker_cpu_ns;
}
