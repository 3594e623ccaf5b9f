/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forward-once.h: the program's handlers of the signals ltruss passes on. */
#ifndef LTRUSS_FORWARD_ONCE_H
#define LTRUSS_FORWARD_ONCE_H

#include <signal.h>
#include <stdbool.h>

#include "forward-mark.h"

/*
 * After a call of the program that may have set sig's action: if it is a
 * handler of the program's, put ltr_once_entry in its place.
 */
void ltr_once_wrap(int sig);

/*
 * handler is the kernel's for sig, as a call of the program got it back:
 * the program's own in place of ltr_once_entry; *flags (if not NULL) then
 * gets its flags.
 */
void *ltr_once_own(int sig, void *handler, unsigned long *flags);

#endif
