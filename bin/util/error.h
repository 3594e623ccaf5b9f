/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.h: the one error vocabulary of the ltruss front end. */
#ifndef LTRUSS_ERROR_H
#define LTRUSS_ERROR_H

#include <stddef.h>

/* Exit status of ltruss's own errors (bad option, bad config, cannot trace). */
#define EXIT_LTRUSS_ERROR 2

/*
 * Hold warnings while a line of the trace is being written, and print
 * them once it is whole (error_release(), nested; trace.c).  Around
 * every event: inline, with the held count and the bytes held here.
 */
extern __thread unsigned error_held;
extern __thread size_t error_pending_len;
void error_release_pending(void);

static inline void error_hold(void)
{
	error_held++;
}

static inline void error_release(void)
{
	if (error_held && !--error_held && error_pending_len)
		error_release_pending();
}
/* fn ends an open trace line before a warning is printed (NULL: none). */
void error_on_line_break(void (*fn)(void));

void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void perror_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void error_msg_and_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void perror_msg_and_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* A mistake in a file: "ltruss: error: FILE:LINE:COL: ...", exit 2. */
void error_at_and_die(const char *file, unsigned line, unsigned col,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5), noreturn));

#endif
