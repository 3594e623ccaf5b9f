/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps.c: the mappings of the process, as /proc/self/maps lists them.
 *
 * Read with raw system calls into a buffer the caller gives (on the stack,
 * or mapped where the stack may be small): after start-up the interposer
 * uses neither stdio nor malloc of its own namespace (a fork of a
 * threaded program could find their locks held).
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"
#include "process.h"

/* Parse the hexadecimal number at *p, before end, moving *p past it. */
static uintptr_t parse_hex(const char **p, const char *end)
{
	uintptr_t v = 0;

	for (; *p < end; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (uintptr_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uintptr_t)(c - 'a' + 10);
		else
			break;
	}
	return v;
}

/*
 * Parse the line [p, end), "lo-hi perms offset dev inode [path]", into m;
 * false if it is not one.
 */
static bool line_parse(const char *p, const char *end, struct ltr_mapping *m)
{
	int field;

	m->lo = parse_hex(&p, end);
	if (p >= end || *p++ != '-')
		return false;
	m->hi = parse_hex(&p, end);
	if (p + 5 > end || *p++ != ' ')
		return false;
	m->readable = p[0] == 'r';
	m->writable = p[1] == 'w';
	m->private = p[3] == 'p';
	/* The path is the sixth field. */
	for (field = 1; field < 5 && p < end; field += *p++ == ' ')
		;
	while (p < end && *p == ' ')
		p++;
	m->device = end - p > 5 && ltr_strncmp(p, "/dev/", 5) == 0;
	return true;
}

bool ltr_maps_walk(bool (*fn)(const struct ltr_mapping *m, void *arg),
		   void *arg, char *buf, size_t size)
{
	size_t have = 0;
	bool go = true;
	struct ltr_mapping m;
	long fd, got;

	fd = ltr_syscall3(SYS_open, (long)"/proc/self/maps",
			  O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	while (go) {
		const char *p = buf, *end, *nl;

		got = ltr_syscall3(SYS_read, fd, (long)buf + (long)have,
				   (long)(size - have));
		if (got == -4 /* EINTR */)
			continue;
		if (got <= 0)
			break;
		end = buf + have + got;
		/* Each whole line; a partial one moves to the front. */
		for (; go && (nl = p) < end; p = nl + 1) {
			while (nl < end && *nl != '\n')
				nl++;
			if (nl == end)
				break;
			if (line_parse(p, nl, &m))
				go = fn(&m, arg);
		}
		have = (size_t)(end - p);
		if (have == size)
			have = 0; /* a line longer than the buffer: dropped */
		for (got = 0; got < (long)have; got++)
			buf[got] = p[got];
	}
	ltr_syscall3(SYS_close, fd, 0, 0);
	return got >= 0;
}

/* ltr_maps_find's walk: stop at the mapping that holds the address. */
static bool find_at(const struct ltr_mapping *m, void *arg)
{
	struct ltr_mapping *want = arg;

	if (want->lo < m->lo || want->lo >= m->hi)
		return true;
	*want = *m; /* found: hi > lo */
	return false;
}

bool ltr_maps_find(uintptr_t addr, struct ltr_mapping *m)
{
	struct ltr_scratch buf; /* off the stack: the clone hook's may be small */

	m->lo = addr;
	m->hi = 0;
	if (!ltr_scratch_take(&buf, 4096))
		return false;
	ltr_maps_walk(find_at, m, buf.p, 4096);
	ltr_scratch_give(&buf);
	return m->hi != 0;
}
