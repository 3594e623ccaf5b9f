/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h: what the command line asked for. */
#ifndef LTRUSS_OPTIONS_H
#define LTRUSS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"
#include "sort-keys.h"
#include "summary.h"



struct options {
	struct config cfg;       /* -u, --from, -F, -D, -s; or the default config */
	const char *output;      /* -o FILE, or NULL for stderr */
	bool count;              /* -c or -C: summary on exit */
	bool follow;             /* -f */
	bool trace;              /* trace lines (not with -c) */
	enum sort_key sort;      /* -S */
	enum summary_format summary_format; /* --summary-format */
	int timestamps;          /* -t, -tt, -ttt: 1, 2, 3 */
	bool relative;           /* -r */
	bool durations;          /* -T */
	bool json;               /* --json */
	bool drop;               /* --drop */
	uint32_t ring_size;      /* --buffer: bytes of each thread's ring */
	bool no_demangle;        /* --no-demangle */
	bool caller;             /* --caller */
	unsigned stack;          /* -k, --stack=N: frames shown; 0 = none */
	bool debuginfod;         /* --debuginfod: -k asks DEBUGINFOD_URLS */
	bool tree;               /* --tree */
	bool list;               /* --list: print the selected functions */
	const char *folded;      /* --folded FILE */
	const char *chrome;      /* --chrome FILE */
	bool heap;               /* --heap: the allocator, live bytes by stack */
	char **argv;             /* the command and its arguments */
	bool console;            /* --console: attach to a running session */
	int console_pid;         /* --console=SESSION (ltruss's pid); 0: newest */
	bool interactive;        /* -i: the console in this terminal */
	const char *write;       /* -w FILE: record a trace file */
	const char *read;        /* --read FILE: print a recorded trace file */
	bool whole;              /* --whole: -w copies strings and buffers whole */
	const char *playback;    /* --playback OUT.c: --read writes a program */
	int *pids;               /* --pid PID (repeatable): processes shown */
	size_t npids;
};



/*
 * Parse argv into opts; on any error, print it and exit 2.  With a
 * command to run, the default config is left to options_config(), which
 * ltruss calls once the command has started (it waits for the session).
 */
void options_parse(struct options *opts, int argc, char **argv);

/* Load the default config unless -u/-F/--heap selected, check the whole; exits 2 on an error. */
void options_config(struct options *opts);

#endif
