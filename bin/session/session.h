/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h: create the shared-memory session the interposer reports into. */
#ifndef LTRUSS_BIN_SESSION_H
#define LTRUSS_BIN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session.h"
#include "options.h"
#include "session-check.h"

struct session_handle {
	struct ltr_session *s; /* the mapping */
	int fd;                /* the memfd (close-on-exec in ltruss) */
	uint32_t ring_size;    /* (ltruss's own copies: the program may write
				  the session's) */
};

/*
 * A session is made in three steps, so that the command can start between
 * the first two (ltruss.c): session_create() makes the memfd of the size
 * rings of ring_size need, which the command inherits; session_fill()
 * writes what opts select (events wanted: trace) once the config is
 * loaded; session_ready() marks it valid and wakes the command, which
 * waits for it in the interposer (lib/attach.c).  Exit 2 on failure.
 */
void session_create(struct session_handle *h, uint32_t ring_size);
void session_fill(struct session_handle *h, const struct options *opts,
		  bool events);
void session_ready(struct session_handle *h);

/*
 * ltruss's namespace of kind ("pid", "user"): the inode of
 * /proc/self/ns/KIND, 0 if unknown.  Traced processes in other ones are
 * told apart by it (lib/pidns.c, lib/attach.c).
 */
uint32_t session_ns_inode(const char *kind);

#endif
