/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-text.c: trace lines as text, the way truss and strace print them.
 *
 *     [pid N] HH:MM:SS.uuuuuu   LIB:FUNC(args) = ret <0.000012>
 *
 * Lines are built in place at the end of the output's block (output.h),
 * whole, so lines never mix; a partial line (a call that blocks) is
 * completed by the next one.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "clock.h"
#include "demangle.h"
#include "session.h"
#include "symbolize.h"
#include "format.h"
#include "format-args.h"
#include "format-pieces.h"
#include "format-stack.h"
#include "output.h"
#include "xmalloc.h"

/* Longest line: several strings of -s 4096; longer ones are cut. */
#define TEXT_LINE_MAX (8 * ARG_TEXT_MAX)

/* A line being built in the output's block, room for TEXT_LINE_MAX bytes at buf. */
struct line {
	char *buf;
	size_t len;
};

static uint64_t last_line_ns; /* for -r */

/* Append n bytes of s, cut at the end of the buffer. */
static __attribute__((noinline)) void put_mem_cut(struct line *l,
						  const char *s, size_t n)
{
	if (n > TEXT_LINE_MAX - l->len)
		n = TEXT_LINE_MAX - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

/* Append n bytes of s (a literal's few bytes: stored inline). */
static inline void put_mem(struct line *l, const char *s, size_t n)
{
	if (__builtin_expect(n <= TEXT_LINE_MAX - l->len, 1)) {
		memcpy(l->buf + l->len, s, n);
		l->len += n;
		return;
	}
	put_mem_cut(l, s, n);
}

static void put_str(struct line *l, const char *s)
{
	put_mem(l, s, strlen(s));
}

/* A string literal, its length known when compiling. */
#define put_lit(l, s) put_mem((l), "" s, sizeof(s) - 1)

static void put_char(struct line *l, char c)
{
	if (l->len < TEXT_LINE_MAX)
		l->buf[l->len++] = c;
}

/* Unsigned decimal, at least width digits (zero-padded, at most 20). */
static void put_dec(struct line *l, uint64_t v, unsigned width)
{
	unsigned n = format_decimal_digits(v);
	char tmp[FORMAT_DECIMAL_MAX];

	if (n < width)
		n = width;
	if (l->len + n <= TEXT_LINE_MAX) {
		format_decimal_at(l->buf + l->len, v, n);
		l->len += n;
		return;
	}
	format_decimal_at(tmp, v, n);
	put_mem(l, tmp, n);
}

/* Seconds and microseconds of ns: "S.UUUUUU". */
static void put_seconds(struct line *l, uint64_t ns)
{
	put_dec(l, ns / 1000000000ull, 1);
	put_char(l, '.');
	put_dec(l, ns % 1000000000ull / 1000, 6);
}

/* The -t/-tt/-ttt and -r prefix for a line that happened at TSC tsc. */
static void put_time(struct line *l, uint64_t tsc)
{
	uint64_t ns;

	if (!fmt.timestamps && !fmt.relative)
		return;
	ns = clock_realtime_ns(tsc);
	if (fmt.relative) {
		uint64_t d = last_line_ns && ns > last_line_ns ? ns - last_line_ns : 0;

		last_line_ns = ns;
		put_seconds(l, d);
		put_char(l, ' ');
	}
	if (fmt.timestamps == 3) {
		put_seconds(l, ns);
	} else if (fmt.timestamps) {
		time_t secs = (time_t)(ns / 1000000000ull);
		struct tm tm;

		localtime_r(&secs, &tm);
		put_dec(l, (uint64_t)tm.tm_hour, 2);
		put_char(l, ':');
		put_dec(l, (uint64_t)tm.tm_min, 2);
		put_char(l, ':');
		put_dec(l, (uint64_t)tm.tm_sec, 2);
		if (fmt.timestamps == 2) {
			put_char(l, '.');
			put_dec(l, ns % 1000000000ull / 1000, 6);
		}
	}
	if (fmt.timestamps)
		put_char(l, ' ');
}

/* Start a line at the end of the output. */
static inline void line_begin(struct line *l)
{
	l->buf = output_room(TEXT_LINE_MAX);
	l->len = 0;
}

/* Prefix, time and indentation of a line about call depth. */
static inline void line_start(struct line *l, int tid, uint64_t tsc,
			      uint32_t depth)
{
	line_begin(l);
	if (fmt_seen.pid_prefix && tid) {
		put_lit(l, "[pid ");
		put_dec(l, (uint64_t)tid, 1);
		put_lit(l, "] ");
	}
	if (fmt.timestamps || fmt.relative)
		put_time(l, tsc);
	while (depth-- && l->len < 512)
		put_lit(l, "  ");
}

/* The line is done: keep it in the output (with a newline unless partial). */
static void line_write(struct line *l, bool newline)
{
	if (newline)
		put_char(l, '\n');
	output_advance(l->len);
	output_line_end();
}

/* "LIB:FUNC(" of a function, from its names (format_piece_make). */
static char *name_make(const char *lib, size_t a, const char *func, size_t b,
		       size_t *len)
{
	char *text = xmalloc(FORMAT_COPY_ROOM(a + b + 3));

	memcpy(text, lib, a);
	text[a] = ':';
	memcpy(text + a + 1, func, b);
	memcpy(text + a + 1 + b, "(", 2);
	*len = a + 1 + b;
	return text;
}

/*
 * "LIB:FUNC(" of function fn, NULL until its entry is filled in; *len is
 * the name's length, without the '(' (room for FORMAT_COPY_ROOM of it).
 */
static inline const char *name_of(uint32_t fn, size_t *len)
{
	static struct format_piece names[LTR_MAX_FUNCS];

	return format_piece_of(names, fn, name_make, len);
}

/* "LIB:FUNC" of c, and its '(' when open. */
static void put_name(struct line *l, const struct call *c, bool open)
{
	const char *name;
	size_t len;

	if ((name = name_of(c->fn, &len)) != NULL) {
		put_mem(l, name, len + open);
		return;
	}
	put_str(l, format_lib(c->fn));
	put_char(l, ':');
	put_str(l, format_func(c->fn));
	if (open)
		put_char(l, '(');
}

/*
 * Arguments [from, to) of c (r: its return, or NULL), comma-separated;
 * false if none was shown (all hidden by [if:]).
 */
static bool put_args(struct line *l, const struct who *w, const struct call *c,
		     const struct result *r, unsigned from, unsigned to)
{
	uint64_t hidden = args_hidden(c);
	unsigned i;
	bool first = true;
	size_t k;

	/* Each value is written in place, at the end of the line. */
	for (i = from; i < to; i++) {
		if (i < 64 && (hidden >> i & 1))
			continue;
		if (!first)
			put_lit(l, ", ");
		first = false;
		if (TEXT_LINE_MAX - l->len < 2)
			break;
		if (TEXT_LINE_MAX - l->len > ARGS_QUICK_ROOM &&
		    (k = args_value_quick(l->buf + l->len, c, i)) != 0) {
			l->len += k;
			continue;
		}
		l->len += args_value(l->buf + l->len, TEXT_LINE_MAX - l->len,
				     w->pid, c, r, i);
	}
	return !first;
}

/* "LIB:FUNC(args)": every argument, output ones as printed on return r. */
static void put_call(struct line *l, const struct who *w, const struct call *c,
		     const struct result *r)
{
	size_t k;

	put_name(l, c, true);
	if (TEXT_LINE_MAX - l->len > ARGS_LIST_ROOM &&
	    args_list_quick(l->buf + l->len, c, false, &k))
		l->len += k;
	else
		put_args(l, w, c, r, 0, args_count(c));
	put_char(l, ')');
}

/* "LIB:FUNC(args, " of a call shown before it returns: up to its output arguments. */
static void put_call_start(struct line *l, const struct who *w,
			   const struct call *c)
{
	unsigned n = args_count_at_entry(c), all = args_count(c);
	bool shown;

	put_name(l, c, true);
	shown = put_args(l, w, c, NULL, 0, n);
	if (n >= all)
		put_char(l, ')');
	else if (shown)
		put_lit(l, ", ");
}

/*
 * The rest of the arguments of a call started with put_call_start, and
 * ')', after lead ("" to continue its line, " " after "resumed>").
 */
static void put_call_rest(struct line *l, const struct who *w,
			  const struct call *c, const struct result *r,
			  const char *lead)
{
	unsigned n = args_count_at_entry(c), all = args_count(c);

	if (n >= all)
		return;
	put_str(l, lead);
	put_args(l, w, c, r, n, all);
	put_char(l, ')');
}

/* " <0.000012>" with -T. */
static void put_duration(struct line *l, const struct call *c,
			 const struct result *r)
{
	if (fmt.durations) {
		put_lit(l, " <");
		put_seconds(l, clock_ticks_to_ns(r->ts_exit - c->ts_enter));
		put_char(l, '>');
	}
}

/* " = ret <dur>", " = -1 ENOENT (No such file or directory)" or " = ? <why>". */
static void put_result(struct line *l, const struct who *w,
		       const struct call *c, const struct result *r)
{
	size_t k;

	put_lit(l, " = ");
	if (!r->returned) {
		put_lit(l, "? <");
		put_str(l, format_end_name(r->why));
		put_char(l, '>');
		return;
	}
	/* Written in place, like the arguments. */
	if (TEXT_LINE_MAX - l->len > ARGS_QUICK_ROOM &&
	    (k = args_return_quick(l->buf + l->len, c, r)) != 0)
		l->len += k;
	else if (TEXT_LINE_MAX - l->len >= 2)
		l->len += args_return(l->buf + l->len, TEXT_LINE_MAX - l->len,
				      w->pid, c, r);
	if (args_errno_name(r)) {
		put_char(l, ' ');
		put_str(l, args_errno_name(r));
		put_lit(l, " (");
		put_str(l, args_errno_text(r));
		put_char(l, ')');
	}
	put_duration(l, c, r);
}

/*
 * "LIB:FUNC(args) = ret" of a call seen whole whose values are all quick
 * (args_call_quick_text): its cached name and its values written at
 * once, with no bound checked on the way; false, nothing kept, when
 * put_call and put_result must print it.
 */
static bool put_call_quick(struct line *l, const struct call *c,
			   const struct result *r)
{
	const char *name;
	size_t len, k;
	char *p = l->buf + l->len;

	if (!(name = name_of(c->fn, &len)) ||
	    TEXT_LINE_MAX - l->len < FORMAT_COPY_ROOM(len + 1) + ARGS_CALL_ROOM)
		return false;
	format_copy(p, name, len + 1);
	if (!(k = args_call_quick_text(p + len + 1, c, r)))
		return false;
	l->len += len + 1 + k;
	put_duration(l, c, r);
	return true;
}

/* " [from main+0x1c]" with --caller. */
static void put_caller(struct line *l, const struct who *w, const struct call *c)
{
	char buf[512];

	if (!fmt.caller || !c->caller)
		return;
	put_lit(l, " [from ");
	put_str(l, symbolize_at(w->pid, c->caller, c->ts_enter, buf,
				sizeof(buf)));
	put_char(l, ']');
}

static void text_whole(const struct who *w, const struct call *c,
		       const struct result *r)
{
	struct line l;

	line_start(&l, w->tid, c->ts_enter, c->depth);
	if (!put_call_quick(&l, c, r)) {
		put_call(&l, w, c, r);
		put_result(&l, w, c, r);
	}
	put_caller(&l, w, c);
	line_write(&l, true);
	stack_text(w, c);
}

static void text_open(const struct who *w, const struct call *c)
{
	struct line l;

	line_start(&l, w->tid, c->ts_enter, c->depth);
	put_call(&l, w, c, NULL);
	put_str(&l, " {");
	put_caller(&l, w, c);
	line_write(&l, true);
	stack_text(w, c);
}

static void text_close(const struct who *w, const struct call *c,
		       const struct result *r)
{
	struct line l;

	line_start(&l, w->tid, r->ts_exit, c->depth);
	put_str(&l, "} ");
	/* Output arguments are known only now: the closing line has them all. */
	if (args_count_at_entry(c) < args_count(c))
		put_call(&l, w, c, r);
	else
		put_name(&l, c, false);
	put_result(&l, w, c, r);
	line_write(&l, true);
}

static void text_partial(const struct who *w, const struct call *c)
{
	struct line l;

	line_start(&l, w->tid, c->ts_enter, c->depth);
	put_call_start(&l, w, c);
	line_write(&l, false);
	output_flush();
}

static void text_partial_end(const struct who *w, const struct call *c,
			     const struct result *r)
{
	struct line l;

	line_begin(&l);
	put_call_rest(&l, w, c, r, "");
	put_result(&l, w, c, r);
	put_caller(&l, w, c);
	line_write(&l, true);
	stack_text(w, c);
}

static void text_unfinished(const struct who *w, const struct call *c)
{
	struct line l;

	line_begin(&l);
	put_caller(&l, w, c);
	put_str(&l, " <unfinished ...>");
	line_write(&l, true);
	stack_text(w, c);
}

static void text_resumed(const struct who *w, const struct call *c,
			 const struct result *r)
{
	struct line l;

	line_start(&l, w->tid, r->ts_exit, c->depth);
	put_str(&l, "<... ");
	put_name(&l, c, false);
	put_str(&l, " resumed>");
	put_call_rest(&l, w, c, r, " ");
	put_result(&l, w, c, r);
	line_write(&l, true);
}

static void text_entry_only(const struct who *w, const struct call *c)
{
	struct line l;

	line_start(&l, w->tid, c->ts_enter, c->depth);
	put_call(&l, w, c, NULL);
	put_str(&l, " <no return ...>");
	put_caller(&l, w, c);
	line_write(&l, true);
	stack_text(w, c);
}

static void text_exited(int pid, uint64_t tsc, int status)
{
	struct line l;

	line_start(&l, fmt_seen.processes ? pid : 0, tsc, 0);
	put_str(&l, "+++ exited (status ");
	if (status < 0)
		put_char(&l, '?'); /* it ended unseen */
	else
		put_dec(&l, (uint64_t)status, 1);
	put_str(&l, ") +++");
	line_write(&l, true);
}

static void text_killed(int pid, uint64_t tsc, int sig, bool core)
{
	const char *name = sigabbrev_np(sig);
	struct line l;

	line_start(&l, fmt_seen.processes ? pid : 0, tsc, 0);
	put_str(&l, "+++ killed by SIG");
	put_str(&l, name ? name : "?");
	if (core)
		put_str(&l, " (core dumped)");
	put_str(&l, " +++");
	line_write(&l, true);
}

static void text_untraced(const struct who *w, uint64_t tsc, const char *func)
{
	struct line l;

	line_start(&l, w->tid, tsc, 0);
	put_str(&l, "+++ ");
	put_str(&l, func);
	put_str(&l, " changes the credentials: untraced from here on +++");
	line_write(&l, true);
}

/* struct format's warm: the view of fn's values, its "LIB:FUNC(". */
static enum format_warm text_warm(uint32_t fn)
{
	return format_piece_warm(fn, name_of);
}

const struct format format_text = {
	.whole = text_whole,
	.open = text_open,
	.close = text_close,
	.partial = text_partial,
	.partial_end = text_partial_end,
	.unfinished = text_unfinished,
	.resumed = text_resumed,
	.entry_only = text_entry_only,
	.exited = text_exited,
	.killed = text_killed,
	.untraced = text_untraced,
	.warm = text_warm,
};
