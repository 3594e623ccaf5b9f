/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scratch.c: big buffers of the hooks, kept off the program's stack.
 *
 * A hook runs on whatever stack the program called from: a thread's of
 * 16 KiB, a signal handler's alternate stack of 8 KiB (crash reporters
 * exec from there).  The exec hooks need an environment list and a path
 * of several KiB: they take them from the thread's state (mapped for the
 * thread, never on its stack), or, when the thread has none, or uses it
 * already (a handler that execs interrupted an exec hook), from a mapping
 * made for the call and unmapped after.  A vfork child runs on its
 * parent's thread state while the parent waits: it marks the scratch
 * with its own pid, which the parent does not take for "in use" when
 * the child's exec succeeded and nobody gave it back.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"
#include "process.h"

void *ltr_scratch_take(struct ltr_scratch *sc, size_t size)
{
	struct ltr_tstate *ts = ltr_tls_self;
	int32_t pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	long p;

	sc->p = NULL;
	sc->mapped = 0;
	if (ts && size <= sizeof(ts->scratch) &&
	    __atomic_load_n(&ts->scratch_pid, __ATOMIC_RELAXED) != pid) {
		__atomic_store_n(&ts->scratch_pid, pid, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		sc->p = ts->scratch;
		return sc->p;
	}
	p = ltr_syscall6(SYS_mmap, 0, (long)size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p < 0 && p > -4096)
		return NULL;
	sc->p = (void *)p;
	sc->mapped = size;
	return sc->p;
}

void ltr_scratch_give(struct ltr_scratch *sc)
{
	struct ltr_tstate *ts = ltr_tls_self;

	if (sc->mapped)
		ltr_syscall3(SYS_munmap, (long)sc->p, (long)sc->mapped, 0);
	else if (sc->p && ts && sc->p == (void *)ts->scratch)
		__atomic_store_n(&ts->scratch_pid, 0, __ATOMIC_RELAXED);
	sc->p = NULL;
	sc->mapped = 0;
}
