/* SPDX-License-Identifier: GPL-2.0-or-later */
/* call-blobs.h: the blobs of a call, found by type and index. */
#ifndef LTRUSS_CALL_BLOBS_H
#define LTRUSS_CALL_BLOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

/*
 * The blob of type (and of index, unless any_index) among blobs[0..len),
 * or NULL.
 */
const struct ltr_blob *blob_lookup(const unsigned char *blobs, size_t len,
				   uint8_t type, uint8_t index, bool any_index);

/* The first blob of type the interposer copied at c's entry, or NULL. */
const struct ltr_blob *args_blob(const struct call *c, uint8_t type);

/*
 * The types args_blob() finds for c, one bit each (1u << type), and
 * args_blob(c, type) into *first, in one pass.
 */
uint32_t args_blob_types(const struct call *c, uint8_t type,
			 const struct ltr_blob **first);

/* The blob of type and index among blobs[0..len), or NULL. */
const struct ltr_blob *args_blob_find(const unsigned char *blobs, size_t len,
				      uint8_t type, uint8_t index);

/*
 * Keep the blobs of call c past the event ev they are in (its source
 * reuses it) in *buf, of *size bytes (grown, reused).  With take (the
 * source lends ev: trace.h's struct event_rec), ev itself is kept, its
 * buffer swapped with *buf: -k's stack copies may be kilobytes a call,
 * copied out of the ring once already; always, then, so that every
 * buffer is one of the source's, big enough for the next event as a
 * rule, and none is allocated again.  Else the blobs are copied.
 */
void call_blobs_keep(struct call *c, unsigned char **buf, size_t *size,
		     const void *ev,
		     void *(*take)(void *spare, size_t spare_size,
				   size_t *size));

/* The types event_blobs_each() finds in ev, one bit each (1u << type), in one pass. */
uint32_t event_blob_types(const struct ltr_event *ev);

/*
 * Call keep(pid, b) for each blob b of type in event ev of process pid,
 * if it is an ENTER or a CALL (its blobs checked: check_event).
 */
void event_blobs_each(int pid, const struct ltr_event *ev, uint8_t type,
		      void (*keep)(int pid, const struct ltr_blob *b));

#endif
