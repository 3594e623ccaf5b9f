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
#include <string.h>

#include "clock.h"
#include "format.h"
#include "format-args.h"
#include "format-stack.h"
#include "session.h"
#include "symbolize.h"
#include "xmalloc.h"

/*
 * Bytes of the well-formed UTF-8 sequence at s (1 to 4), or 0 if s does
 * not start one: no overlong forms, surrogates or values past U+10FFFF.
 */
static size_t utf8_length(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/*
 * Valid JSON whatever s holds (names and paths come from the session):
 * control characters as \u00XX, and a byte that is not part of
 * well-formed UTF-8 as the text \xNN, as the text lines print it.
 */
void json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', out);
	while (*p) {
		size_t n = utf8_length(p);

		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (!n)
			fprintf(out, "\\\\x%02x", *p);
		else
			fwrite(p, 1, n, out);
		p += n ? n : 1;
	}
	putc('"', out);
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

/*
 * Append v in decimal ('-' first when negative), the digits written
 * straight to their place (a scratch buffer copied after its bytes were
 * stored one by one stalled on store forwarding).
 */
static void obj_dec(uint64_t v, bool negative)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	uint64_t ten = 10;
	size_t digits = 1;
	char *p;

	/* ts has 19 digits: count with compares, convert two at a time. */
	while (digits < 20 && v >= ten) {
		digits++;
		if (digits == 20)
			break;
		ten *= 10;
	}
	p = obj_room(digits + 1);
	if (negative)
		*p++ = '-';
	obj.len += digits + negative;
	p += digits;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		*--p = pairs[2 * r + 1];
		*--p = pairs[2 * r];
	}
	if (v >= 10) {
		*--p = pairs[2 * v + 1];
		*--p = pairs[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
}

/* Append an int in decimal. */
static void obj_int(int v)
{
	obj_dec(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

/* Append s as a JSON string: runs that need no escape are copied whole. */
static void obj_string(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	obj_lit("\"");
	for (;; s++) {
		unsigned char c = (unsigned char)*s;
		char *d;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		obj_mem(run, (size_t)(s - run));
		if (!c)
			break;
		d = obj_room(6);
		d[0] = '\\';
		if (c == '"' || c == '\\') {
			d[1] = (char)c;
			obj.len += 2;
		} else {
			memcpy(d + 1, "u00", 3);
			d[4] = hex[c >> 4];
			d[5] = hex[c & 0xf];
			obj.len += 6;
		}
		run = s + 1;
	}
	obj_lit("\"");
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
	static char value[ARG_TEXT_MAX];
	unsigned i, n = args_count(c), shown = 0;
	const char *names;
	size_t len;

	obj_lit("{\"type\":\"");
	obj_mem(type, strlen(type));
	obj_lit("\",");
	obj_who(w);
	obj_dec(clock_realtime_ns(tsc), false);
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
		if (!args_shown(c, i))
			continue;
		if (shown++)
			obj_lit(",");
		args_value(value, sizeof(value), w->pid, c, r, i);
		obj_string(value);
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
	static char value[ARG_TEXT_MAX];
	const char *err = r ? args_errno_name(r) : NULL;

	obj_lit(",\"ret\":");
	if (r && r->returned) {
		args_return(value, sizeof(value), w->pid, c, r);
		obj_string(value);
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

static void json_exited(int pid, int status)
{
	fprintf(fmt.out, "{\"type\":\"exited\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"status\":",
		pid, pid, (unsigned long long)clock_realtime_ns(clock_tsc()));
	if (status < 0)
		fputs("null}\n", fmt.out); /* it ended unseen */
	else
		fprintf(fmt.out, "%d}\n", status);
}

static void json_killed(int pid, int sig, bool core)
{
	const char *name = sigabbrev_np(sig);

	fprintf(fmt.out, "{\"type\":\"killed\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"signal\":\"SIG%s\",\"core_dumped\":%s}\n",
		pid, pid, (unsigned long long)clock_realtime_ns(clock_tsc()),
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
