/* SPDX-License-Identifier: GPL-2.0-or-later */
/* writer.h: a thread that writes a file's blocks while ltruss goes on. */
#ifndef LTRUSS_WRITER_H
#define LTRUSS_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One file's writer, with at most one block in flight. */
struct writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	void *buf;        /* the block handed over, or the spare buffer */
	size_t len, size; /* len 0: the writer is free */
	int err;          /* the errno of the first failed write, or 0 */
	bool stop;
	bool started;     /* the thread runs (from the first handover) */
	bool failed;      /* it could not start: the owner writes */
	pid_t owner;      /* the process whose thread it is; 0: none */
};

/*
 * Set up a writer for fd, with a spare buffer of size bytes for
 * writer_swap(); its thread, with every signal blocked, starts at the
 * first handover.
 */
void writer_start(struct writer *w, int fd, size_t size);

/* Does this process run w's thread? (A forked child of ltruss does not.) */
bool writer_running(const struct writer *w);

/* Copy len bytes of buf into w's buffer and hand them over. */
void writer_copy(struct writer *w, const void *buf, size_t len);

/*
 * Hand buf (len bytes, of w's spare size) over without a copy; returns
 * the writer's previous buffer, now free, of the same size, to fill next.
 */
void *writer_swap(struct writer *w, void *buf, size_t len);

/*
 * Flush buf (len bytes, of w's spare size) as the program pauses: written
 * at once while the thread has not started, else as writer_swap() does;
 * returns the buffer to fill next.
 */
void *writer_flush(struct writer *w, void *buf, size_t len);

/* The errno of the first write that failed so far, or 0 (no waiting). */
int writer_error(const struct writer *w);

/* Wait until what was handed over is written; returns writer_error(). */
int writer_sync(struct writer *w);

/*
 * Write what was handed over and end the thread; returns writer_error().
 * What is handed over after it is written at once, by the caller.
 */
int writer_stop(struct writer *w);

#endif
