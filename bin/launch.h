/* SPDX-License-Identifier: GPL-2.0-or-later */
/* launch.h: run the command with the interposer and wait for it. */
#ifndef LTRUSS_LAUNCH_H
#define LTRUSS_LAUNCH_H

/* How the traced command ended. */
struct outcome {
	int exit_status; /* what ltruss exits with: status, or 128+signal */
	int signal;      /* the killing signal, or 0 */
	int core_dumped;
};

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Start path with argv, the interposer preloaded and the session fd
 * inherited, and table_fd, the compiled prototypes (-1: none); returns
 * its pid.  Exits 2 when the command cannot be started.  Until
 * launch_release(), the command is held: the interposer waits for the
 * session to be ready, and an exit of ltruss (an error while it finishes
 * the session) kills it before any of its code runs.
 */
pid_t launch_start(const char *path, char **argv, int session_fd,
		   int table_fd);

/* The session is ready: the command runs; an exit of ltruss no longer kills it. */
void launch_release(void);

#include <stdbool.h>

/*
 * Wait for pid to end (with follow, for every child, orphans adopted as a
 * subreaper included) and return how pid ended.  While they run, call
 * pump() (it returns how much it did) at most once every pace ns while it
 * finds work, and when it did nothing, idle(), then sleep a little longer
 * each time; ended() for each child reaped.  Any of them may be NULL.
 */
struct outcome launch_wait(pid_t pid, bool follow, uint64_t pace,
			   size_t (*pump)(void), void (*idle)(void),
			   void (*ended)(pid_t, const struct outcome *));

/* Did a second SIGINT or SIGTERM stop launch_wait() while the program ran? */
bool launch_stopped(void);

/*
 * Run path (argv, env) with stdin and stdout on /dev/null; what it writes
 * on stderr, up to size - 1 bytes, into buf, NUL-terminated.
 */
void launch_capture(const char *path, char **argv, char **env, char *buf,
		    size_t size);

/*
 * The loader's dry run of path, with the environment launch_start() gives
 * it but no session: it loads the interposer and every object of the
 * program, then exits; its messages into buf as launch_capture().
 */
void launch_dry_run(const char *path, char *buf, size_t size);

#endif
