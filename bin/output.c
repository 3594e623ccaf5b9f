/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c: the trace's destination, and the one report of a failed write. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "output.h"
#include "writer.h"

/*
 * The -o file is a stdio stream over our own write function, so that the
 * reason of the first failed write is kept.  stdio flushes whenever its
 * buffer fills or ltruss idles, so by the time the trace is closed the
 * failure may lie far back and errno says nothing about it any more; a
 * full disk must still be reported as "No space left on device", however
 * the flushes fell.
 *
 * The write(2) itself is done by a thread of its own (writer.c): stdio's
 * buffer is copied into the writer's (a memcpy is a fraction of a write)
 * and the writer writes it while the reader formats the next one; a flush
 * when the program pauses reaches the file at once, as before.  A forked
 * child of ltruss (the console of -i) has no writer: should it flush the
 * stream, it writes itself, and learns at once if that failed.
 */
static struct writer writer;

/* stdio's write for the -o file: buf handed to the writer once it is free. */
static ssize_t file_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	writer_copy(&writer, buf, len);
	if (!writer_running(&writer) && writer_error(&writer))
		return -1;
	return (ssize_t)len;
}

/* stdio's close for the -o file: the writer finishes, then the file is closed. */
static int file_close(void *cookie)
{
	writer_stop(&writer);
	return close((int)(intptr_t)cookie);
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
		writer_start(&writer, fd, 0, "-o");
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
	if (writer_error(&writer)) {
		errno = writer_error(&writer);
		perror_msg("cannot write the trace to %s", where);
	} else if (failed) {
		perror_msg("cannot write the trace to %s", where);
	} else if (lost) {
		error_msg("cannot write all of the trace to %s: a write failed", where);
	}
}
