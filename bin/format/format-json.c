/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-json.c: trace events as JSON Lines (--json), one object a line.
 *
 * Keys are stable: type ("call" for a call seen whole, "enter" and "exit"
 * for one split by nested calls or blocking, "exited", "killed"), pid, tid,
 * ts (ns since the epoch), lib, func, depth, args (the values as printed),
 * ret (null when it did not return; "end" then says why), errno, dur_ns.
 */
#include "config.h"

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "clock.h"
#include "format.h"
#include "format-args.h"
#include "format-stack.h"
#include "json-string.h"
#include "output.h"
#include "session.h"
#include "symbolize.h"
#include "xmalloc.h"

/*
 * A call's object is written in place at the end of the output's block
 * (output.h), like a text line: fprintf and putc a field were five times
 * the text trace's cost.  It is written through a cursor (struct obj)
 * passed and returned by value, whose address never escapes, so that it
 * stays in two registers: a bounds check that reloaded the block's
 * globals at every key was a tenth of the object's cost.  Each piece asks
 * for its room first; a block without it is handed over and the object
 * goes on in the next, so an object longer than a block (many long
 * strings) is written in pieces, never cut.
 */
#define OBJ_PIECE (1u << 16) /* the most room asked for at once */

struct obj {
	char *p, *end;
};

/* A cursor at the end of the output, with room for n bytes. */
static struct obj obj_begin(size_t n)
{
	struct obj o;

	o.p = output_room(n);
	o.end = output_block.buf + output_block.size;
	return o;
}

/* Keep what o wrote: the object, or a piece a stdio writer continues, is whole. */
static void obj_end(struct obj o)
{
	output_block.len = (size_t)(o.p - output_block.buf);
	output_line_end();
}

/* o, full: what it wrote kept, and room for n bytes in the next block. */
static __attribute__((noinline)) struct obj obj_more(struct obj o, size_t n)
{
	output_block.len = (size_t)(o.p - output_block.buf);
	return obj_begin(n);
}

/* o with room for n more bytes (n at most OBJ_PIECE). */
static inline struct obj obj_need(struct obj o, size_t n)
{
	if (__builtin_expect((size_t)(o.end - o.p) >= n, 1))
		return o;
	return obj_more(o, n);
}

/* Append n bytes of s (n at most OBJ_PIECE). */
static inline struct obj obj_mem(struct obj o, const char *s, size_t n)
{
	o = obj_need(o, n);
	memcpy(o.p, s, n);
	o.p += n;
	return o;
}

#define obj_lit(o, s) obj_mem((o), "" s, sizeof(s) - 1)

/* v in decimal at p, '-' first when negative; returns the end. */
static inline char *decimal_at(char *p, uint64_t v, bool negative)
{
	unsigned n = format_decimal_digits(v);

	*p = '-';
	format_decimal_at(p + negative, v, n);
	return p + negative + n;
}

/* Append v in decimal. */
static inline struct obj obj_dec(struct obj o, uint64_t v)
{
	o = obj_need(o, FORMAT_DECIMAL_MAX);
	o.p = decimal_at(o.p, v, false);
	return o;
}

/*
 * Append a timestamp in ns.  Objects come many a microsecond: the last
 * one's digits are kept, and only those that changed are written again,
 * the last 3 when the microsecond is the same, the 9 below the seconds
 * when the second is.
 */
static struct obj obj_ts(struct obj o, uint64_t ns)
{
	static uint64_t last = UINT64_MAX;
	static char text[32]; /* last's digits (32: copied whole) */
	static unsigned len;

	if (ns < 1000000000u)
		return obj_dec(o, ns);
	if (ns / 1000 == last / 1000) {
		format_decimal_at(text + len - 3, ns % 1000, 3);
	} else if (ns / 1000000000u == last / 1000000000u) {
		format_decimal_at(text + len - 9, ns % 1000000000u, 9);
	} else {
		len = format_decimal_digits(ns);
		format_decimal_at(text, ns, len);
	}
	last = ns;
	o = obj_need(o, sizeof(text));
	memcpy(o.p, text, sizeof(text));
	o.p += len;
	return o;
}

/* Append s[0..n) as a JSON string (json_escape). */
static struct obj obj_string_n(struct obj o, const char *s, size_t n)
{
	if (JSON_ESCAPED_MAX(n) + 2 > OBJ_PIECE) {
		/* More than a piece, escaped: in pieces. */
		o = obj_lit(o, "\"");
		while (n) {
			size_t k = n < 1024 ? n : 1024;

			/* Never between the bytes of one UTF-8 sequence. */
			while (k < n && k > 1020 && (s[k] & 0xc0) == 0x80)
				k--;
			o = obj_need(o, JSON_ESCAPED_MAX(k));
			o.p += json_escape(o.p, (const unsigned char *)s, k);
			s += k;
			n -= k;
		}
		return obj_lit(o, "\"");
	}
	o = obj_need(o, JSON_ESCAPED_MAX(n) + 2);
	*o.p = '"';
	o.p += 1 + json_escape(o.p + 1, (const unsigned char *)s, n);
	*o.p++ = '"';
	return o;
}

/* Append the C string s as a JSON string. */
static struct obj obj_string(struct obj o, const char *s)
{
	return obj_string_n(o, s, strlen(s));
}

/*
 * A value is printed straight into the object, after its opening quote,
 * at o.p + 1 with VALUE_ROOM bytes of room (obj_value_room): a comma
 * before it, and its quotes.  obj_value(n)
 * then closes it; only a value with bytes to escape (a quote, a
 * backslash) is copied out and escaped back into place.
 */
#define VALUE_ROOM (ARG_TEXT_MAX + 3)

/* Room for a value at o.p + 1 (after a comma, when comma). */
static inline struct obj obj_value_room(struct obj o, bool comma)
{
	o = obj_need(o, VALUE_ROOM);
	if (comma)
		*o.p++ = ',';
	return o;
}

/*
 * The value of n bytes printed at o.p + 1, as a JSON string; plain: its
 * type is printed with nothing to escape (args_value_plain).
 */
static inline struct obj obj_value(struct obj o, size_t n, bool plain)
{
	static char value[ARG_TEXT_MAX];

	if (!plain &&
	    format_plain((const unsigned char *)o.p + 1, n) < n) {
		memcpy(value, o.p + 1, n);
		return obj_string_n(o, value, n);
	}
	o.p[0] = '"';
	o.p[n + 1] = '"';
	o.p += n + 2;
	return o;
}

/* s[0..n) as a JSON string at p (room for JSON_ESCAPED_MAX(n) + 2); returns the end. */
static char *string_at(char *p, const char *s, size_t n)
{
	*p++ = '"';
	p += json_escape(p, (const unsigned char *)s, n);
	*p++ = '"';
	return p;
}

/*
 * `,"lib":"LIB","func":"FUNC","depth":` of function fn, as JSON: built
 * once per function (like the text's names), NULL until its entry is there.
 */
static const char *names_of(uint32_t fn, size_t *len)
{
	static struct {
		char *text;
		size_t len;
	} names[LTR_MAX_FUNCS];

	if (fn >= LTR_MAX_FUNCS || !catalog_func_ready(fn))
		return NULL;
	if (!names[fn].text) {
		const char *lib = format_lib(fn), *func = format_func(fn);
		size_t a = strlen(lib), b = strlen(func);
		char *text = xmalloc(JSON_ESCAPED_MAX(a + b) + 32), *p = text;

		p = mempcpy(p, ",\"lib\":", 7);
		p = string_at(p, lib, a);
		p = mempcpy(p, ",\"func\":", 8);
		p = string_at(p, func, b);
		p = mempcpy(p, ",\"depth\":", 9);
		names[fn].len = (size_t)(p - text);
		names[fn].text = text;
	}
	*len = names[fn].len;
	return names[fn].text;
}

/* The kinds of call objects, as their "type". */
enum obj_type { OBJ_CALL, OBJ_ENTER, OBJ_EXIT };

/*
 * `{"type":"TYPE","pid":PID,"tid":TID,"ts":` of w: the same for most
 * objects in a row, kept for the last thread seen, for each type.
 */
static struct obj obj_head(struct obj o, enum obj_type type,
			   const struct who *w)
{
	static const char *const types[] = { "call", "enter", "exit" };
	static struct who last;
	static char text[3][96];
	static size_t len[3];
	unsigned t;

	if (!len[0] || last.pid != w->pid || last.tid != w->tid) {
		for (t = 0; t < 3; t++) {
			char *p = text[t];

			p = mempcpy(p, "{\"type\":\"", 9);
			p = mempcpy(p, types[t], strlen(types[t]));
			p = mempcpy(p, "\",\"pid\":", 8);
			p = decimal_at(p, w->pid < 0 ? 0 - (uint64_t)w->pid
						     : (uint64_t)w->pid, w->pid < 0);
			p = mempcpy(p, ",\"tid\":", 7);
			p = decimal_at(p, w->tid < 0 ? 0 - (uint64_t)w->tid
						     : (uint64_t)w->tid, w->tid < 0);
			p = mempcpy(p, ",\"ts\":", 6);
			len[t] = (size_t)(p - text[t]);
		}
		last = *w;
	}
	return obj_mem(o, text[type], len[type]);
}

/* The keys every call object has, up to and including args (r: its return, or NULL). */
static struct obj json_call_head(enum obj_type type, const struct who *w,
				 const struct call *c,
				 const struct result *r, uint64_t tsc)
{
	unsigned i, n = args_count(c), shown = 0;
	uint64_t hidden = args_hidden(c);
	struct obj o = obj_begin(OBJ_PIECE);
	const char *names;
	size_t len;

	o = obj_head(o, type, w);
	o = obj_ts(o, clock_realtime_ns(tsc));
	if ((names = names_of(c->fn, &len)) != NULL) {
		o = obj_mem(o, names, len);
	} else {
		o = obj_lit(o, ",\"lib\":");
		o = obj_string(o, format_lib(c->fn));
		o = obj_lit(o, ",\"func\":");
		o = obj_string(o, format_func(c->fn));
		o = obj_lit(o, ",\"depth\":");
	}
	o = obj_dec(o, c->depth);
	o = obj_lit(o, ",\"args\":[");
	for (i = 0; i < n; i++) {
		if (i < 64 && (hidden >> i & 1))
			continue;
		o = obj_value_room(o, shown++);
		o = obj_value(o, args_value(o.p + 1, ARG_TEXT_MAX, w->pid, c,
					    r, i),
			      args_value_plain(c, i));
	}
	o = obj_lit(o, "]");
	if (fmt.caller && c->caller) {
		char buf[512];

		o = obj_lit(o, ",\"caller\":");
		o = obj_string(o, symbolize_at(w->pid, c->caller, c->ts_enter,
					       buf, sizeof(buf)));
	}
	/* The stack goes with the call's first object ("call", "enter"). */
	if (fmt.stack && type != OBJ_EXIT) {
		obj_end(o);
		stack_json(w, c);
		o = obj_begin(OBJ_PIECE);
	}
	return o;
}

/* ret, errno, dur_ns (and end) of a result, and the object's end; nulls for r == NULL. */
static void json_result(struct obj o, const struct who *w,
			const struct call *c, const struct result *r)
{
	const char *err = r ? args_errno_name(r) : NULL;

	o = obj_lit(o, ",\"ret\":");
	if (r && r->returned) {
		o = obj_value_room(o, false);
		o = obj_value(o, args_return(o.p + 1, ARG_TEXT_MAX, w->pid, c,
					     r),
			      args_return_plain(c));
	} else {
		o = obj_lit(o, "null");
	}
	if (err) {
		o = obj_lit(o, ",\"errno\":");
		o = obj_string(o, err);
		o = obj_lit(o, ",\"dur_ns\":");
	} else {
		o = obj_lit(o, ",\"errno\":null,\"dur_ns\":");
	}
	if (r && r->returned)
		o = obj_dec(o, clock_ticks_to_ns(r->ts_exit - c->ts_enter));
	else
		o = obj_lit(o, "null");
	if (r && !r->returned) {
		o = obj_lit(o, ",\"end\":");
		o = obj_string(o, format_end_name(r->why));
	}
	obj_end(obj_lit(o, "}\n"));
}

static void json_whole(const struct who *w, const struct call *c,
		       const struct result *r)
{
	json_result(json_call_head(OBJ_CALL, w, c, r, c->ts_enter), w, c, r);
}

static void json_enter(const struct who *w, const struct call *c)
{
	json_result(json_call_head(OBJ_ENTER, w, c, NULL, c->ts_enter), w, c,
		    NULL);
}

static void json_exit(const struct who *w, const struct call *c,
		      const struct result *r)
{
	json_result(json_call_head(OBJ_EXIT, w, c, r, r->ts_exit), w, c, r);
}

static void json_nothing(const struct who *w, const struct call *c)
{
}

static void json_entry_only(const struct who *w, const struct call *c)
{
	struct obj o = json_call_head(OBJ_CALL, w, c, NULL, c->ts_enter);

	obj_end(obj_lit(o, ",\"ret\":null,\"errno\":null,\"dur_ns\":null,\"end\":\"no return\"}\n"));
}

static void json_exited(int pid, uint64_t tsc, int status)
{
	fprintf(fmt.out, "{\"type\":\"exited\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"status\":",
		pid, pid, (unsigned long long)clock_realtime_ns(tsc));
	if (status < 0)
		fputs("null}\n", fmt.out); /* it ended unseen */
	else
		fprintf(fmt.out, "%d}\n", status);
}

static void json_killed(int pid, uint64_t tsc, int sig, bool core)
{
	const char *name = sigabbrev_np(sig);

	fprintf(fmt.out, "{\"type\":\"killed\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"signal\":\"SIG%s\",\"core_dumped\":%s}\n",
		pid, pid, (unsigned long long)clock_realtime_ns(tsc),
		name ? name : "?", core ? "true" : "false");
}

static void json_untraced(const struct who *w, uint64_t tsc, const char *func)
{
	fprintf(fmt.out, "{\"type\":\"untraced\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"func\":",
		w->pid, w->tid, (unsigned long long)clock_realtime_ns(tsc));
	json_write_string(fmt.out, func);
	fputs(",\"why\":\"credentials\"}\n", fmt.out);
}

const struct format format_json = {
	.whole = json_whole,
	.open = json_enter,
	.close = json_exit,
	.partial = json_enter,
	.partial_end = json_exit,
	.unfinished = json_nothing,
	.resumed = json_exit,
	.entry_only = json_entry_only,
	.exited = json_exited,
	.killed = json_killed,
	.untraced = json_untraced,
};
