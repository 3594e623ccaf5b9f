/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pyreuse.h: -k, a call's Python frames made whole again (the outer ones it reuses from its ring's call before). */
#ifndef LTRUSS_BIN_PYREUSE_H
#define LTRUSS_BIN_PYREUSE_H

#include <stdint.h>

#include "lib/session.h"

/*
 * Event ev of ring slot (checked by session-check.c), every event of the
 * ring passed in order: ev itself, or a copy whose Python frames are
 * whole, valid until the next call.
 */
const struct ltr_event *pyreuse_blob(uint32_t slot, const struct ltr_event *ev);

/* The same, asked inline: most events carry no blob (--read, every event). */
static inline const struct ltr_event *pyreuse_whole(uint32_t slot,
						    const struct ltr_event *ev)
{
	if ((ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL) ||
	    ev->size <= sizeof(*ev) + 8 * LTR_ENTER_WORDS)
		return ev;
	return pyreuse_blob(slot, ev);
}

/* Forget every ring's frames. */
void pyreuse_done(void);

#endif
