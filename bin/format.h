/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.h: how trace lines are written (text or JSON), one interface. */
#ifndef LTRUSS_FORMAT_H
#define LTRUSS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../lib/session.h"

/* A traced call as the formatters see it. */
struct call {
	uint32_t fn;
	uint32_t depth;
	uint64_t args[6];
	uint64_t caller;   /* return address */
	uint64_t ts_enter; /* TSC */
	const unsigned char *blobs; /* what the interposer copied (lib/session.h) */
	uint32_t blobs_len;
};

/* How a call ended. */
struct result {
	bool returned;     /* false: why says how it ended */
	enum ltr_end why;
	uint64_t rax, rdx, xmm0;
	uint64_t ts_exit;  /* TSC */
	bool failed;       /* by its prototype's error convention */
	int errnum;        /* then: errno */
	const unsigned char *blobs; /* output arguments copied on return */
	uint32_t blobs_len;
};

/* Who made the call. */
struct who {
	int pid, tid;
};

/* One output format: every callback writes whole lines, except partial. */
struct format {
	/* "LIB:FUNC(args) = ret": a call seen whole. */
	void (*whole)(const struct who *w, const struct call *c,
		      const struct result *r);
	/* "LIB:FUNC(args) {": a call with traced calls inside. */
	void (*open)(const struct who *w, const struct call *c);
	/* "} LIB:FUNC = ret": the end of an opened call. */
	void (*close)(const struct who *w, const struct call *c,
		      const struct result *r);
	/* "LIB:FUNC(args)" without a newline: a call that blocks. */
	void (*partial)(const struct who *w, const struct call *c);
	/* " = ret": the end of the partial line. */
	void (*partial_end)(const struct who *w, const struct call *c,
			    const struct result *r);
	/* " <unfinished ...>": something else must be printed first. */
	void (*unfinished)(const struct who *w, const struct call *c);
	/* "<... LIB:FUNC resumed> = ret". */
	void (*resumed)(const struct who *w, const struct call *c,
			const struct result *r);
	/* "LIB:FUNC(args) <no return ...>": seen on entry only. */
	void (*entry_only)(const struct who *w, const struct call *c);
	/* "+++ exited (status N) +++" / "+++ killed by SIG +++". */
	void (*exited)(int pid, int status);
	void (*killed)(int pid, int sig, bool core);
	/* "+++ setuid changes the credentials: untraced from here on +++". */
	void (*untraced)(const struct who *w, uint64_t tsc, const char *func);
};

/* Options that shape every line. */
struct format_options {
	FILE *out;
	const struct ltr_session *session;
	int timestamps;   /* -t: 1, -tt: 2, -ttt: 3 */
	bool relative;    /* -r */
	bool durations;   /* -T */
	bool demangle;    /* C++ names demangled (not --no-demangle) */
	bool caller;      /* --caller */
	unsigned stack;   /* -k: frames shown under each call; 0 = none */
	bool pid_prefix;  /* set once a second thread or process is seen */
	bool processes;   /* set once a second process is seen */
};

extern struct format_options fmt;
extern const struct format format_text, format_json;

/* Write s to out as a JSON string, quoted and escaped. */
void json_write_string(FILE *out, const char *s);

/* Why a call ended without returning, as a word: "unwound", "exited"... */
const char *format_end_name(enum ltr_end why);

/* "lib" and "func" names of function fn (never NULL), func as displayed. */
const char *format_lib(uint32_t fn);
const char *format_func(uint32_t fn);

/* The symbol name of function fn as in the symbol table (never NULL). */
const char *format_func_raw(uint32_t fn);

/* A raw symbol name as displayed: demangled unless --no-demangle. */
const char *format_func_display(const char *raw);

/* Room for any uint64_t in decimal, with a sign. */
#define FORMAT_DECIMAL_MAX 24

/*
 * v in decimal, at least width digits (zero-padded, width at most 20),
 * written to the end of buf; returns where the digits start.  By hand:
 * both formatters call it for most values of every line.
 */
static inline char *format_decimal(char buf[FORMAT_DECIMAL_MAX], uint64_t v,
				   int width)
{
	char *p = buf + FORMAT_DECIMAL_MAX;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (buf + FORMAT_DECIMAL_MAX - p < width)
		*--p = '0';
	return p;
}

#endif
