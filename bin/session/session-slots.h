/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session-slots.h: the session's thread slots, mapped as ltruss reads them. */
#ifndef LTRUSS_BIN_SESSION_SLOTS_H
#define LTRUSS_BIN_SESSION_SLOTS_H

#include <stdint.h>

#include "lib/session.h"

/* Map the slots of session s from its file fd (rings of ring_size bytes) from now on. */
void session_slots_init(const struct ltr_session *s, int fd,
			uint32_t ring_size);

/*
 * Thread slot i of s, mapped on first use (exits 2 if it cannot be);
 * NULL if no thread has taken it yet, or for a session whose file is not
 * known here (--read).
 */
struct ltr_thread *session_slot(const struct ltr_session *s, uint32_t i);

/* The ring of slot i of s (session_slot's rules). */
const unsigned char *session_ring(const struct ltr_session *s, uint32_t i);

#endif
