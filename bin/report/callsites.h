/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callsites.h: -c -k, the stacks that made the calls of the busiest functions. */
#ifndef LTRUSS_CALLSITES_H
#define LTRUSS_CALLSITES_H

#include <stdbool.h>
#include <stdio.h>

#include "format.h"

/* Count call sites (on: -c or -C with -k)? */
void callsites_init(bool on);

/* Are call sites counted? */
bool callsites_enabled(void);

/* Call c of w ended with r: count it under its function and its stack. */
void callsites_call(const struct who *w, const struct call *c,
		    const struct result *r);

/* Print the busiest functions' call sites to out (rate: ticks per ns). */
void callsites_print(FILE *out, double rate);

/* Free them. */
void callsites_done(void);

#endif
