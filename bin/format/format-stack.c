/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-stack.c: -k, a call's stack as text lines, a JSON array or a path.
 *
 * The frames come from stack.c, which unwinds the copy the interposer
 * made; here they get names (symbolize.c: .symtab, else .dynsym, then
 * demangled) and the object map they need (objmap.c).
 *
 * What is shown is the program's part of the stack: the frames of the
 * thread's start (the program's entry point and libc's
 * __libc_start_call_main and __libc_start_main under main; libc's
 * start_thread and clone3 under a thread's start routine) are left out
 * when the unwinder reached them, so that a stack ends at main or at the
 * start routine.  They are known by where they are (libc, at the very
 * bottom), since a distribution's libc has no names for them.
 *
 * Python frames (pyframes.c) follow the native frame of the evaluation
 * loop that ran them: the one whose [sp, CFA) holds their _PyCFrame.
 * Those whose native frame lies past the copy of the stack come last,
 * after the line that says the copy ends.  -k N counts native frames.
 * A frame in code of no object is named from the process's perf map, if
 * its JIT runtime writes one (perfmap.c).
 *
 * Tcl frames (tclframes.c) replace the first run of libtcl frames: in Tcl
 * 8.6 procs do not recurse on the C stack, so no native frame stands for
 * one of them, and libtcl's own frames (TclNRRunCallbacks...) say nothing
 * a reader of the script needs.  A stack with no libtcl frame shows them
 * after the line that says the copy ends, as Python's.
 *
 * The names of a walk that stack-cache.c keeps are kept too, and its
 * lines joined (format-walks.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "error.h"
#include "format.h"
#include "call-blobs.h"
#include "format-args.h"
#include "format-stack.h"
#include "format-walks.h"
#include "json-string.h"
#include "output.h"
#include "perfmap.h"
#include "pyframes.h"
#include "pyreuse.h"
#include "session-check.h"
#include "stack.h"
#include "strmap.h"
#include "symbolize.h"
#include "tclframes.h"
#include "xmalloc.h"

#define NAME_MAX_LEN 1024
#define OUT_MAX STACK_NAMES_MAX

/*
 * A frame's name and its line, made once per return address: a program
 * makes its calls from few places, and naming (a symbol lookup, a
 * demangling, the formatting) is most of -k's cost in ltruss.
 */
struct named {
	const char *path;   /* its object's file (stable: objects[] moves); NULL: none */
	uint64_t rel;       /* with path, the key: see named_key() */
	const char *func;   /* the function, else the object's file name */
	bool symbol;        /* func is a symbol */
	bool python;        /* a Python frame: func is co_qualname, path its key */
	const char *tcl;    /* a Tcl frame: its kind ("proc"...), func its name */
	char *label;        /* Python: "func (file:line)", in paths */
	uint64_t off;       /* from func's start, else from the object's */
	char *file;         /* its source file (debug information), or NULL */
	int src_line;
	bool src_done;      /* file looked up (named_source) */
	size_t src_obj;     /* where: object src_obj of the map, */
	uint64_t src_addr;  /* at src_addr */
	char *line;         /* " > func+0xOFF (object)\n" */
	char *site;         /* "func+0xOFF (object's file name)": --heap */
	size_t line_len;
	struct named *next; /* in its hash chain */
};

static struct named **named_table;
static size_t named_size, named_count;
/* Tcl frames' names, by kind and name. */
static struct strmap tcl_names;
/* In a list of frames: the native ones end (the copy), Python ones follow. */
static struct named gap = { .func = "" };
/* A Python frame whose code object was never described. */
static struct named py_unknown = { .func = "?", .python = true,
				   .label = "? (python)",
				   .line = " > ? (python)\n",
				   .line_len = sizeof(" > ? (python)\n") - 1 };

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
	while (n > 1 && libc < STACK_START_FRAMES - 1 && is_libc(f[n - 1].obj)) {
		n--;
		libc++;
	}
	return n;
}

/* Name frame f of map into the new nf: function, offset, source, its text line. */
/*
 * nf's source file and line, looked up the first time they are asked
 * for (--json): loading an object's debug information takes tens of
 * milliseconds, and text lines never show them.
 */
static void named_source(const struct stack_objects *map, struct named *nf)
{
	const char *src;

	if (nf->src_done)
		return;
	nf->src_done = true;
	if (nf->src_obj < map->n &&
	    stack_source_in(map, &map->v[nf->src_obj], nf->src_addr, &src,
			    &nf->src_line))
		nf->file = xstrdup(src);
}

static void name_frame(const struct stack_objects *map,
		       const struct stack_frame *f, struct named *nf)
{
	const struct stack_object *o = f->obj, *own;
	char path[NAME_MAX_LEN], func[NAME_MAX_LEN];
	const char *raw, *base;
	uint64_t delta;

	nf->path = o ? o->path : NULL;
	nf->off = o ? f->pc - o->bias : f->pc;
	func[0] = '\0';
	raw = o ? symbolize_file(o->path, f->lookup - o->bias, &delta) : NULL;
	if (raw) {
		snprintf(func, sizeof(func), "%s", format_func_display(raw));
		nf->off = delta + (f->pc - f->lookup);
		nf->symbol = true;
	} else if (o) {
		base = strrchr(o->path, '/');
		check_name(func, sizeof(func), base ? base + 1 : o->path);
	}
	nf->func = xstrdup(func);
	own = o ? objmap_own(map, o->pid, f->lookup) : NULL;
	nf->src_done = !own;
	nf->src_obj = own ? (size_t)(own - map->v) : 0;
	nf->src_addr = f->lookup;
	/* The servers are asked about every frame's object, shown or not. */
	if (debuginfo_servers())
		named_source(map, nf);
	if (o) {
		check_name(path, sizeof(path), o->path);
		base = strrchr(path, '/');
		nf->line = xasprintf(" > %s+0x%llx (%s)\n", func,
				     (unsigned long long)nf->off, path);
		nf->site = xasprintf("%s+0x%llx (%s)", func,
				      (unsigned long long)nf->off,
				      base ? base + 1 : path);
	} else {
		nf->line = xasprintf(" > 0x%llx (?)\n",
				     (unsigned long long)nf->off);
		nf->site = xasprintf("0x%llx (?)", (unsigned long long)nf->off);
	}
	nf->line_len = strlen(nf->line);
}

/*
 * What names frame f, whatever process it is in: its object's file, the
 * offset of its return address in it (the same library lies at other
 * addresses in other processes), and whether it was a call or the exact
 * pc of an interrupted frame.
 */
static void named_key(const struct stack_frame *f, const char **path,
		      uint64_t *rel)
{
	*path = f->obj ? f->obj->path : NULL;
	*rel = (f->obj ? f->pc - f->obj->bias : f->pc) << 1 |
	       (f->pc != f->lookup);
}

/* The bucket of key (path, rel) among size buckets. */
static size_t named_bucket(const char *path, uint64_t rel, size_t size)
{
	return ((rel ^ (uintptr_t)path >> 4) * 0x9e3779b97f4a7c15ull) >> 20 &
	       (size - 1);
}

/* The name kept under key (path, rel), or NULL; the table grown first if due. */
static struct named *named_find(const char *path, uint64_t rel)
{
	struct named *nf;
	size_t h;

	if (named_count >= named_size / 2) {
		/* Twice the buckets, every entry moved to its new one. */
		size_t size = named_size ? 2 * named_size : 1024, i;
		struct named **t = xcalloc(size, sizeof(*t));

		for (i = 0; i < named_size; i++) {
			while ((nf = named_table[i]) != NULL) {
				h = named_bucket(nf->path, nf->rel, size);
				named_table[i] = nf->next;
				nf->next = t[h];
				t[h] = nf;
			}
		}
		free(named_table);
		named_table = t;
		named_size = size;
	}
	h = named_bucket(path, rel, named_size);
	for (nf = named_table[h]; nf; nf = nf->next)
		if (nf->rel == rel && nf->path == path)
			return nf;
	return NULL;
}

/* Keep nf under key (path, rel) (named_find() found none). */
static void named_add(struct named *nf, const char *path, uint64_t rel)
{
	size_t h = named_bucket(path, rel, named_size);

	nf->path = path;
	nf->rel = rel;
	nf->next = named_table[h];
	named_table[h] = nf;
	named_count++;
}

/*
 * The name of frame f of process pid in code of no object, from the
 * process's perf map (perfmap.c), made on first use; NULL if it has none.
 */
static const struct named *jit_named(int pid, const struct stack_frame *f)
{
	const char *name, *path;
	struct named *nf;
	uint64_t off, rel = f->pc << 1 | (f->pc != f->lookup);

	name = perfmap_name(pid, f->lookup, &off, &path);
	if (!name)
		return NULL;
	nf = named_find(path, rel);
	if (nf)
		return nf;
	nf = xcalloc(1, sizeof(*nf));
	nf->func = xstrdup(name);
	nf->symbol = true;
	nf->off = off + (f->pc - f->lookup);
	nf->line = xasprintf(" > %s+0x%llx (%s)\n", name,
			     (unsigned long long)nf->off, path);
	nf->line_len = strlen(nf->line);
	named_add(nf, path, rel);
	return nf;
}

/* Frame f's name (an object of map, or JIT code of process pid), made on first use. */
static const struct named *named_of(const struct stack_objects *map, int pid,
				    const struct stack_frame *f)
{
	const char *path;
	struct named *nf;
	uint64_t rel;

	if (!f->obj && (nf = (struct named *)jit_named(pid, f)) != NULL)
		return nf;
	named_key(f, &path, &rel);
	nf = named_find(path, rel);
	if (nf)
		return nf;
	nf = xcalloc(1, sizeof(*nf));
	name_frame(map, f, nf);
	named_add(nf, path, rel);
	return nf;
}

/*
 * Python frame f's name, made on first use: keyed by its code object's
 * description (never an object's path) and its instruction.
 */
static const struct named *py_named(const struct py_frame *f)
{
	const char *key = (const char *)f->code;
	uint64_t rel = (uint64_t)f->lasti;
	struct named *nf;
	char where[NAME_MAX_LEN + 16];
	int line;

	if (!f->code)
		return &py_unknown;
	nf = named_find(key, rel);
	if (nf)
		return nf;
	nf = xcalloc(1, sizeof(*nf));
	line = pyframes_line(f->code, f->lasti);
	nf->func = xstrdup(f->code->qualname);
	nf->symbol = true;
	nf->python = true;
	nf->file = xstrdup(f->code->filename);
	nf->src_line = line;
	if (line > 0)
		snprintf(where, sizeof(where), "%s:%d", nf->file, line);
	else
		snprintf(where, sizeof(where), "%s", nf->file);
	nf->label = xasprintf("%s (%s)", nf->func, where);
	nf->line = xasprintf(" > %s\n", nf->label);
	nf->line_len = strlen(nf->line);
	named_add(nf, key, rel);
	return nf;
}

/* Tcl frame f's name, made on first use. */
static const struct named *tcl_named(const struct tcl_frame *f)
{
	char key[sizeof(f->name) + NAME_MAX_LEN + 32];
	struct named **slot, *nf;

	snprintf(key, sizeof(key), "%s %d %s %s", f->kind, f->line, f->name,
		 f->file ? f->file : "");
	slot = (struct named **)strmap_slot(&tcl_names, key);
	if (*slot)
		return *slot;
	nf = xcalloc(1, sizeof(*nf));
	nf->func = xstrdup(f->name);
	nf->symbol = true;
	nf->tcl = f->kind;
	if (f->file) {
		nf->file = xstrdup(f->file);
		nf->src_line = f->line;
		nf->label = xasprintf("%s (%s:%d)", f->name, f->file, f->line);
	} else {
		nf->label = xasprintf("%s (tcl)", f->name);
	}
	nf->line = xasprintf(" > %s\n", nf->label);
	nf->line_len = strlen(nf->line);
	*slot = nf;
	return nf;
}

/* The interpreter frames a merge puts among the native ones. */
struct interp_frames {
	const struct py_frame *py; /* Python's, innermost first */
	unsigned np;
	const struct tcl_frame *tcl; /* Tcl's, innermost first */
	unsigned nt;
};

/*
 * Name the native frames[0..n) into out, each followed by the Python
 * frames of in->py its [sp, CFA) holds the _PyCFrame of (nall: the
 * frames unwound, n and those past it), the first run of libtcl frames
 * replaced by in->tcl; then, if the native frames end early (end), the
 * gap and the interpreter frames left.  Returns how many.
 */
static unsigned merge_frames(const struct stack_objects *map, int pid,
			     const struct stack_frame *frames, unsigned n,
			     unsigned nall, const struct interp_frames *in,
			     enum stack_end end, const struct named **out)
{
	unsigned i, j = 0, k = 0, t;
	enum { BEFORE, IN_RUN, AFTER } tcl = in->nt ? BEFORE : AFTER;

	for (i = 0; i < n; i++) {
		uint64_t top = i + 1 < nall ? frames[i + 1].sp : frames[i].cfa;

		if (tcl != AFTER && frames[i].obj &&
		    tclframes_is_libtcl(frames[i].obj->path)) {
			for (t = 0; tcl == BEFORE && t < in->nt; t++)
				out[k++] = tcl_named(&in->tcl[t]);
			tcl = IN_RUN;
			continue;
		}
		if (tcl == IN_RUN)
			tcl = AFTER;
		out[k++] = named_of(map, pid, &frames[i]);
		for (; j < in->np && in->py[j].cframe < top; j++)
			if (in->py[j].cframe >= frames[i].sp)
				out[k++] = py_named(&in->py[j]);
	}
	if ((j == in->np && tcl != BEFORE) || end == STACK_END_START ||
	    end == STACK_END_LIMIT)
		return k;
	out[k++] = &gap;
	for (; j < in->np; j++)
		out[k++] = py_named(&in->py[j]);
	for (t = 0; tcl == BEFORE && t < in->nt; t++)
		out[k++] = tcl_named(&in->tcl[t]);
	return k;
}

/*
 * The frames of call c of w (at most -k's native ones, and the Python
 * ones they ran), named into out (OUT_MAX); returns how many, and in
 * *end why they end, in *kept (if not NULL) the names kept of their walk
 * (NULL if none).  -1: the call has no stack copy.
 */
static int call_frames(const struct who *w, const struct call *c,
		       const struct named **out, enum stack_end *end,
		       struct named_walk **kept)
{
	const struct ltr_blob *b;
	struct stack_frame frames[STACK_FRAMES_MAX + STACK_START_FRAMES];
	struct py_frame py[LTR_PY_FRAMES_MAX];
	struct tcl_frame tcl[LTR_TCL_FRAMES_MAX];
	struct interp_frames in = { py, 0, tcl, 0 };
	const struct stack_objects *map;
	unsigned n, nall, k, max = fmt.stack + STACK_START_FRAMES;
	uint32_t types;
	bool sparse;
	struct named_walk *nw;
	uint64_t walk;

	if (kept)
		*kept = NULL;
	/* Its stack copy, and Python's or Tcl's frames (most calls have neither): one look. */
	types = args_blob_types(c, LTR_BLOB_CALLSTACK, &b);
	if (!b)
		return -1;
	map = objmap_sync_at(c->ts_enter);
	sparse = b->flags & LTR_BLOBF_SPARSE;
	if (types & 1u << LTR_BLOB_PYFRAMES)
		in.np = pyframes_of(w->pid, c, py, LTR_PY_FRAMES_MAX);
	if (types & 1u << LTR_BLOB_TCLFRAMES)
		in.nt = tclframes_of(w->pid, c, tcl, LTR_TCL_FRAMES_MAX);
	/* A kept walk named before: its names, without its frames. */
	if (!in.np && !in.nt &&
	    (nw = named_walk_find(stack_kept(map, w->pid, b->data, b->len,
					     sparse, max, &n, end))) != NULL) {
		memcpy(out, nw->out, nw->n * sizeof(*out));
		*end = nw->end;
		if (kept)
			*kept = nw;
		return (int)nw->n;
	}
	n = nall = stack_unwind(map, w->pid, w->tid, b->data, b->len, sparse,
				frames, max, end, &walk);
	if (in.np || in.nt)
		walk = 0; /* the names are not the walk's alone */
	if (*end == STACK_END_START)
		n = without_start(frames, n);
	if (n > fmt.stack) {
		n = fmt.stack;
		*end = STACK_END_LIMIT;
	}
	k = merge_frames(map, w->pid, frames, n, nall, &in, *end, out);
	if (walk) {
		nw = named_walk_keep(walk, frames, nall, out, k, *end);
		/* Its lines joined now, not one at a time now and joined later. */
		if (kept)
			*kept = nw;
	}
	return (int)k;
}

int stack_names(const struct who *w, const struct call *c,
		const struct named **out)
{
	enum stack_end end;
	int n, i, k = 0;

	if (!fmt.stack)
		return -1;
	n = call_frames(w, c, out, &end, NULL);
	/* The frames only, not where the stack copy ended among them. */
	for (i = 0; i < n; i++)
		if (out[i] != &gap)
			out[k++] = out[i];
	return n < 0 ? n : k;
}

const char *stack_name_func(const struct named *n)
{
	return n->func[0] ? n->func : "??";
}

const char *stack_name_label(const struct named *n)
{
	/* A native frame's site, a Python frame's "func (file:line)". */
	return n->site ? n->site : n->label ? n->label : stack_name_func(n);
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
	case STACK_END_ASTRAY:
		return "no reliable frame past here: a stack switch?";
	default:
		return NULL;
	}
}

/* The start of c's stack lines: "[pid N] ", indented under the call; its length. */
static size_t line_lead(char *buf, size_t size, const struct who *w,
			const struct call *c)
{
	size_t len = 0;
	uint32_t d;

	if (fmt_seen.pid_prefix && w->tid)
		len = (size_t)snprintf(buf, size, "[pid %d] ", w->tid);
	for (d = 0; d < c->depth && len + 2 < size; d++) {
		buf[len++] = ' ';
		buf[len++] = ' ';
	}
	return len;
}

/*
 * A stack line: lead, then text (a whole line), written in place at the
 * end of the trace (output.h), as the call's own line is: no stdio.
 */
static void put_stack_line(const char *lead, size_t lead_len,
			   const char *text, size_t len)
{
	char *p;

	if (lead_len + len > OUTPUT_ROOM_MAX) {
		output_mem(lead, lead_len);
		for (; len > OUTPUT_ROOM_MAX; text += OUTPUT_ROOM_MAX,
					      len -= OUTPUT_ROOM_MAX)
			output_mem(text, OUTPUT_ROOM_MAX);
		output_mem(text, len);
	} else {
		p = output_room(lead_len + len);
		memcpy(p, lead, lead_len);
		memcpy(p + lead_len, text, len);
		output_advance(lead_len + len);
	}
	output_line_end();
}

/* The line that says why the stack is cut short, into buf; its length. */
static size_t end_line(char *buf, size_t size, enum stack_end end)
{
	int len = snprintf(buf, size, " > ... (%s)\n", end_text(end));

	return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
}

/*
 * Each line of frames[0..n), which end for end (the line that says so
 * where the copy ends, or last), to put(arg, line, len).
 */
static void each_stack_line(const struct named **frames, unsigned n,
			    enum stack_end end,
			    void (*put)(void *arg, const char *text,
					size_t len),
			    void *arg)
{
	char text[128];
	bool gapped = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (frames[i] == &gap) {
			put(arg, text, end_line(text, sizeof(text), end));
			gapped = true;
			continue;
		}
		put(arg, frames[i]->line, frames[i]->line_len);
	}
	if (end_text(end) && !gapped)
		put(arg, text, end_line(text, sizeof(text), end));
}

/* A stack line's lead: "[pid N] " and the call's indent. */
struct lead {
	char text[600];
	size_t len;
};

/* each_stack_line's put: the line written after the lead. */
static void put_led(void *arg, const char *text, size_t len)
{
	const struct lead *lead = arg;

	put_stack_line(lead->text, lead->len, text, len);
}

void stack_text(const struct who *w, const struct call *c)
{
	const struct named *frames[OUT_MAX];
	struct named_walk *nw;
	struct lead lead;
	enum stack_end end;
	int n;

	if (!fmt.stack || (n = call_frames(w, c, frames, &end, &nw)) < 0)
		return;
	lead.len = line_lead(lead.text, sizeof(lead.text), w, c);
	if (!nw || lead.len) {
		each_stack_line(frames, (unsigned)n, end, put_led, &lead);
		return;
	}
	/* A kept walk's lines, with no lead: joined once, then one copy. */
	if (!nw->joined)
		named_walk_join(nw, each_stack_line);
	if (nw->text_len)
		put_stack_line("", 0, nw->text, nw->text_len);
}

/*
 * Frame f of a JSON stack, an interpreter's (Python, Tcl): its function,
 * "python":true or "tcl":KIND, its file and line.
 */
static void json_interp(const struct named *f)
{
	fputs("{\"func\":", fmt.out);
	json_write_string(fmt.out, f->func);
	if (f->python)
		fputs(",\"python\":true", fmt.out);
	else
		fprintf(fmt.out, ",\"tcl\":\"%s\"", f->tcl);
	if (f->file) {
		fputs(",\"file\":", fmt.out);
		json_write_string(fmt.out, f->file);
		fprintf(fmt.out, ",\"line\":%d", f->src_line);
	}
	fputc('}', fmt.out);
}

void stack_json(const struct who *w, const struct call *c)
{
	const struct named *frames[OUT_MAX];
	const struct stack_objects *map;
	enum stack_end end;
	bool first = true;
	int n, i;

	if (!fmt.stack || (n = call_frames(w, c, frames, &end, NULL)) < 0)
		return;
	map = objmap_sync_at(c->ts_enter);
	for (i = 0; i < n; i++)
		if (frames[i] != &gap && !frames[i]->python && !frames[i]->tcl)
			named_source(map, (struct named *)frames[i]);
	fputs(",\"stack\":[", fmt.out);
	for (i = 0; i < n; i++) {
		if (frames[i] == &gap)
			continue;
		if (!first)
			fputc(',', fmt.out);
		first = false;
		if (frames[i]->python || frames[i]->tcl) {
			json_interp(frames[i]);
			continue;
		}
		fputs("{\"func\":", fmt.out);
		if (frames[i]->symbol)
			json_write_string(fmt.out, frames[i]->func);
		else
			fputs("null", fmt.out);
		fprintf(fmt.out, ",\"off\":%llu,\"object\":",
			(unsigned long long)frames[i]->off);
		if (frames[i]->path)
			json_write_string(fmt.out, frames[i]->path);
		else
			fputs("null", fmt.out);
		if (frames[i]->file) {
			fputs(",\"file\":", fmt.out);
			json_write_string(fmt.out, frames[i]->file);
			fprintf(fmt.out, ",\"line\":%d", frames[i]->src_line);
		}
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
	const struct named *frames[OUT_MAX];
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
		n = call_frames(w, c, frames, &end, NULL);
		/* Outermost first, as the path of calls goes. */
		for (k = n - 1; k >= 0; k--) {
			const struct named *f = frames[k];
			int m;

			if (f == &gap)
				continue;
			m = snprintf(last.path + last.len,
				     sizeof(last.path) - last.len, "%s%s",
				     last.len ? ";" : "",
				     f->label ? f->label
					      : f->func[0] ? f->func : "??");

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

/* Free name v (a struct named). */
static void named_free(void *v)
{
	struct named *nf = v;

	free((char *)nf->func);
	free(nf->file);
	free(nf->label);
	free(nf->line);
	free(nf->site);
	free(nf);
}

void stack_done_names(void)
{
	size_t i;

	for (i = 0; i < named_size; i++) {
		struct named *nf;

		while ((nf = named_table[i]) != NULL) {
			named_table[i] = nf->next;
			named_free(nf);
		}
	}
	strmap_clear(&tcl_names, named_free);
	named_walks_done();
	tclframes_done();
	free(named_table);
	named_table = NULL;
	named_size = named_count = 0;
	stack_done();
	pyframes_done();
	pyreuse_done();
	perfmap_done();
}
