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
#include <string.h>

#include "clock.h"
#include "format.h"
#include "format-args.h"
#include "symbolize.h"

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

/* The keys every call object has, up to and including args (r: its return, or NULL). */
static void json_call_head(const char *type, const struct who *w,
			   const struct call *c, const struct result *r,
			   uint64_t tsc)
{
	static char value[ARG_TEXT_MAX];
	unsigned i, n = args_count(c);

	fprintf(fmt.out, "{\"type\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"lib\":",
		type, w->pid, w->tid,
		(unsigned long long)clock_realtime_ns(tsc));
	json_write_string(fmt.out, format_lib(c->fn));
	fputs(",\"func\":", fmt.out);
	json_write_string(fmt.out, format_func(c->fn));
	fprintf(fmt.out, ",\"depth\":%u,\"args\":[", c->depth);
	for (i = 0; i < n; i++) {
		if (i)
			putc(',', fmt.out);
		json_write_string(fmt.out, args_value(value, sizeof(value),
						      w->pid, c, r, i));
	}
	putc(']', fmt.out);
	if (fmt.caller && c->caller) {
		char buf[512];

		fputs(",\"caller\":", fmt.out);
		json_write_string(fmt.out, symbolize(fmt.session, w->pid,
						     c->caller, buf, sizeof(buf)));
	}
}

/* ret, errno, dur_ns (and end) of a result; nulls for r == NULL. */
static void json_result(const struct who *w, const struct call *c,
			const struct result *r)
{
	static char value[ARG_TEXT_MAX];
	const char *err = r ? args_errno_name(r) : NULL;

	fputs(",\"ret\":", fmt.out);
	if (r && r->returned)
		json_write_string(fmt.out, args_return(value, sizeof(value),
						       w->pid, c, r));
	else
		fputs("null", fmt.out);
	fputs(",\"errno\":", fmt.out);
	if (err)
		json_write_string(fmt.out, err);
	else
		fputs("null", fmt.out);
	fputs(",\"dur_ns\":", fmt.out);
	if (r && r->returned)
		fprintf(fmt.out, "%llu", (unsigned long long)clock_ticks_to_ns(
						 r->ts_exit - c->ts_enter));
	else
		fputs("null", fmt.out);
	if (r && !r->returned)
		fprintf(fmt.out, ",\"end\":\"%s\"", format_end_name(r->why));
	fputs("}\n", fmt.out);
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
	fputs(",\"ret\":null,\"errno\":null,\"dur_ns\":null,\"end\":\"no return\"}\n",
	      fmt.out);
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
};
