/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shipped.c: the shipped prototypes' captures, read from ltruss's compiled
 * table (conf/prototypes.tbl) mapped read-only, not from the session.
 *
 * ltruss used to copy the table's captures, their index and names (440
 * KiB) into the session at every start; now it checks the table, keeps it
 * open and names it in the session (struct ltr_shipped), and each process
 * maps it at attach: a file's pages from the page cache, shared, nothing
 * copied.  The session's own captures (a filter's prototypes) are looked
 * up first (lib/stubs.c), so that they win.
 *
 * Never trusted blindly: the descriptor must be the file ltruss opened
 * (inode, device, size), the sections must lie within it, and the table is
 * read only through process_vm_readv(2), which fails where a plain read
 * would fault (a table overwritten in place, cut short, while the program
 * runs).  A capture found is copied into the process's own memory, which
 * the hot path reads.  Without the table, functions trace on with
 * registers only, as functions without a prototype do, and the process
 * counts itself in the session (shipped_unmapped) for ltruss to say so:
 * nothing is written to the program's stderr.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "interposer.h"
#include "objects.h"

#define COPIES 4096 /* shipped captures a process binds, at most */

static struct ltr_shipped table; /* as the session named it at attach */
static uintptr_t table_map;      /* 0: no table */
/* The captures found, copied; copy_of[capture]: its copy + 1, 0 if none yet. */
static struct ltr_capture copies[COPIES];
static uint16_t copy_of[LTR_MAX_CAPTURES];
static uint32_t ncopies;

/* Is fd the table ltruss opened (arg: struct ltr_shipped)? */
static bool is_table(int fd, const void *arg)
{
	const struct ltr_shipped *t = arg;
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_ino == t->ino && (uint64_t)st.st_dev == t->dev &&
	       (uint64_t)st.st_size == t->size;
}

/* Do the sections t names lie within its file? */
static bool table_fits(const struct ltr_shipped *t)
{
	return t->ncaptures <= LTR_MAX_CAPTURES && t->nstrings &&
	       (uint64_t)t->captures +
			       (uint64_t)t->ncaptures * sizeof(struct ltr_capture) <=
		       t->size &&
	       (uint64_t)t->index + LTR_CAPTURE_HASH * sizeof(uint32_t) <=
		       t->size &&
	       (uint64_t)t->strings + t->nstrings <= t->size;
}

void ltr_shipped_map(struct ltr_session *s, long long pid, bool inherited)
{
	void *map;
	int fd;

	/* A copy: the program can write the session. */
	table = s->shipped;
	if (table.fd < 0)
		return;
	fd = -1;
	if (table_fits(&table)) {
		if (inherited && is_table(table.fd, &table))
			fd = table.fd;
		else
			fd = ltr_peer_open(pid, table.fd, O_RDONLY, is_table,
					   &table);
	}
	map = fd < 0 ? MAP_FAILED
		     : mmap(NULL, table.size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (map == MAP_FAILED) {
		__atomic_fetch_add(&s->shipped_unmapped, 1, __ATOMIC_RELAXED);
		return;
	}
	table_map = (uintptr_t)map;
}

/* Copy n bytes at offset off of the table into dst (pid: this process); false if they cannot be read. */
static bool table_read(long pid, void *dst, uint64_t off, size_t n)
{
	struct iovec local = { dst, n };
	struct iovec remote = { (void *)(table_map + off), n };

	if (off > table.size || n > table.size - off)
		return false;
	return ltr_syscall6(SYS_process_vm_readv, pid, (long)&local, 1,
			    (long)&remote, 1, 0) == (long)n;
}

/* Is the table's name at offset off name (len bytes with its NUL)? */
static bool name_is(long pid, uint32_t off, const char *name, size_t len)
{
	char buf[256];

	return len <= sizeof(buf) && off < table.nstrings &&
	       len <= table.nstrings - off &&
	       table_read(pid, buf, (uint64_t)table.strings + off, len) &&
	       !buf[len - 1] && ltr_strcmp(buf, name) == 0;
}

/*
 * Slots of the index read at once: a lookup reads them, then a capture
 * and its name per slot that holds one (two system calls, none for a
 * capture copied before).
 */
#define PROBES 16

const struct ltr_capture *ltr_shipped_find(const char *name, int32_t *number)
{
	uint32_t h = ltr_name_hash(name) & (LTR_CAPTURE_HASH - 1);
	uint32_t slots[PROBES], idx, n, k = PROBES, got = 0;
	size_t len = ltr_strlen(name) + 1;
	struct ltr_capture c;
	long pid;

	if (!table_map || !ltr_sys_ok(SYS_process_vm_readv) ||
	    !ltr_sys_ok(SYS_getpid))
		return NULL;
	pid = ltr_syscall3(SYS_getpid, 0, 0, 0);
	for (n = 0; n < LTR_CAPTURE_HASH; n++, k++, h = (h + 1) & (LTR_CAPTURE_HASH - 1)) {
		if (k >= got) { /* the next slots, up to the index's end */
			got = LTR_CAPTURE_HASH - h < PROBES ? LTR_CAPTURE_HASH - h
							    : PROBES;
			if (!table_read(pid, slots, table.index + (uint64_t)h * 4,
					got * 4))
				return NULL;
			k = 0;
		}
		idx = slots[k];
		if (!idx || idx > table.ncaptures)
			return NULL;
		if (copy_of[idx - 1])
			c = copies[copy_of[idx - 1] - 1];
		else if (!table_read(pid, &c,
				     table.captures + (uint64_t)(idx - 1) * sizeof(c),
				     sizeof(c)))
			return NULL;
		if (!name_is(pid, c.name, name, len))
			continue;
		*number = (int32_t)(idx - 1);
		if (!copy_of[idx - 1]) {
			if (ncopies >= COPIES)
				return NULL;
			copies[ncopies++] = c;
			copy_of[idx - 1] = (uint16_t)ncopies;
		}
		return &copies[copy_of[idx - 1] - 1];
	}
	return NULL;
}

uint32_t ltr_shipped_count(void)
{
	return table.fd >= 0 && table.ncaptures <= LTR_MAX_CAPTURES
		       ? table.ncaptures
		       : 0;
}
