/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c: the trace's destination, and the one report of a failed write. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"
#include "output.h"
#include "writer.h"
#include "xmalloc.h"

/*
 * Trace lines are formatted straight into big blocks (output.h), with no
 * stdio in between: the formatters write each value in place, and a full
 * block is handed to a thread of its own (writer.c) that does the
 * write(2), by a swap of pointers, while the reader fills the next one.
 * A flush when the program pauses hands the block over at once.  Before,
 * each line was built in a buffer of its own, copied into stdio's, and
 * stdio's copied into the writer's: three copies of every byte where
 * there is now one, the kernel's.
 *
 * What else is written to the trace (the summary, -k's frames, the exit
 * lines) goes through the stdio stream output_open() returns, a cookie
 * stream without a buffer of its own whose write appends to the same
 * block: one buffer, so the order is the order of the calls, whoever
 * writes.  The writer keeps the reason of the first failed write, to be
 * reported once however the blocks fell: a full disk must still be
 * reported as "No space left on device".  A forked child of ltruss (the
 * console of -i) has no writer: should it hand a block over, it writes it
 * itself, and learns at once if that failed.
 *
 * A block is handed over once the next line might not fit (output_room
 * asks for the longest line, 128 KiB for text, 64 KiB a piece of JSON):
 * blocks of 384 to 512 KiB.  Not more: the kernel copies the block while
 * it is still in this core's cache; with 1 MiB blocks a --json trace of
 * the loop took 40 % longer (medians of 7, interleaved, load 2 to 4).
 *
 * Without -o the trace goes to stderr through stdio, as ltruss's warnings
 * do: each line is passed to stdio when it ends (output_line_end), so that
 * a warning never overtakes a line written before it.  --read, which runs
 * no program whose output could mix with the trace, writes it to stdout
 * instead (as uftrace replay and perf script do): the same way.
 */
#define OUTPUT_BLOCK (512u << 10)

/*
 * The -o file's blocks are reserved ahead of the writes, OUTPUT_RESERVE
 * at a time (fallocate, FALLOC_FL_KEEP_SIZE: the size still grows with
 * each write, a reader sees nothing new), once the trace has passed
 * OUTPUT_RESERVE_AFTER: ext4 then allocates a block per reservation, not
 * one per page written.  Measured (a VM, ext4, 1.78 GB in 512 KiB
 * writes, 5 runs each, interleaved): the writes' system time 1.22 s
 * without, 0.39 s with (median).  A --json trace of the loop writes 89
 * bytes an event: that was most of what it cost.  What is reserved and
 * not written is released when the file is closed; a file system that
 * cannot (a pipe, /dev/null, NFS) is asked once.
 */
#define OUTPUT_RESERVE (16u << 20)
#define OUTPUT_RESERVE_AFTER (1u << 20)

__thread struct output_block output_block;
static struct writer writer;
static size_t stdio_size; /* bytes of stdio_out's buffer (output_pass) */
static int reserve_fd = -1;   /* the -o file while reservations work */
static pid_t reserve_pid;     /* the process that reserves (not a forked child) */
static off_t handed, reserved; /* bytes given to the writer, and reserved */
static FILE *stdio_out; /* without -o: stderr, or stdout (--read) */
static bool shares_stderr; /* the trace reaches where ltruss's warnings go */

/* n more bytes go to the -o file: reserve its blocks ahead of them. */
static void output_reserve(size_t n)
{
	handed += (off_t)n;
	if (reserve_fd < 0 || handed <= reserved ||
	    handed < OUTPUT_RESERVE_AFTER)
		return;
	if (reserved < handed - (off_t)n)
		reserved = handed - (off_t)n;
	if (getpid() != reserve_pid ||
	    fallocate(reserve_fd, FALLOC_FL_KEEP_SIZE, reserved,
		      OUTPUT_RESERVE) != 0) {
		reserve_fd = -1;
		return;
	}
	reserved += OUTPUT_RESERVE;
}

/*
 * The -o file is complete: what was reserved past its end, released by
 * setting its size to what it is (a hole punched past the end is not
 * one file systems free).
 */
static void output_unreserve(void)
{
	struct stat st;

	/* Only by the process that writes it: a child's count is not the file's. */
	if (reserve_fd >= 0 && reserved > handed && getpid() == reserve_pid &&
	    fstat(reserve_fd, &st) == 0 && ftruncate(reserve_fd, st.st_size) != 0) {
		/* Nothing lost: the blocks stay reserved, the file whole. */
	}
	reserve_fd = -1;
}

/* A worker's block (collect) takes n bytes more: it grows, its lines kept. */
static __attribute__((noinline)) char *output_grow(size_t n)
{
	size_t size = 2 * output_block.size;

	while (size < output_block.len + n)
		size *= 2;
	output_block.buf = xrealloc(output_block.buf, size);
	output_block.size = size;
	return output_block.buf + output_block.len;
}

char *output_room_slow(size_t n)
{
	if (output_block.collect)
		return output_grow(n);
	/* n at most OUTPUT_ROOM_MAX: an empty block has room */
	if (output_block.to_stdio)
		output_pass();
	else if (output_block.len) {
		output_reserve(output_block.len);
		output_block.buf = writer_swap(&writer, output_block.buf,
					       output_block.len);
	}
	output_block.len = 0;
	return output_block.buf;
}

/*
 * Hand the block's lines to stdio.  stdio writes its buffer when the next
 * bytes do not fit, cut wherever it is full: in the middle of a line, and
 * a warning the traced program's interposer writes to the same stderr at
 * that moment lands inside the line (a --json -k run of calls nesting past
 * 1024 made invalid JSON one time in five).  So once a line has ended and
 * less than a quarter of the buffer is left, the buffer goes out, whole
 * lines only: a line shorter than that quarter (64 KiB) is never cut.
 */
void output_pass(void)
{
	bool line_ended = output_block.len &&
			  output_block.buf[output_block.len - 1] == '\n';

	fwrite_unlocked(output_block.buf, 1, output_block.len, stdio_out);
	output_block.len = 0;
	if (line_ended && __fpending(stdio_out) > stdio_size - stdio_size / 4)
		fflush_unlocked(stdio_out);
}

void output_flush(void)
{
	if (output_block.collect)
		return; /* a worker's lines: the reader's thread writes them */
	if (output_block.to_stdio) {
		output_pass();
		fflush(stdio_out);
	} else if (output_block.len) {
		output_reserve(output_block.len);
		output_block.buf = writer_flush(&writer, output_block.buf,
						output_block.len);
		output_block.len = 0;
	}
}

/* The -o stream's write: buf appended to the block, as a formatter would. */
static ssize_t file_write(void *cookie, const char *buf, size_t len)
{
	size_t done, k;

	(void)cookie;
	for (done = 0; done < len; done += k) {
		k = len - done < OUTPUT_ROOM_MAX ? len - done : OUTPUT_ROOM_MAX;
		output_mem(buf + done, k);
	}
	/* The error first: writer_running() asks getpid(), a system call. */
	if (writer_error(&writer) && !writer_running(&writer))
		return -1;
	return (ssize_t)len;
}

/*
 * At exit (ltruss dies of an error mid-trace, error_msg_and_die): what was
 * printed so far reaches the file, as it reaches stderr, before the
 * writer thread goes with the process.
 */
static void output_at_exit(void)
{
	if (writer_running(&writer)) {
		/* The rest written here: no thread started at exit just for it. */
		writer_stop(&writer);
		output_flush();
	}
	output_unreserve();
}

/* The -o stream's close: the writer done, the last block written, the file closed. */
static int file_close(void *cookie)
{
	writer_stop(&writer);
	output_flush();
	output_unreserve();
	return close((int)(intptr_t)cookie);
}

/* Are descriptors a and b the same open file (2>&1), or the same terminal? */
static bool same_file(int a, int b)
{
	struct stat x, y;

	return fstat(a, &x) == 0 && fstat(b, &y) == 0 &&
	       x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

bool output_shares_stderr(void)
{
	return shares_stderr;
}

FILE *output_open(const char *file, FILE *std)
{
	static char buffer[1 << 18];
	cookie_io_functions_t io = { .write = file_write, .close = file_close };
	FILE *out = std;
	int fd;

	output_block.size = OUTPUT_BLOCK;
	output_block.buf = xmalloc(OUTPUT_BLOCK);
	if (!file) {
		shares_stderr = std == stderr || same_file(fileno(std), 2);
		/*
		 * Whole lines, written in big blocks, flushed when the
		 * program pauses.  The buffer must be given: with NULL,
		 * glibc ignores the size and writes 8 KiB at a time.
		 */
		setvbuf(out, buffer, _IOFBF, sizeof(buffer));
		stdio_size = sizeof(buffer);
		output_block.to_stdio = true;
		stdio_out = out;
		return out;
	}
	fd = outfile_open(file, 0666, "-o");
	if (fd < 0)
		perror_msg_and_die("cannot write the trace to '%s' (-o)", file);
	out = fopencookie((void *)(intptr_t)fd, "w", io);
	if (!out)
		perror_msg_and_die("cannot write the trace to '%s' (-o)", file);
	/* Unbuffered: every byte goes to the block at once, in order. */
	setvbuf(out, NULL, _IONBF, 0);
	writer_start(&writer, fd, OUTPUT_BLOCK);
	reserve_fd = fd;
	reserve_pid = getpid();
	atexit(output_at_exit);
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
 * Flush and close the trace (file is -o's, or NULL for stderr or stdout).  When some
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
	else if (out == stdout)
		snprintf(where, sizeof(where), "stdout");
	if (output_unread(out)) {
		if (file)
			fclose(out);
		return;
	}
	/* The last block is written here: no thread started just for it. */
	if (out != stderr)
		writer_stop(&writer);
	output_flush();
	failed = fflush(out) != 0;
	if (file && fclose(out) != 0)
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
