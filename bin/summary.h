/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.h: the counts-and-times table printed on exit (-c, -C). */
#ifndef LTRUSS_SUMMARY_H
#define LTRUSS_SUMMARY_H

#include <stdio.h>

#include "../lib/session.h"
#include "options.h"

/* Sum every thread's counters in s and print them to out, sorted by key. */
void summary_print(FILE *out, const struct ltr_session *s, enum sort_key key,
		   enum summary_format format, double ticks_per_ns);

#endif
