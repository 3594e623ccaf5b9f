/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c: aggregate calls by call path, for people who would rather
 * look than read.
 *
 *  --tree     the call tree, indented, with calls, inclusive and self time
 *             per path ("Under/In" profiles);
 *  --folded   collapsed stacks, "lib:a;lib:b;lib:c SELF_NS" a line, the
 *             input of flamegraph.pl and speedscope;
 *  --chrome   the Trace Event Format that Perfetto and chrome://tracing
 *             open: one complete event per call, one track per thread.
 * Paths are kept in a hash table keyed by the path string.
 *
 * A program decides how many distinct paths there are (and a traced one
 * can forge them): the table keeps at most PATHS_MAX paths and
 * KEYS_MAX bytes of keys; the calls on paths past those are summed in one
 * "[other paths]" entry, and ltruss says how many calls went there.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "callsites.h"
#include "catalog.h"
#include "clock.h"
#include "error.h"
#include "format-stack.h"
#include "heap.h"
#include "objmap.h"
#include "outfile.h"
#include "profile.h"
#include "session.h"
#include "json-string.h"
#include "xmalloc.h"

#define PATH_MAX_LEN 4096
#define PATHS_MAX 65536         /* distinct call paths kept */
#define KEYS_MAX (16u << 20)    /* bytes of their keys */
#define OTHER_PATHS "[other paths]"

/* One call path with its sums. */
struct path {
	char *key;      /* "lib:a;lib:b", or with -k "main;parse;lib:a;lib:b" */
	uint32_t depth;
	bool frame;     /* -k: a program frame above the traced calls */
	uint64_t calls, total, self; /* ticks */
	struct path *next;
};

static bool want_tree;
static FILE *folded, *chrome;
static struct path **table;
static size_t table_size, npaths, key_bytes;
static struct path *other;        /* the calls of paths not kept */
static unsigned long long calls_cut;
static bool chrome_first = true;

/* FNV-1a hash of s. */
static size_t hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Double the table when it gets full. */
static void table_grow(void)
{
	size_t size = table_size ? table_size * 2 : 1024, i;
	struct path **t = xcalloc(size, sizeof(*t));

	for (i = 0; i < table_size; i++) {
		while (table[i]) {
			struct path *p = table[i];

			table[i] = p->next;
			p->next = t[hash(p->key) & (size - 1)];
			t[hash(p->key) & (size - 1)] = p;
		}
	}
	free(table);
	table = t;
	table_size = size;
}

/*
 * The entry of path key, created empty unless the table is full (then
 * NULL, for all but the "[other paths]" entry itself).
 */
static struct path *path_get(const char *key, uint32_t depth, bool always)
{
	size_t h, len = strlen(key) + 1;
	struct path *p;

	if (npaths >= table_size)
		table_grow();
	h = hash(key) & (table_size - 1);
	for (p = table[h]; p; p = p->next)
		if (strcmp(p->key, key) == 0)
			return p;
	if (!always && (npaths >= PATHS_MAX || key_bytes + len > KEYS_MAX))
		return NULL;
	key_bytes += len;
	p = xcalloc(1, sizeof(*p));
	p->key = xstrdup(key);
	p->depth = depth;
	p->next = table[h];
	table[h] = p;
	npaths++;
	return p;
}

void profile_init(bool tree, const char *folded_file, const char *chrome_file)
{
	want_tree = tree;
	if (folded_file)
		folded = outfile_stream(folded_file, "--folded");
	if (chrome_file) {
		chrome = outfile_stream(chrome_file, "--chrome");
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", chrome);
	}
}

bool profile_enabled(void)
{
	return want_tree || folded || chrome || callsites_enabled() ||
	       heap_enabled();
}

/* Append "lib:func" of c to the path in buf at *len. */
static void path_append(char *buf, size_t *len, const struct call *c)
{
	int n = snprintf(buf + *len, PATH_MAX_LEN - *len, "%s%s:%s",
			 *len ? ";" : "", format_lib(c->fn), format_func(c->fn));

	if (n > 0)
		*len = *len + (size_t)n < PATH_MAX_LEN ? *len + (size_t)n :
							PATH_MAX_LEN - 1;
}

/*
 * -k in the Chrome trace: each call's program frames are a node of the
 * file's "stackFrames" tree (name, parent), which the call's event names
 * with "sf", so that Perfetto shows what led to each call.
 */
struct sframe {
	char *key;       /* the path of frames up to this one */
	uint32_t id;     /* from 1 */
	uint32_t parent; /* its id, 0 for none */
	struct sframe *next;
};

static struct sframe **sframes, **sframe_by_id;
static size_t nsframes, sframes_size;

/* The id of the frame node whose path is key[0..len), made with its parents. */
static uint32_t sframe_id(char *key, size_t len)
{
	size_t h, cut = len;
	uint32_t parent = 0;
	struct sframe *f;
	char saved = key[len];

	key[len] = '\0';
	if (nsframes >= sframes_size / 2) {
		/* Grown by rehashing every node into a table twice the size. */
		size_t size = sframes_size ? 2 * sframes_size : 256, i;
		struct sframe **t = xcalloc(size, sizeof(*t));

		for (i = 0; i < nsframes; i++) {
			f = sframe_by_id[i];
			h = hash(f->key) & (size - 1);
			f->next = t[h];
			t[h] = f;
		}
		free(sframes);
		sframes = t;
		sframes_size = size;
		sframe_by_id = xrealloc(sframe_by_id, size * sizeof(*sframe_by_id));
	}
	h = hash(key) & (sframes_size - 1);
	for (f = sframes[h]; f; f = f->next)
		if (strcmp(f->key, key) == 0)
			break;
	if (!f) {
		while (cut > 0 && key[cut - 1] != ';')
			cut--;
		if (cut > 0)
			parent = sframe_id(key, cut - 1);
		f = xcalloc(1, sizeof(*f));
		f->key = xstrdup(key);
		f->parent = parent;
		h = hash(key) & (sframes_size - 1);
		f->next = sframes[h];
		sframes[h] = f;
		sframe_by_id[nsframes++] = f;
		f->id = (uint32_t)nsframes;
	}
	key[len] = saved;
	return f->id;
}

/* The "stackFrames" object: every node, its name the last frame of its path. */
static void chrome_stack_frames(void)
{
	size_t i;

	fputs("\n],\"stackFrames\":{", chrome);
	for (i = 0; i < nsframes; i++) {
		const char *name = strrchr(sframe_by_id[i]->key, ';');

		fprintf(chrome, "%s\n\"%zu\":{\"name\":", i ? "," : "", i + 1);
		json_write_string(chrome, name ? name + 1 : sframe_by_id[i]->key);
		if (sframe_by_id[i]->parent)
			fprintf(chrome, ",\"parent\":\"%u\"",
				sframe_by_id[i]->parent);
		fputc('}', chrome);
		free(sframe_by_id[i]->key);
		free(sframe_by_id[i]);
	}
	fputs("\n}}\n", chrome);
	free(sframes);
	free(sframe_by_id);
}

/*
 * One event of call c for the Chrome trace: complete ("X") when r says
 * how it ended, else begun only ("B": a trace file cut while it ran,
 * which Perfetto shows as not ended).
 */
static void chrome_event(const struct who *w, const struct call *c,
			 const struct result *r)
{
	uint64_t start = clock_realtime_ns(c->ts_enter);
	char name[1024], path[PATH_MAX_LEN];
	size_t len;

	snprintf(name, sizeof(name), "%s:%s", format_lib(c->fn),
		 format_func(c->fn));
	fputs(chrome_first ? "\n{\"name\":" : ",\n{\"name\":", chrome);
	json_write_string(chrome, name);
	fputs(",\"cat\":", chrome);
	json_write_string(chrome, format_lib(c->fn));
	fprintf(chrome, ",\"ph\":\"%s\",\"ts\":%llu.%03llu", r ? "X" : "B",
		(unsigned long long)(start / 1000),
		(unsigned long long)(start % 1000));
	if (r) {
		uint64_t dur = clock_ticks_to_ns(r->ts_exit - c->ts_enter);

		fprintf(chrome, ",\"dur\":%llu.%03llu",
			(unsigned long long)(dur / 1000),
			(unsigned long long)(dur % 1000));
	}
	fprintf(chrome, ",\"pid\":%d,\"tid\":%d", w->pid, w->tid);
	if (fmt.stack && (len = stack_path(path, sizeof(path), w, c)) > 0)
		fprintf(chrome, ",\"sf\":\"%u\"", sframe_id(path, len));
	fputc('}', chrome);
	chrome_first = false;
}

/*
 * With -k, write the program's frames of call c (outermost traced call)
 * as the start of a path into key, *len its length, and count the calls
 * made under each: dur is c's time when it is the call ending (0 for a
 * nested one, counted with its outermost call).  Returns how many.
 */
static uint32_t program_frames(char *key, size_t *len, const struct who *w,
			       const struct call *c, uint64_t dur)
{
	uint32_t frames = 0;
	size_t i, n;

	*len = n = stack_path(key, PATH_MAX_LEN, w, c);
	for (i = 0; n && i <= n; i++) {
		struct path *p;
		char cut;

		if (i < n && key[i] != ';')
			continue;
		cut = key[i];
		key[i] = '\0';
		p = path_get(key, frames++, false);
		key[i] = cut;
		if (!p)
			continue;
		p->frame = true;
		if (dur) {
			p->calls++;
			p->total += dur;
		}
	}
	return frames;
}

void profile_call(const struct who *w, const struct call *const *stack,
		  uint32_t depth, const struct call *c, const struct result *r,
		  uint64_t self)
{
	char key[PATH_MAX_LEN];
	uint32_t i, frames;
	size_t len = 0;
	struct path *p;

	if (chrome)
		chrome_event(w, c, r);
	if (callsites_enabled())
		callsites_call(w, c, r);
	if (heap_enabled())
		heap_call(w, stack, depth, c, r);
	if (!want_tree && !folded)
		return;
	key[0] = '\0';
	/* -k: the program's frames above the outermost traced call. */
	frames = program_frames(key, &len, w, depth ? stack[0] : c,
				depth ? 0 : r->ts_exit - c->ts_enter);
	for (i = 0; i < depth; i++)
		path_append(key, &len, stack[i]);
	path_append(key, &len, c);
	p = path_get(key, frames + depth, false);
	if (!p) {
		if (!other)
			other = path_get(OTHER_PATHS, 0, true);
		p = other;
		calls_cut++;
	}
	p->calls++;
	p->total += r->ts_exit - c->ts_enter;
	p->self += self;
}

void profile_unfinished(const struct who *w, const struct call *c)
{
	if (chrome)
		chrome_event(w, c, NULL);
}

/* Metadata events naming each process after its program. */
static void chrome_process_names(void)
{
	const struct stack_objects *objs = objmap_sync();
	size_t i, j;

	for (i = 0; i < objs->n; i++) {
		int pid = objs->v[i].pid;
		const char *path = objs->v[i].path, *base;

		/* The first object a process records is its program. */
		for (j = 0; j < i && objs->v[j].pid != pid; j++)
			;
		if (j < i || !check_pid(pid) || !*path)
			continue;
		base = strrchr(path, '/');
		fprintf(chrome, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":",
			chrome_first ? "\n" : ",\n", pid);
		json_write_string(chrome, base ? base + 1 : path);
		fputs("}}", chrome);
		chrome_first = false;
	}
}

static int path_order(const void *a, const void *b)
{
	const struct path *x = *(const struct path *const *)a;
	const struct path *y = *(const struct path *const *)b;

	return strcmp(x->key, y->key);
}

/* The tree: paths in order, each indented by its depth, leaf name only. */
static void print_tree(FILE *out, struct path **all, double rate)
{
	size_t i;

	fprintf(out, "     calls     total us      self us  call tree\n");
	for (i = 0; i < npaths; i++) {
		const struct path *p = all[i];
		const char *leaf = strrchr(p->key, ';');
		uint32_t d;

		fprintf(out, "%10llu %12.3f %12.3f  ", (unsigned long long)p->calls,
			(double)p->total / rate * 1e-3,
			(double)p->self / rate * 1e-3);
		for (d = 0; d < p->depth; d++)
			fputs("  ", out);
		fprintf(out, "%s\n", leaf ? leaf + 1 : p->key);
	}
}

void profile_finish(FILE *out, double rate)
{
	struct path **all = xcalloc(npaths, sizeof(*all));
	size_t i, k = 0;

	for (i = 0; i < table_size; i++)
		for (struct path *p = table[i]; p; p = p->next)
			all[k++] = p;
	qsort(all, npaths, sizeof(*all), path_order);
	if (want_tree)
		print_tree(out, all, rate);
	if (folded) {
		for (i = 0; i < npaths; i++)
			if (!all[i]->frame)
				fprintf(folded, "%s %llu\n", all[i]->key,
					(unsigned long long)((double)all[i]->self /
							     rate));
		if (fclose(folded) != 0)
			perror_msg("cannot write the --folded file");
	}
	if (calls_cut)
		warning_msg("%llu calls on call paths past the first %zu were summed as '%s' (--tree, --folded)",
			    calls_cut, npaths - 1, OTHER_PATHS);
	if (chrome) {
		chrome_process_names();
		if (nsframes)
			chrome_stack_frames();
		else
			fputs("\n]}\n", chrome);
		if (fclose(chrome) != 0)
			perror_msg("cannot write the --chrome file");
	}
	for (i = 0; i < npaths; i++) {
		free(all[i]->key);
		free(all[i]);
	}
	free(all);
	free(table);
}
