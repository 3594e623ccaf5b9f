/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perfmap.c: -k, names of generated code from the perf map files JIT
 * runtimes write (/tmp/perf-PID.map: Node's --perf-basic-prof, Java
 * agents, Python 3.12's -X perf): a line "START SIZE NAME" (hex, hex,
 * the rest of the line) per piece of code.
 *
 * A frame whose address lies in no object is looked up in its process's
 * file.  A runtime appends as it compiles, and may put new code where old
 * code was: the file is read again when it has grown since, and a later
 * line covering an address wins over an earlier one.  Each reading gets
 * a path string of its own, which format-stack.c keys its names by, so a
 * name made from an older reading is never given to a newer one's code.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfmap.h"
#include "xmalloc.h"

/* One line of a map. */
struct sym {
	uint64_t start, size;
	size_t line; /* its line number: of two lines covering an address, the later wins */
	char *name;
};

/* The map of one process, as last read. */
struct map {
	int pid;
	char *path;  /* this reading's own copy of the file's path */
	off_t size;  /* of the file when read */
	struct sym *v;
	size_t n;
	struct map *next;
};

static struct map *maps;
/* Every reading's path (named frames point to them), freed at the end. */
static char **paths;
static size_t npaths;

/* Order of syms: by start, then by line. */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Free the lines of m. */
static void map_clear(struct map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/* Read file path (of size bytes) into m. */
static void map_read(struct map *m, const char *path, off_t size)
{
	char *line = NULL;
	size_t cap = 0, alloc = 0, lineno = 0;
	FILE *f = fopen(path, "re");

	map_clear(m);
	m->path = xstrdup(path);
	paths = xrealloc(paths, (npaths + 1) * sizeof(*paths));
	paths[npaths++] = m->path;
	m->size = size;
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long start, len;
		int at = 0;

		lineno++;
		if (sscanf(line, "%llx %llx %n", &start, &len, &at) != 2 || !at)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (!line[at])
			continue;
		if (m->n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			m->v = xrealloc(m->v, alloc * sizeof(*m->v));
		}
		m->v[m->n++] = (struct sym){ start, len, lineno,
					     xstrdup(line + at) };
	}
	free(line);
	fclose(f);
	qsort(m->v, m->n, sizeof(*m->v), sym_cmp);
}

/* Process pid's map, read again if its file grew; NULL without a file. */
static struct map *map_of(int pid)
{
	char path[64];
	struct stat st;
	struct map *m;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pid);
	for (m = maps; m; m = m->next)
		if (m->pid == pid)
			break;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return m && m->n ? m : NULL;
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->pid = pid;
		m->next = maps;
		maps = m;
		m->size = -1;
	}
	if (st.st_size != m->size)
		map_read(m, path, st.st_size);
	return m;
}

const char *perfmap_name(int pid, uint64_t addr, uint64_t *off,
			 const char **path)
{
	struct map *m = pid > 0 ? map_of(pid) : NULL;
	const struct sym *best = NULL;
	size_t lo = 0, hi;

	if (!m || !m->n)
		return NULL;
	/* The last sym starting at or below addr, then back over those before it. */
	hi = m->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct sym *s = &m->v[lo];

		if (addr - s->start < s->size && (!best || s->line > best->line))
			best = s;
		/* Code is rarely longer than 1 MiB: stop looking back there. */
		if (addr - s->start > (1u << 20))
			break;
	}
	if (!best)
		return NULL;
	*off = addr - best->start;
	*path = m->path;
	return best->name;
}

void perfmap_done(void)
{
	struct map *m;

	while ((m = maps) != NULL) {
		maps = m->next;
		map_clear(m);
		free(m);
	}
	while (npaths)
		free(paths[--npaths]);
	free(paths);
	paths = NULL;
}
