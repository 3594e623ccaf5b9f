/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.c: print "ltruss: error: ..." lines and exit with status 2. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/*
 * Keep a message one line of text: a control character that came from a
 * file or an argument (a YAML key "a\nb", a file name with an escape
 * sequence) becomes '?', so it neither breaks the line nor reaches the
 * terminal.
 */
static void text_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = '?';
}

/*
 * A warning shares stderr with the trace, and may come while a line or a
 * JSON object of it is half written (its stack being unwound, a caller
 * named): it waits until the line is whole (error_hold()), then the line
 * a call left open ends first (the hook of error_on_line_break()), as for
 * any other line, so that the warning never splits one.  Each thread
 * holds its own: the workers of trace-rounds.c format lines too.
 */
__thread unsigned error_held;
__thread size_t error_pending_len;
static __thread char *pending;
static __thread size_t pending_size;
static void (*line_break)(void);

/* Print one line: prefix, message, and the errno text when err != 0. */
static void vmsg(const char *prefix, int err, const char *fmt, va_list ap)
{
	char buf[1024], line[1400];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	text_clean(buf);
	if (err)
		snprintf(line, sizeof(line), "ltruss: %s%s: %s\n", prefix, buf,
			 strerror(err));
	else
		snprintf(line, sizeof(line), "ltruss: %s%s\n", prefix, buf);
	n = strlen(line);
	if (error_held && strcmp(prefix, "warning: ") == 0) {
		if (error_pending_len + n > pending_size) {
			pending_size = 2 * (error_pending_len + n);
			/*
			 * Not xrealloc: it reports a failure through this
			 * very function, which is the one without memory.
			 */
			pending = realloc(pending, pending_size);
			if (!pending)
				abort(); /* no memory even for a warning */
		}
		memcpy(pending + error_pending_len, line, n);
		error_pending_len += n;
		return;
	}
	if (line_break && strcmp(prefix, "warning: ") == 0)
		line_break();
	fprintf(stderr, "%s", line);
	fflush(stderr);
}

void error_release_pending(void)
{
	size_t pending_len_was = error_pending_len;

	if (line_break)
		line_break();
	error_pending_len = 0;
	fprintf(stderr, "%.*s", (int)pending_len_was, pending);
	fflush(stderr);
}

void error_on_line_break(void (*fn)(void))
{
	line_break = fn;
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", 0, fmt, ap);
	va_end(ap);
}

void perror_msg(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", err, fmt, ap);
	va_end(ap);
}

void warning_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", 0, fmt, ap);
	va_end(ap);
}

void error_msg_and_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", 0, fmt, ap);
	va_end(ap);
	exit(EXIT_LTRUSS_ERROR);
}

void perror_msg_and_die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", err, fmt, ap);
	va_end(ap);
	exit(EXIT_LTRUSS_ERROR);
}

/* A command-line mistake: the message, then where to look. */
void usage_error(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_clean(buf);
	fprintf(stderr, "ltruss: error: %s; see 'ltruss --help'\n", buf);
	exit(EXIT_LTRUSS_ERROR);
}

void error_at_and_die(const char *file, unsigned line, unsigned col,
		      const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error_msg_and_die("%s:%u:%u: %s", file, line, col, buf);
}
