/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lock.h: the interposer's spin lock: no futex, no libc, yields seccomp allows. */
#ifndef LTRUSS_LOCK_H
#define LTRUSS_LOCK_H

#include <sys/syscall.h>

#include "interposer.h"

#define LTR_SPINS 64 /* pauses before a waiter yields the CPU */

/* Take *lock if it is free; false if it is held. */
static inline bool ltr_trylock(int *lock)
{
	return !__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE);
}

/*
 * Take *lock, waiting for it: a few pauses, then the CPU yielded between
 * tries (the holder may be preempted), unless seccomp forbids sched_yield.
 */
static inline void ltr_lock(int *lock)
{
	unsigned spins = 0;

	while (!ltr_trylock(lock))
		while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
			if (++spins < LTR_SPINS || !ltr_sys_ok(SYS_sched_yield))
				__builtin_ia32_pause();
			else
				ltr_syscall3(SYS_sched_yield, 0, 0, 0);
		}
}

/* Release *lock. */
static inline void ltr_unlock(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

#endif
