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
 * (inode, device, size) and checked, the sections must lie within it,
 * and every index, offset and name read is bounded by them.  The table is
 * read in place, without a system call (lookups happen at binds, also in
 * programs under seccomp, and before the fault-tolerant copy is set up):
 * a file mapping like the interposer's own code, with the same exposure
 * (a file overwritten in place while a program runs: make and install
 * replace it instead).  Without the table, functions trace on with
 * registers only, as functions without a prototype do, and the process
 * counts itself in the session (shipped_unmapped) for ltruss to say so:
 * nothing is written to the program's stderr.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "interposer.h"
#include "objects.h"
#include "sys.h"

static struct ltr_shipped table; /* as the session named it at attach */
/* Its sections, once mapped (NULL before, and without it). */
static const struct ltr_capture *shipped_caps;
static const uint32_t *shipped_index;
static const char *shipped_strings;

/* Is fd the table ltruss opened (arg: struct ltr_shipped)? */
static bool is_table(int fd, const void *arg)
{
	const struct ltr_shipped *t = arg;
	struct stat st;

	return fd >= 0 && ltr_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (uint64_t)st.st_ino == t->ino && (uint64_t)st.st_dev == t->dev &&
	       (uint64_t)st.st_size == t->size;
}

/* Do the sections t names lie within its file? */
static bool table_fits(const struct ltr_shipped *t)
{
	return t->ncaptures <= LTR_MAX_CAPTURES && t->nstrings &&
	       t->captures % 8 == 0 && t->index % 4 == 0 &&
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
		     : ltr_mmap(NULL, table.size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		ltr_close(fd);
	/* Its names end with a NUL: a name read stops within them. */
	if (!ltr_map_error(map) &&
	    ((const char *)map)[table.strings + table.nstrings - 1] != '\0') {
		ltr_munmap(map, table.size);
		map = MAP_FAILED;
	}
	if (ltr_map_error(map)) {
		__atomic_fetch_add(&s->shipped_unmapped, 1, __ATOMIC_RELAXED);
		return;
	}
	shipped_index = (const uint32_t *)((const char *)map + table.index);
	shipped_strings = (const char *)map + table.strings;
	shipped_caps = (const struct ltr_capture *)((const char *)map +
						    table.captures);
}

/* Is the table's name at offset off name (len bytes with its NUL)? */
static bool name_is(uint32_t off, const char *name, size_t len)
{
	return off < table.nstrings && len <= table.nstrings - off &&
	       ltr_strcmp(shipped_strings + off, name) == 0;
}

const struct ltr_capture *ltr_shipped_find(const char *name, uint32_t hash,
					   int32_t *number)
{
	uint32_t h = hash & (LTR_CAPTURE_HASH - 1), n, idx;
	size_t len = ltr_strlen(name) + 1;

	if (!shipped_caps)
		return NULL;
	for (n = 0; n < LTR_CAPTURE_HASH && (idx = shipped_index[h]) != 0;
	     n++, h = (h + 1) & (LTR_CAPTURE_HASH - 1)) {
		if (idx > table.ncaptures)
			return NULL;
		if (name_is(shipped_caps[idx - 1].name, name, len)) {
			*number = (int32_t)(idx - 1);
			return &shipped_caps[idx - 1];
		}
	}
	return NULL;
}

uint32_t ltr_shipped_count(void)
{
	return table.fd >= 0 && table.ncaptures <= LTR_MAX_CAPTURES
		       ? table.ncaptures
		       : 0;
}
