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

/* Create a session for opts (events wanted: trace); exits 2 on failure. */
void session_create(struct session_handle *h, const struct options *opts,
		    bool events);

/*
 * ltruss's namespace of kind ("pid", "user"): the inode of
 * /proc/self/ns/KIND, 0 if unknown.  Traced processes in other ones are
 * told apart by it (lib/pidns.c, lib/attach.c).
 */
uint32_t session_ns_inode(const char *kind);

#endif
