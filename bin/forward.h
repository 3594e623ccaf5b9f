/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forward.h: which signals ltruss gets the program got too. */
#ifndef LTRUSS_FORWARD_H
#define LTRUSS_FORWARD_H

#include <signal.h>
#include <stdbool.h>

/*
 * Was signal si sent by the program or a process it started (kill(0, ...),
 * kill(-pgid, ...) reached the program too)?  Async-signal-safe.
 */
bool signal_from_program(const siginfo_t *si);

#endif
