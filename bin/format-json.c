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

#include "clock.h"
#include "format.h"
#include "format-args.h"
#include "format-stack.h"
#include "session.h"
#include "symbolize.h"
#include "xmalloc.h"

/*
 * Bytes of the well-formed UTF-8 sequence at s (1 to 4, at most n), or 0
 * if s does not start one: no overlong forms, surrogates or values past
 * U+10FFFF.
 */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* Bytes a JSON string cannot hold as they are, or that start UTF-8. */
static const bool json_special[256] = {
	[0 ... 0x1f] = true, ['"'] = true, ['\\'] = true, [0x7f ... 0xff] = true,
};

/* Bytes of s[0..n) before the first json_special one. */
static size_t json_plain(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && !json_special[s[i]])
		i++;
	return i;
}

/*
 * The one JSON string escaper: s[0..n) as the inside of a JSON string, at
 * dst (room for JSON_ESCAPED_MAX(n) bytes); returns the bytes written.
 * Valid JSON whatever s holds (names and paths come from the session):
 * control characters as \u00XX, and a byte that is not part of
 * well-formed UTF-8 as the text \xNN, as the text lines print it.  Runs
 * that need nothing are copied whole.
 */
#define JSON_ESCAPED_MAX(n) (6 * (n))
static size_t json_escape(char *dst, const unsigned char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *d = dst;
	size_t i = 0, run, len;

	while (i < n) {
		unsigned char c;

		run = json_plain(s + i, n - i);
		memcpy(d, s + i, run);
		d += run;
		i += run;
		if (i == n)
			break;
		c = s[i];
		if (c == '"' || c == '\\') {
			*d++ = '\\';
			*d++ = (char)c;
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(d, "\\u00", 4);
			d[4] = hex[c >> 4];
			d[5] = hex[c & 0xf];
			d += 6;
			i++;
		} else if ((len = utf8_length(s + i, n - i)) != 0) {
			memcpy(d, s + i, len);
			d += len;
			i += len;
		} else {
			memcpy(d, "\\\\x", 3);
			d[3] = hex[c >> 4];
			d[4] = hex[c & 0xf];
			d += 5;
			i++;
		}
	}
	return (size_t)(d - dst);
}

void json_write_string(FILE *out, const char *s)
{
	size_t n = strlen(s);
	char small[256], *buf = small;

	if (JSON_ESCAPED_MAX(n) + 2 > sizeof(small))
		buf = xmalloc(JSON_ESCAPED_MAX(n) + 2);
	buf[0] = '"';
	n = 1 + json_escape(buf + 1, (const unsigned char *)s, n);
	buf[n++] = '"';
	fwrite(buf, 1, n, out);
	if (buf != small)
		free(buf);
}

/*
 * A call's object is built in a buffer and written with one fwrite, like a
 * text line (format-text.c): fprintf and putc a field were five times the
 * text trace's cost.  An object longer than the buffer (many long strings)
 * is written in pieces, never cut.
 */
static struct {
	char buf[1 << 16];
	size_t len;
} obj;

/* Write out what the buffer holds (an object too long for it, or one done). */
static __attribute__((noinline)) void obj_flush(void)
{
	fwrite_unlocked(obj.buf, 1, obj.len, fmt.out);
	obj.len = 0;
}

/* Room for n more bytes (n at most the buffer's size). */
static inline char *obj_room(size_t n)
{
	if (__builtin_expect(obj.len + n > sizeof(obj.buf), 0))
		obj_flush();
	return obj.buf + obj.len;
}

/* Append n bytes of s. */
static inline void obj_mem(const char *s, size_t n)
{
	if (__builtin_expect(obj.len + n <= sizeof(obj.buf), 1)) {
		memcpy(obj.buf + obj.len, s, n);
		obj.len += n;
		return;
	}
	while (n) {
		size_t k = n < sizeof(obj.buf) ? n : sizeof(obj.buf);

		memcpy(obj_room(k), s, k);
		obj.len += k;
		s += k;
		n -= k;
	}
}

#define obj_lit(s) obj_mem("" s, sizeof(s) - 1)

/* Append v in decimal, '-' first when negative. */
static void obj_dec(uint64_t v, bool negative)
{
	unsigned n = format_decimal_digits(v);
	char *p = obj_room(n + 1);

	*p = '-';
	format_decimal_at(p + negative, v, n);
	obj.len += negative + n;
}

/* Append an int in decimal. */
static void obj_int(int v)
{
	obj_dec(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/*
 * Append a timestamp in ns.  Lines come many a second: the seconds'
 * digits are kept from the last one, only the nanoseconds' are written.
 */
static void obj_ts(uint64_t ns)
{
	static uint64_t last_secs = UINT64_MAX;
	static char secs_text[FORMAT_DECIMAL_MAX];
	static unsigned secs_len;
	uint64_t secs = ns / 1000000000u;
	char *p;

	if (!secs) {
		obj_dec(ns, false);
		return;
	}
	if (secs != last_secs) {
		last_secs = secs;
		secs_len = format_decimal_digits(secs);
		format_decimal_at(secs_text, secs, secs_len);
	}
	p = obj_room(secs_len + 9);
	memcpy(p, secs_text, secs_len);
	format_decimal_at(p + secs_len, ns % 1000000000u, 9);
	obj.len += secs_len + 9;
}

/* Append s[0..n) as a JSON string (json_escape). */
static void obj_string_n(const char *s, size_t n)
{
	char *d;

	if (JSON_ESCAPED_MAX(n) + 2 > sizeof(obj.buf)) {
		/* Longer than the buffer (never, with ARG_TEXT_MAX): in pieces. */
		obj_lit("\"");
		while (n) {
			size_t k = n < 1024 ? n : 1024;

			/* Never between the bytes of one UTF-8 sequence. */
			while (k < n && k > 1020 && (s[k] & 0xc0) == 0x80)
				k--;
			obj_flush();
			obj.len = json_escape(obj.buf, (const unsigned char *)s, k);
			s += k;
			n -= k;
		}
		obj_lit("\"");
		return;
	}
	d = obj_room(JSON_ESCAPED_MAX(n) + 2);
	*d = '"';
	d += 1 + json_escape(d + 1, (const unsigned char *)s, n);
	*d++ = '"';
	obj.len = (size_t)(d - obj.buf);
}

/* Append the C string s as a JSON string. */
static void obj_string(const char *s)
{
	obj_string_n(s, strlen(s));
}

/*
 * A value is printed straight into the object, after its opening quote:
 * where, with room for ARG_TEXT_MAX bytes.  obj_value_end(n) then closes
 * it; only a value with bytes to escape (a quote, a backslash) is copied
 * out and escaped back into place.
 */
static char *obj_value_start(void)
{
	return obj_room(ARG_TEXT_MAX + 2) + 1;
}

/* The value of n bytes printed at obj_value_start(), as a JSON string. */
static void obj_value_end(size_t n)
{
	static char value[ARG_TEXT_MAX];
	char *d = obj.buf + obj.len;

	if (json_plain((const unsigned char *)d + 1, n) < n) {
		memcpy(value, d + 1, n);
		obj_string_n(value, n);
		return;
	}
	d[0] = '"';
	d[n + 1] = '"';
	obj.len += n + 2;
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

	if (fn >= LTR_MAX_FUNCS || !session_func_ready(fmt.session, fn))
		return NULL;
	if (!names[fn].text) {
		const char *lib = format_lib(fn), *func = format_func(fn);
		size_t most = 6 * (strlen(lib) + strlen(func)) + 64, saved;

		if (most > sizeof(obj.buf) / 2)
			return NULL;
		/* Built at the end of the object (room made first), then moved out. */
		obj_room(most);
		saved = obj.len;
		obj_lit(",\"lib\":");
		obj_string(lib);
		obj_lit(",\"func\":");
		obj_string(func);
		obj_lit(",\"depth\":");
		names[fn].len = obj.len - saved;
		names[fn].text = xmalloc(names[fn].len);
		memcpy(names[fn].text, obj.buf + saved, names[fn].len);
		obj.len = saved;
	}
	*len = names[fn].len;
	return names[fn].text;
}

/* `"pid":PID,"tid":TID,"ts":` of w: the same for most objects in a row. */
static void obj_who(const struct who *w)
{
	static struct who last;
	static char text[80];
	static size_t len;

	if (!len || last.pid != w->pid || last.tid != w->tid) {
		size_t saved;

		obj_room(sizeof(text)); /* so that nothing is written out below */
		saved = obj.len;
		obj_lit("\"pid\":");
		obj_int(w->pid);
		obj_lit(",\"tid\":");
		obj_int(w->tid);
		obj_lit(",\"ts\":");
		len = obj.len - saved;
		memcpy(text, obj.buf + saved, len);
		obj.len = saved;
		last = *w;
	}
	obj_mem(text, len);
}

/* The keys every call object has, up to and including args (r: its return, or NULL). */
static void json_call_head(const char *type, const struct who *w,
			   const struct call *c, const struct result *r,
			   uint64_t tsc)
{
	unsigned i, n = args_count(c), shown = 0;
	uint64_t hidden = args_hidden(c);
	const char *names;
	size_t len;

	obj_lit("{\"type\":\"");
	obj_mem(type, strlen(type));
	obj_lit("\",");
	obj_who(w);
	obj_ts(clock_realtime_ns(tsc));
	if ((names = names_of(c->fn, &len)) != NULL) {
		obj_mem(names, len);
	} else {
		obj_lit(",\"lib\":");
		obj_string(format_lib(c->fn));
		obj_lit(",\"func\":");
		obj_string(format_func(c->fn));
		obj_lit(",\"depth\":");
	}
	obj_dec(c->depth, false);
	obj_lit(",\"args\":[");
	for (i = 0; i < n; i++) {
		if (i < 64 && (hidden >> i & 1))
			continue;
		if (shown++)
			obj_lit(",");
		obj_value_end(args_value(obj_value_start(), ARG_TEXT_MAX,
					 w->pid, c, r, i));
	}
	obj_lit("]");
	if (fmt.caller && c->caller) {
		char buf[512];

		obj_lit(",\"caller\":");
		obj_string(symbolize(fmt.session, w->pid, c->caller, buf,
				     sizeof(buf)));
	}
	/* The stack goes with the call's first object ("call", "enter"). */
	if (fmt.stack && strcmp(type, "exit") != 0) {
		obj_flush();
		stack_json(w, c);
	}
}

/* ret, errno, dur_ns (and end) of a result; nulls for r == NULL. */
static void json_result(const struct who *w, const struct call *c,
			const struct result *r)
{
	const char *err = r ? args_errno_name(r) : NULL;

	obj_lit(",\"ret\":");
	if (r && r->returned) {
		obj_value_end(args_return(obj_value_start(), ARG_TEXT_MAX,
					  w->pid, c, r));
	} else {
		obj_lit("null");
	}
	obj_lit(",\"errno\":");
	if (err)
		obj_string(err);
	else
		obj_lit("null");
	obj_lit(",\"dur_ns\":");
	if (r && r->returned)
		obj_dec(clock_ticks_to_ns(r->ts_exit - c->ts_enter), false);
	else
		obj_lit("null");
	if (r && !r->returned) {
		obj_lit(",\"end\":");
		obj_string(format_end_name(r->why));
	}
	obj_lit("}\n");
	obj_flush();
}

static void json_whole(const struct who *w, const struct call *c,
		       const struct result *r)
{
	json_call_head("call", w, c, r, c->ts_enter);
	json_result(w, c, r);
}

static void json_enter(const struct who *w, const struct call *c)
{
	json_call_head("enter", w, c, NULL, c->ts_enter);
	json_result(w, c, NULL);
}

static void json_exit(const struct who *w, const struct call *c,
		      const struct result *r)
{
	json_call_head("exit", w, c, r, r->ts_exit);
	json_result(w, c, r);
}

static void json_nothing(const struct who *w, const struct call *c)
{
}

static void json_entry_only(const struct who *w, const struct call *c)
{
	json_call_head("call", w, c, NULL, c->ts_enter);
	obj_lit(",\"ret\":null,\"errno\":null,\"dur_ns\":null,\"end\":\"no return\"}\n");
	obj_flush();
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
