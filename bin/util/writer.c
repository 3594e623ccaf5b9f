/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer.c: a thread that writes a file's blocks while ltruss goes on.
 *
 * A full trace (-o) or recording (-w) writes hundreds of megabytes, and
 * the kernel's copy into the page cache is time the reader would not
 * spend draining the rings.  So the write(2) is done by a thread of its
 * own: the reader hands a block over (a copy, or for a buffer of the
 * writer's size a swap of pointers) and goes on filling the next one
 * while the writer writes it.  With one block in flight, blocks keep
 * their order, and a handover waits only while the previous block is
 * still being written.
 *
 * After a failed write (a full disk) the writer writes nothing more: a
 * file that stops at its first failure still reads up to there, where a
 * later block written after a freed byte or two would leave a hole.  The
 * first failure's errno is kept for the one message the caller prints.
 * The writer takes no signal.  A forked child of ltruss (the console of
 * -i) has no writer thread, nor may the lock be free there: what it
 * hands over, it writes itself.
 *
 * The thread starts at the first handover of a full block, not at
 * writer_start(): most runs are short, and their whole trace is the last
 * block, which the caller writes itself after writer_stop().  A block
 * flushed while the program pauses (writer_flush) is written by the
 * caller too until then: the reader had nothing else to do, and a
 * program that ran a little longer (jq -n 1 traced to a file) paid for
 * the thread's start and end, a few hundred microseconds, for one write.  Starting it early also cost
 * more than the thread: a process with a second thread shares its file
 * table, and the kernel makes the growth of a shared table wait for an RCU
 * grace period (expand_fdtable: synchronize_rcu), 10 to 40 ms on a busy
 * machine.  The session's descriptor is moved up to 700 (fd_move_high)
 * after -o opened its file: that one dup was most of what -o added to a
 * short run.  A thread that fails to start is no error: the owner writes
 * every block itself, as a forked child does.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fd-util.h"
#include "writer.h"
#include "xmalloc.h"

/* The writer thread: write each block handed over, until told to stop. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	int err;

	/* Its own name, so that top and perf tell it from the reader. */
	pthread_setname_np(pthread_self(), "ltruss-writer");
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->len && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->len)
			break;
		err = w->err;
		pthread_mutex_unlock(&w->lock);
		if (!err)
			err = fd_write_all(w->fd, w->buf, w->len);
		pthread_mutex_lock(&w->lock);
		/* Read without the lock by writer_error(). */
		__atomic_store_n(&w->err, err, __ATOMIC_RELAXED);
		w->len = 0;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

void writer_start(struct writer *w, int fd, size_t size)
{
	*w = (struct writer){ .fd = fd, .size = size,
			      .buf = size ? xmalloc(size) : NULL };
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->owner = getpid();
}

/* Start the thread at the first handover; false if it could not start. */
static bool writer_launch(struct writer *w)
{
	sigset_t all, old;

	if (w->started)
		return true;
	if (w->failed)
		return false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->started = pthread_create(&w->thread, NULL, writer_main, w) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	w->failed = !w->started;
	return w->started;
}

bool writer_running(const struct writer *w)
{
	return w->owner && w->owner == getpid();
}

/* In a process without the thread (a forked child): write buf at once. */
static void write_here(struct writer *w, const void *buf, size_t len)
{
	if (!w->err)
		w->err = fd_write_all(w->fd, buf, len);
}

/* Wait until the writer is free; with the lock held. */
static void writer_wait(struct writer *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->len)
		pthread_cond_wait(&w->cond, &w->lock);
}

/* Hand the len bytes now in w->buf over; with the lock held, released. */
static void writer_hand(struct writer *w, size_t len)
{
	w->len = len;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void writer_copy(struct writer *w, const void *buf, size_t len)
{
	if (!len)
		return;
	if (!writer_running(w) || !writer_launch(w)) {
		write_here(w, buf, len);
		return;
	}
	writer_wait(w);
	if (len > w->size) {
		free(w->buf);
		w->buf = xmalloc(len);
		w->size = len;
	}
	memcpy(w->buf, buf, len);
	writer_hand(w, len);
}

void *writer_swap(struct writer *w, void *buf, size_t len)
{
	void *spare;

	if (!len)
		return buf;
	if (!writer_running(w) || !writer_launch(w)) {
		write_here(w, buf, len);
		return buf;
	}
	writer_wait(w);
	spare = w->buf;
	w->buf = buf;
	writer_hand(w, len);
	return spare;
}

void *writer_flush(struct writer *w, void *buf, size_t len)
{
	if (!len || w->started)
		return writer_swap(w, buf, len);
	write_here(w, buf, len);
	return buf;
}

int writer_error(const struct writer *w)
{
	return __atomic_load_n(&w->err, __ATOMIC_RELAXED);
}

int writer_sync(struct writer *w)
{
	if (!writer_running(w) || !w->started)
		return w->err;
	writer_wait(w);
	pthread_mutex_unlock(&w->lock);
	return w->err;
}

int writer_stop(struct writer *w)
{
	if (!writer_running(w))
		return w->err;
	if (w->started) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		w->started = false;
	}
	w->owner = 0;
	free(w->buf);
	w->buf = NULL;
	w->size = 0;
	return w->err;
}
