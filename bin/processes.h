/* SPDX-License-Identifier: GPL-2.0-or-later */
/* processes.h: report how each traced process ended ("+++ exited ..."). */
#ifndef LTRUSS_PROCESSES_H
#define LTRUSS_PROCESSES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/session.h"
#include "launch.h"

/* Use session s; trace lines are printed when tracing is on. */
void processes_init(struct ltr_session *s, int tracing);

/* Drain the rings, then report the processes that said they exited. */
size_t processes_pump(void);

/* ltruss reaped pid (its child, or an orphan it adopted). */
void processes_reaped(pid_t pid, const struct outcome *o);

/* Report traced processes that have become zombies (reaped by someone else). */
void processes_idle(void);

/* The end: report what is left, with an unknown status. */
void processes_finish(void);

/* Did pid (an image of it) register in the session: was it ever traced? */
bool processes_registered(pid_t pid);

/* Did any process register in the session? */
/*
 * Did pid's last image register while the loader loaded it, and end
 * before the loader was done (lib/process.c)?  0 if not, else 1 for the
 * program ltruss started, 2 for a program exec'd in it.
 */
int processes_never_started(pid_t pid);

bool processes_any(void);

#endif
