/* SPDX-License-Identifier: GPL-2.0-or-later */
/* slots.h: hand the thread slots of ended processes back to the interposer. */
#ifndef LTRUSS_SLOTS_H
#define LTRUSS_SLOTS_H

#include <sys/types.h>

#include "lib/session.h"

/*
 * Process pid has ended and its events are drained: keep its slots'
 * counters in retired[] and mark the slots free for later threads.
 */
void slots_release(struct ltr_session *s, pid_t pid);

#endif
