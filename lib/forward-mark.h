/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forward-mark.h: how ltruss marks a signal it passes on to the program
 * (bin/launch.c), and how the interposer knows it (lib/forward-once.c).
 *
 * ltruss sends it with rt_sigqueueinfo: si_code SI_QUEUE, si_pid and si_uid
 * those of the process that signalled ltruss, and in si_value the magic
 * (high 32 bits) and the CLOCK_MONOTONIC millisecond at which ltruss got it
 * (low 32 bits, wrapping).
 */
#ifndef LTRUSS_FORWARD_MARK_H
#define LTRUSS_FORWARD_MARK_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#define LTR_FORWARD_MAGIC 0x4c54666dU /* "LTfm" */

/* The signals ltruss passes on: the interposer wraps their handlers. */
#define LTR_FORWARDED_SIGS                                                 \
	(1UL << SIGTERM | 1UL << SIGHUP | 1UL << SIGUSR1 | 1UL << SIGUSR2 | \
	 1UL << SIGINT | 1UL << SIGQUIT)

/* Is sig one ltruss passes on? */
static inline bool ltr_forwarded_sig(int sig)
{
	return sig > 0 && sig < 64 && (LTR_FORWARDED_SIGS >> sig & 1);
}

/* The si_value of a signal ltruss passes on, got at millisecond ms. */
static inline uint64_t ltr_forward_mark(uint32_t ms)
{
	return (uint64_t)LTR_FORWARD_MAGIC << 32 | ms;
}

/* Is si a signal ltruss passed on?  Then *ms is when ltruss got it. */
static inline bool ltr_forward_marked(const siginfo_t *si, uint32_t *ms)
{
	uint64_t v = (uint64_t)(uintptr_t)si->si_ptr;

	if (si->si_code != SI_QUEUE || v >> 32 != LTR_FORWARD_MAGIC)
		return false;
	*ms = (uint32_t)v;
	return true;
}

#endif
