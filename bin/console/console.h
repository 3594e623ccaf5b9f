/* SPDX-License-Identifier: GPL-2.0-or-later */
/* console.h: the console (--console, -i): entry points and its shared state. */
#ifndef LTRUSS_CONSOLE_H
#define LTRUSS_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/session.h"

/*
 * --console: attach to the session of ltruss pid (0: this user's newest)
 * and read commands; returns the exit status (2 when it cannot attach, or
 * a command of a script failed).
 */
int console_main(int pid);

/*
 * -i: open a console on this terminal for this ltruss's (registered)
 * session.  Call before ltruss becomes a subreaper: the console must not
 * be one of the processes it waits for.
 */
void console_spawn(void);

/* -i: the program has ended: wait until the console lets go of the terminal. */
void console_spawn_end(void);

/* One console attached to one session. */
struct console {
	struct ltr_session *s;          /* the session, mapped */
	int pid;                        /* its ltruss */
	struct summary_snapshot *base;  /* counts at the last reset, or NULL */
	unsigned line;                  /* line of the script; 0: a terminal */
	bool quit;                      /* "quit" was asked */
	bool failed;                    /* a command failed */
};

/* Map the session of ltruss pid (0: the newest) into c; exits 2 on failure. */
void console_attach(struct console *c, int pid);

/* The command line session s traces, safe to print. */
const char *console_command_line(const struct ltr_session *s);

/* Print every registered session, c's marked; remove the stale ones. */
void console_sessions(const struct console *c, FILE *out);

/* Run one command line. */
void console_execute(struct console *c, char *line);

/* What Tab completes in a command's arguments. */
enum console_complete {
	COMPLETE_NONE,
	COMPLETE_FUNCS,    /* traced function names */
	COMPLETE_STATS,    /* "sort", its keys, function names */
	COMPLETE_COMMANDS, /* command names */
};

/* One command: its table entry (see console-commands.c). */
struct console_command {
	const char *name;
	const char *args;  /* usage of the arguments */
	const char *help;  /* one line */
	int min_args, max_args;
	enum console_complete complete;
	void (*run)(struct console *c, int argc, char **argv);
};

extern const struct console_command console_commands[];

/* The command name names (a unique prefix will do), or NULL. */
const struct console_command *console_command_find(const char *name);

/*
 * Report a failed command: what, where (the script's line), then hint:
 * what to do.  The console goes on.
 */
void console_error(struct console *c, const char *hint, const char *format,
		   ...) __attribute__((format(printf, 3, 4)));

/* Let Tab complete commands and c's function names. */
void console_complete_init(struct console *c);

#endif
