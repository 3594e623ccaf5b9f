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
#include "format-pieces.h"
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

/* v in decimal at p (room for 2 bytes at least), '-' first when negative; returns the end. */
static inline __attribute__((always_inline)) char *
decimal_at(char *p, uint64_t v, bool negative)
{
	unsigned n;

	/*
	 * A depth, a short duration: one or two digits, without the digits'
	 * loops or a branch between them: v's pair, its leading '0' (v < 10)
	 * overwritten by its digit.
	 */
	if (v < 100 && !negative) {
		p[0] = format_pairs[2 * v + (v < 10)];
		p[1] = format_pairs[2 * v + 1];
		return p + 1 + (v >= 10);
	}
	if (v < 1000 && !negative) {
		format_digits3_at(p, (unsigned)v);
		return p + 3;
	}
	n = format_decimal_digits(v);

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
 * The last timestamp of ts_at, each formatting thread's (trace-rounds.c:
 * workers format objects too): its digits, and where its microsecond and
 * its second begin.  All zero at first: no timestamp of 1 s or more is
 * within a microsecond or a second of 0, so the first builds them,
 * whatever second it is in (a damaged file's clock may put it in
 * UINT64_MAX's: a cache of the last second that started there took it
 * for a kept one).
 */
static __thread struct {
	uint64_t usec, sec; /* the first ns of its microsecond, of its second */
	char text[32];      /* its digits (32: copied whole) */
	unsigned len;
} ts_last;

/* v (below 10^9) as exactly 9 digits at dst, 3 at a time (format_digits3_at). */
static inline void digits9_at(char *dst, uint32_t v)
{
	format_digits3_at(dst, v / 1000000);
	format_digits3_at(dst + 3, v / 1000 % 1000);
	format_digits3_at(dst + 6, v % 1000);
}

/* ts_at's timestamp ns, not of ts_last's microsecond, at p; the end. */
static __attribute__((noinline)) char *ts_slow_at(char *p, uint64_t ns)
{
	uint64_t d = ns - ts_last.sec;
	char *end = p + ts_last.len;

	if (ns < 1000000000u)
		return decimal_at(p, ns, false);
	memcpy(p, ts_last.text, sizeof(ts_last.text));
	if (d < 1000000000u) {
		/* Its second: the 9 digits below it. */
		digits9_at(end - 9, (uint32_t)d);
		digits9_at(ts_last.text + ts_last.len - 9, (uint32_t)d);
		ts_last.usec = ns - d % 1000;
		return end;
	}
	ts_last.len = format_decimal_digits(ns);
	format_decimal_at(ts_last.text, ns, ts_last.len);
	ts_last.usec = ns - ns % 1000;
	ts_last.sec = ns - ns % 1000000000u;
	memcpy(p, ts_last.text, sizeof(ts_last.text));
	return p + ts_last.len;
}

/*
 * A timestamp in ns at p, with room for 32 bytes; returns the end.
 * Objects come many a microsecond: the last one's digits are kept, and
 * only those that changed are written again, the last 3 when the
 * microsecond is the same (here, inline), the 9 below the seconds when
 * the second is (ts_slow_at).  Which it is, is a subtraction from where
 * the last one's microsecond and second begin, not a division (a
 * timestamp before them, from another thread, wraps around to a large
 * difference: not the same).  The kept digits are copied first, then
 * the new ones written into both copies: read back whole right after
 * being written a byte or two at a time, they stalled (store
 * forwarding: perf, --json on the loop, two fifths of this function's
 * time).
 */
static inline char *ts_at(char *p, uint64_t ns)
{
	uint64_t d = ns - ts_last.usec;
	unsigned len = ts_last.len;

	if (__builtin_expect(d >= 1000 || ns < 1000000000u, 0))
		return ts_slow_at(p, ns);
	memcpy(p, ts_last.text, sizeof(ts_last.text));
	format_digits3_at(p + len - 3, (unsigned)d);
	format_digits3_at(ts_last.text + len - 3, (unsigned)d);
	return p + len;
}

/* Append a timestamp in ns (ts_at). */
static struct obj obj_ts(struct obj o, uint64_t ns)
{
	o = obj_need(o, 32);
	o.p = ts_at(o.p, ns);
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

/* The n bytes at o.p + 1, printed with nothing to escape, quoted. */
static inline struct obj obj_quoted(struct obj o, size_t n)
{
	o.p[0] = '"';
	o.p[n + 1] = '"';
	o.p += n + 2;
	return o;
}

/* The most quotes and backslashes obj_escape_in_place escapes. */
#define IN_PLACE_MAX 16

/*
 * The value of n bytes at p + 1 escaped where it is, when it is printable
 * ASCII whose only bytes to escape are a few quotes and backslashes: a
 * string's text ("\"abc\"", "\"a\\n\""), a name.  Each run between them
 * is moved right once, from the last; json_escape would write the same.
 * Returns false, nothing changed, for any other value (a control
 * character, a byte of UTF-8, too many to escape).  On success p[0] is
 * how many were escaped: the escaped value is n + p[0] bytes at p + 1.
 */
static bool obj_escape_in_place(char *p, size_t n)
{
	unsigned char *t = (unsigned char *)p + 1;
	size_t pos[IN_PLACE_MAX], i = 0, end;
	unsigned k = 0, j;

	if (n + IN_PLACE_MAX + 2 > VALUE_ROOM)
		return false;
	for (;;) {
		i += format_plain(t + i, n - i);
		if (i == n)
			break;
		if ((t[i] != '"' && t[i] != '\\') || k == IN_PLACE_MAX)
			return false;
		pos[k++] = i++;
	}
	for (j = k, end = n; j-- > 0; end = pos[j]) {
		char ch = (char)t[pos[j]];

		memmove(t + pos[j] + 1 + j + 1, t + pos[j] + 1,
			end - pos[j] - 1);
		t[pos[j] + j] = '\\';
		t[pos[j] + j + 1] = (unsigned char)ch;
	}
	p[0] = (char)k;
	return true;
}

/*
 * The value of n bytes printed at o.p + 1, as a JSON string; plain: its
 * type is printed with nothing to escape (args_value_plain).
 */
static inline struct obj obj_value(struct obj o, size_t n, bool plain)
{
	static __thread char value[ARG_TEXT_MAX];

	if (!plain &&
	    format_plain((const unsigned char *)o.p + 1, n) < n) {
		if (obj_escape_in_place(o.p, n))
			return obj_quoted(o, n + (unsigned char)o.p[0]);
		memcpy(value, o.p + 1, n);
		return obj_string_n(o, value, n);
	}
	return obj_quoted(o, n);
}

/* s[0..n) as a JSON string at p (room for JSON_ESCAPED_MAX(n) + 2); returns the end. */
static char *string_at(char *p, const char *s, size_t n)
{
	*p++ = '"';
	p += json_escape(p, (const unsigned char *)s, n);
	*p++ = '"';
	return p;
}

/* `,"lib":"LIB","func":"FUNC","depth":` of a function, from its names (format_piece_make). */
static char *names_make(const char *lib, size_t a, const char *func, size_t b,
			size_t *len)
{
	char *text = xmalloc(FORMAT_COPY_ROOM(JSON_ESCAPED_MAX(a + b) + 32)),
	     *p = text;

	p = mempcpy(p, ",\"lib\":", 7);
	p = string_at(p, lib, a);
	p = mempcpy(p, ",\"func\":", 8);
	p = string_at(p, func, b);
	p = mempcpy(p, ",\"depth\":", 9);
	*len = (size_t)(p - text);
	return text;
}

/*
 * `,"lib":"LIB","func":"FUNC","depth":` of function fn, as JSON (room
 * for FORMAT_COPY_ROOM of its *len bytes), NULL until its entry is there.
 */
static inline const char *names_of(uint32_t fn, size_t *len)
{
	static struct format_piece names[LTR_MAX_FUNCS];

	return format_piece_of(names, fn, names_make, len);
}

/* The kinds of call objects, as their "type". */
enum obj_type { OBJ_CALL, OBJ_ENTER, OBJ_EXIT };

/* `{"type":"TYPE","pid":PID,"tid":TID,"ts":` of the last thread seen, for each type (each formatting thread's). */
static __thread struct {
	struct who who;
	char text[3][96];
	size_t len[3];
} heads;

/* Build heads for w. */
static __attribute__((noinline)) void heads_build(const struct who *w)
{
	static const char *const types[] = { "call", "enter", "exit" };
	unsigned t;

	for (t = 0; t < 3; t++) {
		char *p = heads.text[t];

		p = mempcpy(p, "{\"type\":\"", 9);
		p = mempcpy(p, types[t], strlen(types[t]));
		p = mempcpy(p, "\",\"pid\":", 8);
		p = decimal_at(p, w->pid < 0 ? 0 - (uint64_t)w->pid
					     : (uint64_t)w->pid, w->pid < 0);
		p = mempcpy(p, ",\"tid\":", 7);
		p = decimal_at(p, w->tid < 0 ? 0 - (uint64_t)w->tid
					     : (uint64_t)w->tid, w->tid < 0);
		p = mempcpy(p, ",\"ts\":", 6);
		heads.len[t] = (size_t)(p - heads.text[t]);
	}
	heads.who = *w;
}

/*
 * `{"type":"TYPE","pid":PID,"tid":TID,"ts":` of w, *len bytes (room for
 * FORMAT_COPY_ROOM of them): the same for most objects in a row, built
 * again only when the thread changes.
 */
static inline const char *head_of(enum obj_type type, const struct who *w,
				  size_t *len)
{
	if (__builtin_expect(!heads.len[0] || heads.who.pid != w->pid ||
			     heads.who.tid != w->tid, 0))
		heads_build(w);
	*len = heads.len[type];
	return heads.text[type];
}

/* Append the head of an object (head_of). */
static struct obj obj_head(struct obj o, enum obj_type type,
			   const struct who *w)
{
	size_t len;
	const char *text = head_of(type, w, &len);

	return obj_mem(o, text, len);
}

/* The keys every call object has, up to and including args (r: its return, or NULL). */
static struct obj json_call_head(enum obj_type type, const struct who *w,
				 const struct call *c,
				 const struct result *r, uint64_t tsc)
{
	unsigned i, n = 0, shown = 0;
	uint64_t hidden = 0;
	size_t k;
	bool escaped;
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
	o = obj_need(o, ARGS_LIST_ROOM);
	if (args_list_quick(o.p, c, true, &k)) {
		o.p += k;
	} else {
		n = args_count(c);
		hidden = args_hidden(c);
	}
	for (i = 0; i < n; i++) {
		if (i < 64 && (hidden >> i & 1))
			continue;
		o = obj_value_room(o, shown++);
		if ((k = args_value_quick(o.p + 1, c, i)) != 0) {
			o = obj_quoted(o, k);
			continue;
		}
		k = args_value_json(o.p + 1, ARG_TEXT_MAX, w->pid, c, r, i,
				    &escaped);
		o = escaped ? obj_quoted(o, k)
			    : obj_value(o, k, args_value_plain(c, i));
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

/* errno, dur_ns (and end) of a result, and the object's end; nulls for r == NULL. */
static void json_result_tail(struct obj o, const struct call *c,
			     const struct result *r)
{
	const char *err = r ? args_errno_name(r) : NULL;

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

/* ret, errno, dur_ns (and end) of a result, and the object's end; nulls for r == NULL. */
static void json_result(struct obj o, const struct who *w,
			const struct call *c, const struct result *r)
{
	o = obj_lit(o, ",\"ret\":");
	if (r && r->returned) {
		size_t k;
		bool escaped = true;

		o = obj_value_room(o, false);
		if ((k = args_return_quick(o.p + 1, c, r)) == 0)
			k = args_return_json(o.p + 1, ARG_TEXT_MAX, w->pid, c,
					     r, &escaped);
		o = escaped ? obj_quoted(o, k)
			    : obj_value(o, k, args_return_plain(c));
	} else {
		o = obj_lit(o, "null");
	}
	json_result_tail(o, c, r);
}

/* Room json_whole_quick asks for, besides the function's names. */
#define QUICK_ROOM FORMAT_COPY_ROOM(512 + ARGS_CALL_ROOM)

/*
 * A call seen whole whose values are all quick (args_call_quick_json),
 * without --caller or -k: the whole object written with one pointer, in
 * room asked for once, its cached pieces (head_of, names_of) copied in
 * whole 32-byte pieces; false, nothing kept, when json_call_head and
 * json_result must write it.
 */
static bool json_whole_quick(const struct who *w, const struct call *c,
			     const struct result *r)
{
	const char *names, *head;
	size_t len, head_len, k;
	struct obj o;
	char *p;

	if (fmt.caller || fmt.stack || !(names = names_of(c->fn, &len)) ||
	    len + QUICK_ROOM > OBJ_PIECE)
		return false;
	head = head_of(OBJ_CALL, w, &head_len);
	o = obj_begin(OBJ_PIECE);
	p = format_copy(o.p, head, head_len);
	p = ts_at(p, clock_realtime_ns(c->ts_enter));
	p = format_copy(p, names, len);
	p = decimal_at(p, c->depth, false);
	p = mempcpy(p, ",\"args\":[", 9);
	if (!(k = args_call_quick_json(p, c, r)))
		return false;
	p = mempcpy(p + k, ",\"errno\":null,\"dur_ns\":", 23);
	p = decimal_at(p, clock_ticks_to_ns(r->ts_exit - c->ts_enter), false);
	o.p = mempcpy(p, "}\n", 2);
	obj_end(o);
	return true;
}

static void json_whole(const struct who *w, const struct call *c,
		       const struct result *r)
{
	if (!json_whole_quick(w, c, r))
		json_result(json_call_head(OBJ_CALL, w, c, r, c->ts_enter), w,
			    c, r);
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

/* struct format's warm: the view of fn's values, its names' piece. */
static enum format_warm json_warm(uint32_t fn)
{
	return format_piece_warm(fn, names_of);
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
	.warm = json_warm,
};
