/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c: the trace's destination, and the one report of a failed write. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "fd-util.h"
#include "output.h"
#include "xmalloc.h"

/*
 * The -o file is a stdio stream over our own write function, so that the
 * reason of the first failed write is kept.  stdio flushes whenever its
 * buffer fills or ltruss idles, so by the time the trace is closed the
 * failure may lie far back and errno says nothing about it any more; a
 * full disk must still be reported as "No space left on device", however
 * the flushes fell.
 *
 * The write(2) itself is done by a thread of its own: a full trace writes
 * hundreds of megabytes, and the kernel's copy into the page cache is
 * time the reader would not spend draining the rings.  stdio's buffer is
 * copied into the writer's (a memcpy is a fraction of a write) and the
 * writer writes it while the reader formats the next one; with one block
 * in flight, lines keep their order, and a flush when the program pauses
 * reaches the file at once, as before.  The writer takes no signal.  A
 * forked child of ltruss (the console of -i) has no writer: should it
 * flush the stream, it writes itself.
 */
static struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	char *buf;         /* the block handed over */
	size_t len, size;  /* len 0: the writer is free */
	bool stop;
	bool running;      /* in this process: not in a forked child */
} writer = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

static int first_write_errno; /* the writer's; read once it has ended */

/* Write all of buf to fd, keeping the reason of the first failure. */
static void write_all(int fd, const char *buf, size_t len)
{
	int err = fd_write_all(fd, buf, len);

	if (err && !first_write_errno)
		first_write_errno = err;
}

/* The writer thread: write each block handed over, until told to stop. */
static void *writer_main(void *arg)
{
	(void)arg;
	/* Its own name, so that top and perf tell it from the reader. */
	pthread_setname_np(pthread_self(), "ltruss-writer");
	pthread_mutex_lock(&writer.lock);
	for (;;) {
		while (!writer.len && !writer.stop)
			pthread_cond_wait(&writer.cond, &writer.lock);
		if (!writer.len)
			break;
		pthread_mutex_unlock(&writer.lock);
		write_all(writer.fd, writer.buf, writer.len);
		pthread_mutex_lock(&writer.lock);
		writer.len = 0;
		pthread_cond_broadcast(&writer.cond);
	}
	pthread_mutex_unlock(&writer.lock);
	return NULL;
}

/* stdio's write for the -o file: buf handed to the writer once it is free. */
static ssize_t file_write(void *cookie, const char *buf, size_t len)
{
	if (!writer.running) {
		write_all((int)(intptr_t)cookie, buf, len);
		return first_write_errno ? -1 : (ssize_t)len;
	}
	pthread_mutex_lock(&writer.lock);
	while (writer.len)
		pthread_cond_wait(&writer.cond, &writer.lock);
	if (len > writer.size) {
		free(writer.buf);
		writer.buf = xmalloc(len);
		writer.size = len;
	}
	memcpy(writer.buf, buf, len);
	writer.len = len;
	pthread_cond_broadcast(&writer.cond);
	pthread_mutex_unlock(&writer.lock);
	return (ssize_t)len;
}

/* stdio's close for the -o file: the writer finishes, then the file is closed. */
static int file_close(void *cookie)
{
	if (!writer.running)
		return close((int)(intptr_t)cookie);
	pthread_mutex_lock(&writer.lock);
	writer.stop = true;
	pthread_cond_broadcast(&writer.cond);
	pthread_mutex_unlock(&writer.lock);
	pthread_join(writer.thread, NULL);
	writer.running = false;
	free(writer.buf);
	writer.buf = NULL;
	writer.size = 0;
	return close((int)(intptr_t)cookie);
}

/* In a forked child: the writer thread is not there, nor may its lock be free. */
static void writer_forked(void)
{
	writer.running = false;
}

/* Start the writer thread for fd, with every signal blocked in it. */
static void writer_start(int fd)
{
	sigset_t all, old;
	int err;

	writer.fd = fd;
	pthread_atfork(NULL, NULL, writer_forked);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&writer.thread, NULL, writer_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		perror_msg_and_die("cannot start the thread that writes the trace (-o)");
	}
	writer.running = true;
}

FILE *output_open(const char *file)
{
	static char buffer[1 << 18];
	cookie_io_functions_t io = { .write = file_write, .close = file_close };
	FILE *out = stderr;
	int fd;

	if (file) {
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			perror_msg_and_die("cannot write the trace to '%s' (-o)",
					   file);
		out = fopencookie((void *)(intptr_t)fd, "w", io);
		if (!out)
			perror_msg_and_die("cannot write the trace to '%s' (-o)",
					   file);
		writer_start(fd);
	}
	/*
	 * Whole lines, written in big blocks, flushed when the program
	 * pauses.  The buffer must be given: with NULL, glibc ignores the
	 * size and writes 8 KiB at a time.  256 KiB, not more: each block
	 * is copied to the writer (file_write) while it is still in this
	 * core's cache; from a 1 MiB one, that copy was 28 % slower.
	 */
	setvbuf(out, buffer, _IOFBF, sizeof(buffer));
	return out;
}

/* Has the reader of out (a pipe, a socket) gone away? */
static bool output_unread(FILE *out)
{
	struct pollfd p = { .fd = fileno(out), .events = 0 };

	/* A cookie stream has no descriptor: it is a file, never unread. */
	if (p.fd < 0)
		return false;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/*
 * Flush and close the trace (file is -o's, or NULL for stderr).  When some
 * of it could not be written (a full disk), say so with the first reason;
 * the program ran unharmed, so its exit status still stands.  A reader that
 * went away (`| head`) is no error: nobody wants the rest, as with strace.
 */
void output_close(FILE *out, const char *file)
{
	bool lost = ferror(out);
	char where[PATH_MAX + 16] = "stderr";
	bool failed;

	if (file)
		snprintf(where, sizeof(where), "'%s' (-o)", file);
	if (output_unread(out)) {
		if (out != stderr)
			fclose(out);
		return;
	}
	failed = fflush(out) != 0;
	if (out != stderr && fclose(out) != 0)
		failed = true;
	if (first_write_errno) {
		errno = first_write_errno;
		perror_msg("cannot write the trace to %s", where);
	} else if (failed) {
		perror_msg("cannot write the trace to %s", where);
	} else if (lost) {
		error_msg("cannot write all of the trace to %s: a write failed", where);
	}
}
