/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack-hints.h: -k, how the frames ltruss walked lie, for the interposer. */
#ifndef LTRUSS_STACK_HINTS_H
#define LTRUSS_STACK_HINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session.h"

/*
 * A live trace's walks of session s read at most frames frames (before
 * the program starts): the interposer may copy no more than that, and
 * the walks' frames are described to it from now on.
 */
void stack_hints_start(struct ltr_session *s, unsigned frames);

/* Are the walks' frames described (stack_hints_start)? */
bool stack_hints_on(void);

/*
 * The frame at return address pc of the process ltruss sees as pid
 * (arg) lies as kind (LTR_HINT_*) says: its CFA is its stack pointer
 * plus off.
 */
void stack_hints_note(void *arg, uint64_t pc, unsigned kind, uint64_t off);

#endif
