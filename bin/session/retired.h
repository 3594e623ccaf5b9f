/* SPDX-License-Identifier: GPL-2.0-or-later */
/* retired.h: the counters of ended threads' slots, in the session's retired[]. */
#ifndef LTRUSS_RETIRED_H
#define LTRUSS_RETIRED_H

#include <stdbool.h>

#include "lib/session.h"

/*
 * This ltruss fills retired[] from now on: it counts the entries itself
 * and no longer reads the session's count, which a traced program can write.
 */
void retired_own(void);

/* Move slot's counters to s->retired[] and zero them; false if they do not fit. */
bool retired_add(struct ltr_session *s, struct ltr_thread *slot);

/* The entries of s->retired[] that are filled in. */
uint32_t slots_retired_used(const struct ltr_session *s);

#endif
