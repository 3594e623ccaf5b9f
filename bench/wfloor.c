// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wfloor.c: what writing a trace file costs at the least, for bench/run's
 * consumer bench: the CPU (user and system) the kernel takes to put the
 * bytes of a file ltruss just wrote with -o into a new file, written the
 * way ltruss writes them (bin/format/output.c): blocks of whole lines
 * from a 512 KiB buffer, each handed over once the next line might not
 * fit (the room a text line asks for, 128.5 KiB, or a piece of JSON,
 * 64 KiB: blocks of 384 to 512 KiB), the file's blocks reserved 16 MiB
 * at a time once it passed 1 MiB (fallocate, FALLOC_FL_KEEP_SIZE),
 * released at the end.  FILE itself is removed first, once its block
 * sizes and first block are read: written on top of ltruss's file, the
 * copy met a page cache that already held 1.8 GB more (the loop's --json
 * trace), and cost 3x ltruss's whole CPU; without it, it meets the page
 * cache ltruss met.  The copy writes the first block's bytes in each of
 * FILE's block sizes (the kernel's work does not depend on the bytes).
 * Only those calls are timed (the thread's CPU clock around each): not
 * reading FILE, which stands for ltruss's formatting.  The copy,
 * FILE.wfloor, is removed at the end.
 * Usage: wfloor FILE EVENTS text|json; prints the ns an event.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (512u << 10)          /* OUTPUT_BLOCK */
#define ROOM_TEXT (8u * (4 * 4096 + 64)) /* TEXT_LINE_MAX */
#define ROOM_JSON (1u << 16)        /* OBJ_PIECE */
#define RESERVE (16u << 20)         /* OUTPUT_RESERVE */
#define RESERVE_AFTER (1u << 20)    /* OUTPUT_RESERVE_AFTER */

static double cpu_ns; /* the CPU of the timed calls so far */
static int reserving = 1; /* until a file system cannot (as output.c) */

/* The thread's CPU time, in ns. */
static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Exit with a message when a call failed. */
static void check(int failed, const char *what)
{
	if (failed) {
		perror(what);
		exit(1);
	}
}

/* Write len bytes of buf to fd as writer.c does, reserving ahead as output.c does. */
static void block_write(int fd, const char *buf, size_t len, off_t *handed, off_t *reserved)
{
	double t0 = thread_ns();
	ssize_t n;

	*handed += (off_t)len;
	if (reserving && *handed > *reserved && *handed >= RESERVE_AFTER) {
		if (*reserved < *handed - (off_t)len)
			*reserved = *handed - (off_t)len;
		reserving = fallocate(fd, FALLOC_FL_KEEP_SIZE, *reserved, RESERVE) == 0;
		*reserved += reserving ? RESERVE : 0;
	}
	for (; len; buf += n, len -= (size_t)n) {
		n = write(fd, buf, len);
		check(n <= 0, "wfloor: write");
	}
	cpu_ns += thread_ns() - t0;
}

/* The end of the block that starts at p: the line that starts past the room ends it. */
static const char *block_end(const char *p, const char *end, size_t room)
{
	const char *nl;

	if ((size_t)(end - p) <= BLOCK - room)
		return end;
	nl = memchr(p + (BLOCK - room), '\n', (size_t)(end - p) - (BLOCK - room));
	if (!nl || (size_t)(nl + 1 - p) > BLOCK)
		return p + ((size_t)(end - p) < BLOCK ? (size_t)(end - p) : BLOCK);
	return nl + 1;
}

int main(int argc, char **argv)
{
	char *copy, *buf = malloc(BLOCK);
	const char *src, *p, *q;
	size_t room, nblocks = 0, *sizes, i;
	struct stat st;
	off_t handed = 0, reserved = 0;
	double t0, events;
	int in, fd;

	if (argc != 4 || (strcmp(argv[3], "text") && strcmp(argv[3], "json")) ||
	    (events = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: wfloor FILE EVENTS text|json\n");
		return 2;
	}
	room = strcmp(argv[3], "text") == 0 ? ROOM_TEXT : ROOM_JSON;
	in = open(argv[1], O_RDONLY);
	check(in < 0 || fstat(in, &st) != 0 || !buf, argv[1]);
	sizes = malloc(((size_t)st.st_size / (BLOCK - room) + 2) * sizeof(*sizes));
	src = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, in, 0) : "";
	check(!sizes || src == MAP_FAILED, "wfloor: mmap");
	for (p = src; p < src + st.st_size; p = q) {
		q = block_end(p, src + st.st_size, room);
		sizes[nblocks++] = (size_t)(q - p);
	}
	memcpy(buf, src, nblocks ? sizes[0] : 0);
	check((st.st_size && munmap((void *)src, (size_t)st.st_size) != 0) ||
	      close(in) != 0 || unlink(argv[1]) != 0, argv[1]);
	check(asprintf(&copy, "%s.wfloor", argv[1]) < 0, "wfloor: asprintf");
	t0 = thread_ns();
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	cpu_ns += thread_ns() - t0;
	check(fd < 0, copy);
	for (i = 0; i < nblocks; i++)
		block_write(fd, buf, sizes[i], &handed, &reserved);
	t0 = thread_ns();
	check((reserved > handed && ftruncate(fd, st.st_size) != 0) || close(fd) != 0, copy);
	cpu_ns += thread_ns() - t0;
	unlink(copy);
	printf("%.1f\n", cpu_ns / events);
	return 0;
}
