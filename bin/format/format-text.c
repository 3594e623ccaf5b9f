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
static void put_mem(struct line *l, const char *s, size_t n)
{
	if (n > TEXT_LINE_MAX - l->len)
		n = TEXT_LINE_MAX - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
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
static void line_begin(struct line *l)
{
	l->buf = output_room(TEXT_LINE_MAX);
	l->len = 0;
}

/* Prefix, time and indentation of a line about call depth. */
static void line_start(struct line *l, int tid, uint64_t tsc, uint32_t depth)
{
	line_begin(l);
	if (fmt_seen.pid_prefix && tid) {
		put_lit(l, "[pid ");
		put_dec(l, (uint64_t)tid, 1);
		put_lit(l, "] ");
	}
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

/*
 * "LIB:FUNC" of c.  Every line starts with it: it is built once per
 * function, when its entry is filled in, and copied from then on.
 */
static void put_name(struct line *l, const struct call *c)
{
	static struct {
		char *text;
		size_t len;
	} names[LTR_MAX_FUNCS];
	uint32_t fn = c->fn;

	if (fn < LTR_MAX_FUNCS && !names[fn].text && catalog_func_ready(fn)) {
		const char *lib = format_lib(fn), *func = format_func(fn);
		size_t a = strlen(lib), b = strlen(func);

		names[fn].text = xmalloc(a + b + 2);
		memcpy(names[fn].text, lib, a);
		names[fn].text[a] = ':';
		memcpy(names[fn].text + a + 1, func, b + 1);
		names[fn].len = a + 1 + b;
	}
	if (fn < LTR_MAX_FUNCS && names[fn].text) {
		put_mem(l, names[fn].text, names[fn].len);
		return;
	}
	put_str(l, format_lib(fn));
	put_char(l, ':');
	put_str(l, format_func(fn));
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

	/* Each value is written in place, at the end of the line. */
	for (i = from; i < to; i++) {
		if (i < 64 && (hidden >> i & 1))
			continue;
		if (!first)
			put_lit(l, ", ");
		first = false;
		if (TEXT_LINE_MAX - l->len < 2)
			break;
		l->len += args_value(l->buf + l->len, TEXT_LINE_MAX - l->len,
				     w->pid, c, r, i);
	}
	return !first;
}

/* "LIB:FUNC(args)": every argument, output ones as printed on return r. */
static void put_call(struct line *l, const struct who *w, const struct call *c,
		     const struct result *r)
{
	put_name(l, c);
	put_char(l, '(');
	put_args(l, w, c, r, 0, args_count(c));
	put_char(l, ')');
}

/* "LIB:FUNC(args, " of a call shown before it returns: up to its output arguments. */
static void put_call_start(struct line *l, const struct who *w,
			   const struct call *c)
{
	unsigned n = args_count_at_entry(c), all = args_count(c);
	bool shown;

	put_name(l, c);
	put_char(l, '(');
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

/* " = ret <dur>", " = -1 ENOENT (No such file or directory)" or " = ? <why>". */
static void put_result(struct line *l, const struct who *w,
		       const struct call *c, const struct result *r)
{
	put_lit(l, " = ");
	if (!r->returned) {
		put_lit(l, "? <");
		put_str(l, format_end_name(r->why));
		put_char(l, '>');
		return;
	}
	/* Written in place, like the arguments. */
	if (TEXT_LINE_MAX - l->len >= 2)
		l->len += args_return(l->buf + l->len, TEXT_LINE_MAX - l->len,
				      w->pid, c, r);
	if (args_errno_name(r)) {
		put_char(l, ' ');
		put_str(l, args_errno_name(r));
		put_lit(l, " (");
		put_str(l, args_errno_text(r));
		put_char(l, ')');
	}
	if (fmt.durations) {
		put_lit(l, " <");
		put_seconds(l, clock_ticks_to_ns(r->ts_exit - c->ts_enter));
		put_char(l, '>');
	}
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
	put_call(&l, w, c, r);
	put_result(&l, w, c, r);
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
		put_name(&l, c);
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
	put_name(&l, c);
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
};
