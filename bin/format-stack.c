/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-stack.c: -k, a call's stack as text lines, a JSON array or a path.
 *
 * The frames come from stack.c, which unwinds the copy the interposer
 * made; here they get names (symbolize.c: .symtab, else .dynsym, then
 * demangled) and the object map they need, taken from the session's
 * object records as they grow.
 *
 * What is shown is the program's part of the stack: the frames of the
 * thread's start (the program's entry point and libc's
 * __libc_start_call_main and __libc_start_main under main; libc's
 * start_thread and clone3 under a thread's start routine) are left out
 * when the unwinder reached them, so that a stack ends at main or at the
 * start routine.  They are known by where they are (libc, at the very
 * bottom), since a distribution's libc has no names for them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format.h"
#include "format-args.h"
#include "format-stack.h"
#include "session-check.h"
#include "stack.h"
#include "symbolize.h"
#include "xmalloc.h"

#define START_FRAMES 3 /* the most frames of a thread's start left out */
#define NAME_MAX_LEN 1024

static struct stack_object *objects;
static size_t nobjects, objects_size;

/* A frame with its name. */
struct named {
	char func[NAME_MAX_LEN]; /* "" when no symbol holds it */
	uint64_t off;            /* from func, else from the object's start */
	const char *path;        /* NULL: in no known object */
};

/* Bring the object map up to the session's records. */
static void objects_sync(void)
{
	const struct ltr_session *s = fmt.session;
	uint32_t n = __atomic_load_n(&s->nobjects, __ATOMIC_ACQUIRE);

	if (n > LTR_MAX_OBJECTS)
		n = LTR_MAX_OBJECTS;
	for (; nobjects < n; nobjects++) {
		const struct ltr_objrec *o = &s->objects[nobjects];
		const char *path = session_string(s, o->path);

		/* Claimed, not written yet: its process is still at it. */
		if (!o->end)
			break;
		if (nobjects == objects_size) {
			objects_size = objects_size ? 2 * objects_size : 64;
			objects = xrealloc(objects,
					   objects_size * sizeof(*objects));
		}
		objects[nobjects].pid = o->pid;
		objects[nobjects].path = xstrdup(path ? path : "");
		objects[nobjects].start = o->start;
		objects[nobjects].end = o->end;
		objects[nobjects].bias = o->bias;
	}
}

/* Is object o the C library (where threads start)? */
static bool is_libc(const struct stack_object *o)
{
	const char *base = o ? strrchr(o->path, '/') : NULL;

	return base && strncmp(base + 1, "libc.so", 7) == 0;
}

/* Leave out the frames of the thread's start, under main or the start routine. */
static unsigned without_start(const struct stack_frame *f, unsigned n)
{
	unsigned libc = 0;

	/* The program's entry point calls libc's __libc_start_main. */
	if (n >= 2 && !is_libc(f[n - 1].obj) && is_libc(f[n - 2].obj))
		n--;
	while (n > 1 && libc < START_FRAMES - 1 && is_libc(f[n - 1].obj)) {
		n--;
		libc++;
	}
	return n;
}

/* Name frame f into *nf. */
static void name_frame(const struct stack_frame *f, struct named *nf)
{
	const struct stack_object *o = f->obj;
	const char *raw, *base;
	uint64_t delta;

	nf->func[0] = '\0';
	nf->path = o ? o->path : NULL;
	nf->off = o ? f->pc - o->bias : f->pc;
	if (!o)
		return;
	raw = symbolize_file(o->path, f->lookup - o->bias, &delta);
	if (raw) {
		snprintf(nf->func, sizeof(nf->func), "%s",
			 format_func_display(raw));
		nf->off = delta + (f->pc - f->lookup);
		return;
	}
	base = strrchr(o->path, '/');
	check_name(nf->func, sizeof(nf->func), base ? base + 1 : o->path);
}

/*
 * The frames of call c of w (at most -k's), named into out; returns how
 * many, and in *end why they end.  -1: the call has no stack copy.
 */
static int call_frames(const struct who *w, const struct call *c,
		       struct named *out, enum stack_end *end)
{
	const struct ltr_blob *b = args_blob(c, LTR_BLOB_CALLSTACK);
	struct stack_frame frames[STACK_FRAMES_MAX + START_FRAMES];
	struct stack_objects map;
	unsigned n, i;

	if (!b)
		return -1;
	objects_sync();
	map.v = objects;
	map.n = nobjects;
	n = stack_unwind(&map, w->pid, w->tid, b->data, b->len, frames,
			 fmt.stack + START_FRAMES, end);
	if (*end == STACK_END_START)
		n = without_start(frames, n);
	if (n > fmt.stack) {
		n = fmt.stack;
		*end = STACK_END_LIMIT;
	}
	for (i = 0; i < n; i++)
		name_frame(&frames[i], &out[i]);
	return (int)n;
}

/* Why a stack is cut short, in words; NULL when it is not. */
static const char *end_text(enum stack_end end)
{
	switch (end) {
	case STACK_END_NO_CFI:
		return "no unwind information past here";
	case STACK_END_COPY:
		return "the copy of the stack ends here";
	case STACK_END_UNKNOWN:
		return "unreadable frame";
	default:
		return NULL;
	}
}

/* The start of a stack line: "[pid N] ", indented under the call. */
static void line_lead(const struct who *w, const struct call *c)
{
	uint32_t d;

	if (fmt.pid_prefix && w->tid)
		fprintf(fmt.out, "[pid %d] ", w->tid);
	for (d = 0; d < c->depth && d < 256; d++)
		fputs("  ", fmt.out);
}

void stack_text(const struct who *w, const struct call *c)
{
	static struct named frames[STACK_FRAMES_MAX];
	char path[NAME_MAX_LEN];
	enum stack_end end;
	int n, i;

	if (!fmt.stack || (n = call_frames(w, c, frames, &end)) < 0)
		return;
	for (i = 0; i < n; i++) {
		line_lead(w, c);
		if (frames[i].path)
			fprintf(fmt.out, " > %s+0x%llx (%s)\n", frames[i].func,
				(unsigned long long)frames[i].off,
				check_name(path, sizeof(path), frames[i].path));
		else
			fprintf(fmt.out, " > 0x%llx (?)\n",
				(unsigned long long)frames[i].off);
	}
	if (end_text(end)) {
		line_lead(w, c);
		fprintf(fmt.out, " > ... (%s)\n", end_text(end));
	}
}

void stack_json(const struct who *w, const struct call *c)
{
	static struct named frames[STACK_FRAMES_MAX];
	enum stack_end end;
	int n, i;

	if (!fmt.stack || (n = call_frames(w, c, frames, &end)) < 0)
		return;
	fputs(",\"stack\":[", fmt.out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",{\"func\":" : "{\"func\":", fmt.out);
		if (frames[i].path && frames[i].func[0])
			json_write_string(fmt.out, frames[i].func);
		else
			fputs("null", fmt.out);
		fprintf(fmt.out, ",\"off\":%llu,\"object\":",
			(unsigned long long)frames[i].off);
		if (frames[i].path)
			json_write_string(fmt.out, frames[i].path);
		else
			fputs("null", fmt.out);
		fputc('}', fmt.out);
	}
	fputc(']', fmt.out);
	if (end_text(end)) {
		fputs(",\"stack_end\":", fmt.out);
		json_write_string(fmt.out, end_text(end));
	}
}

size_t stack_path(char *buf, size_t size, const struct who *w,
		  const struct call *c)
{
	static struct named frames[STACK_FRAMES_MAX];
	/* The calls nested in one call all ask for its path: kept. */
	static struct {
		struct who w;
		uint32_t fn;
		uint64_t ts;
		char path[4096];
		size_t len;
	} last;
	enum stack_end end;
	size_t len = 0;
	int n, k;

	if (!fmt.stack || !size)
		return 0;
	if (last.w.pid != w->pid || last.w.tid != w->tid || last.fn != c->fn ||
	    last.ts != c->ts_enter) {
		last.w = *w;
		last.fn = c->fn;
		last.ts = c->ts_enter;
		last.len = 0;
		n = call_frames(w, c, frames, &end);
		/* Outermost first, as the path of calls goes. */
		for (k = n - 1; k >= 0; k--) {
			int m = snprintf(last.path + last.len,
					 sizeof(last.path) - last.len, "%s%s",
					 last.len ? ";" : "",
					 frames[k].func[0] ? frames[k].func : "??");

			if (m < 0 || (size_t)m >= sizeof(last.path) - last.len)
				break;
			last.len += (size_t)m;
		}
	}
	len = last.len < size ? last.len : size - 1;
	memcpy(buf, last.path, len);
	buf[len] = '\0';
	return len;
}

void stack_done_names(void)
{
	size_t i;

	for (i = 0; i < nobjects; i++)
		free(objects[i].path);
	free(objects);
	objects = NULL;
	nobjects = objects_size = 0;
	stack_done();
}
