/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * maps.c: find the mapping that holds an address in /proc/self/maps.
 *
 * Read with raw system calls into a buffer on the stack: after start-up
 * the interposer uses neither stdio nor malloc of its own namespace (a
 * fork of a threaded program could find their locks held).
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

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

/* Does the line [p, end) ("lo-hi perms ...") map addr?  Fill m if so. */
static bool line_maps(const char *p, const char *end, uintptr_t addr,
		      struct ltr_mapping *m)
{
	uintptr_t lo = parse_hex(&p, end), hi;

	if (p >= end || *p++ != '-')
		return false;
	hi = parse_hex(&p, end);
	if (p + 3 > end || *p++ != ' ' || addr < lo || addr >= hi)
		return false;
	m->lo = lo;
	m->hi = hi;
	m->writable = p[1] == 'w';
	return true;
}

bool ltr_maps_find(uintptr_t addr, struct ltr_mapping *m)
{
	char buf[4096];
	size_t have = 0;
	bool found = false;
	long fd, got;

	fd = ltr_syscall3(SYS_open, (long)"/proc/self/maps",
			  O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	while (!found) {
		const char *p = buf, *end, *nl;

		got = ltr_syscall3(SYS_read, fd, (long)buf + (long)have,
				   (long)(sizeof(buf) - have));
		if (got == -4 /* EINTR */)
			continue;
		if (got <= 0)
			break;
		end = buf + have + got;
		/* Each whole line; a partial one moves to the front. */
		for (; !found && (nl = p) < end; p = nl + 1) {
			while (nl < end && *nl != '\n')
				nl++;
			if (nl == end)
				break;
			found = line_maps(p, nl, addr, m);
		}
		have = (size_t)(end - p);
		if (have == sizeof(buf))
			have = 0; /* a line longer than the buffer: dropped */
		for (got = 0; got < (long)have; got++)
			buf[got] = p[got];
	}
	ltr_syscall3(SYS_close, fd, 0, 0);
	return found;
}
