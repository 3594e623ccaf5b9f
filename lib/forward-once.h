/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forward-once.h: the program's handlers of the signals ltruss passes on. */
#ifndef LTRUSS_FORWARD_ONCE_H
#define LTRUSS_FORWARD_ONCE_H

#include <signal.h>

#include "forward-mark.h"

typedef int (*ltr_sigaction_fn)(int, const struct sigaction *,
				struct sigaction *);

/* sigaction as real does it, the program's handler of sig wrapped. */
int ltr_once_sigaction(int sig, const struct sigaction *act,
		       struct sigaction *old, ltr_sigaction_fn real);

#endif
