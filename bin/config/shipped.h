/* SPDX-License-Identifier: GPL-2.0-or-later */
/* shipped.h: the shipped prototypes and types, compiled at build time. */
#ifndef LTRUSS_SHIPPED_H
#define LTRUSS_SHIPPED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "conf.h"

struct shipped;

/*
 * Map the compiled table at path, made from the shipped files in dir
 * (prototypes/\*.yaml, types.yaml, annotations.yaml).  NULL when it is
 * missing, not a table of this ltruss, or stale (a source changed, was
 * added or removed): then why says so, for a warning.
 */
struct shipped *shipped_open(const char *path, const char *dir, char *why,
			     size_t why_size);

/* Unmap the table and free what was decoded from it. */
void shipped_close(struct shipped *sh);

/* The shipped prototype of function name (not its "64" alias), or NULL. */
const struct proto *shipped_find_proto(struct shipped *sh, const char *name);

/*
 * The config that holds the table is complete: resolve the prototypes
 * parsed so far, and those parsed from now on, with resolve(p, ctx) (its
 * config_resolve()).  A callback: the table knows no config.
 */
void shipped_resolve(struct shipped *sh,
		     void (*resolve)(struct proto *p, const void *ctx),
		     const void *ctx);

/* The shipped named type called name, or NULL. */
const struct named_type *shipped_find_type(struct shipped *sh,
					   const char *name);

/*
 * Name the compiled captures to a new session s, whose processes map them
 * from the table (struct ltr_shipped); returns how many the table holds.
 */
uint32_t shipped_to_session(const struct shipped *sh, struct ltr_session *s);

/* The index of the table's capture of name (a "64" alias too), or -1. */
long shipped_find_capture(const struct shipped *sh, const char *name);

/* The descriptor of the open table, which the traced command inherits. */
int shipped_fd(const struct shipped *sh);

/* Is shipped capture i a "64" alias (open64 for open)? */
bool shipped_capture_alias(const struct shipped *sh, uint32_t i);

/* The declaration shipped capture i was compiled from (NULL: a damaged table). */
const char *shipped_capture_decl(const struct shipped *sh, uint32_t i);

/* The prototype shipped capture i was compiled from, parsed on first use. */
const struct proto *shipped_capture_proto(struct shipped *sh, uint32_t i);

/*
 * Write the table for the shipped files of dir, loaded into cfg (which
 * kept their declarations) and compiled into session s, to path
 * (bin/config/shipped-write.c).  proto_of(i) is the prototype of capture i.
 */
void shipped_write(const char *path, const char *dir,
		   const struct config *cfg, const struct ltr_session *s,
		   const struct proto *(*proto_of)(int32_t i));

/* A hash of n bytes, to tell whether a source changed (FNV-1a, by words). */
uint64_t shipped_hash(const unsigned char *p, size_t n);

#endif
