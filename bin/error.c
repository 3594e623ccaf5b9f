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

/* Print one line: prefix, message, and the errno text when err != 0. */
static void vmsg(const char *prefix, int err, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	text_clean(buf);
	if (err)
		fprintf(stderr, "ltruss: %s%s: %s\n", prefix, buf, strerror(err));
	else
		fprintf(stderr, "ltruss: %s%s\n", prefix, buf);
	fflush(stderr);
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
