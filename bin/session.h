/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h: create the shared-memory session the interposer reports into. */
#ifndef LTRUSS_BIN_SESSION_H
#define LTRUSS_BIN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/session.h"
#include "options.h"

struct session_handle {
	struct ltr_session *s; /* the mapping */
	int fd;                /* the memfd (close-on-exec in ltruss) */
	unsigned char *rings;  /* thread slot i's ring: rings + i * ring_size */
	uint32_t ring_size;    /* (ltruss's own copies: the program may write
				  the session's) */
};

/* Create a session for opts (events wanted: trace); exits 2 on failure. */
void session_create(struct session_handle *h, const struct options *opts,
		    bool events);

/* Entries of s's funcs[] in use (registered, maybe not yet filled in). */
uint32_t session_funcs_used(const struct ltr_session *s);

/*
 * ltruss's namespace of kind ("pid", "user"): the inode of
 * /proc/self/ns/KIND, 0 if unknown.  Traced processes in other ones are
 * told apart by it (lib/pidns.c, lib/attach.c).
 */
uint32_t session_ns_inode(const char *kind);

/* Is entry fn of s's funcs[] filled in (name, library, flags)? */
bool session_func_ready(const struct ltr_session *s, uint32_t fn);

/*
 * The string at offset off of the session's string area, or NULL if it
 * is not a whole string there (the traced process writes that memory).
 */
const char *session_string(const struct ltr_session *s, uint32_t off);

#endif
