/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thread.c: per-thread state, and fork detection.
 *
 * The audit module has its own libc copy: its pthread keys and atfork
 * handlers never fire for the program's threads.  So each thread keeps one
 * initial-exec TLS pointer to a state mapped on its first traced call, and
 * the states are chained in a list.  A thread's exit is not seen; a new
 * thread reuses the state (and the counter slot) of a thread of this
 * process that is gone, so thread churn does not grow memory.
 *
 * Fork is seen through a page mapped with MADV_WIPEONFORK: it reads as zero
 * in a child, at the cost of one load per call.  Without -f the child then
 * runs untraced (it still returns through the frames it inherited); with
 * -f it registers as a process of its own, with a new slot and ring, and
 * the calls it inherited end there ("<... FUNC resumed>").
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

__thread struct ltr_tstate *ltr_tls_self
	__attribute__((tls_model("initial-exec")));
volatile uint64_t *ltr_fork_guard;
static struct ltr_tstate *threads;

void ltr_fork_guard_init(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	if (madvise(p, 4096, MADV_WIPEONFORK) != 0) {
		munmap(p, 4096);
		ltr_warn("warning", "no MADV_WIPEONFORK: forked children will be traced as their parent");
		return;
	}
	*(volatile uint64_t *)p = 1;
	ltr_fork_guard = p;
}

/* Take a slot ltruss handed back (its process ended); -1 if none is free. */
static int64_t slot_recycle(void)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_THREADS - 1; i++) {
		uint32_t freed = LTR_SLOT_FREED;

		if (__atomic_load_n(&ltr_session->threads[i].used,
				    __ATOMIC_RELAXED) == LTR_SLOT_FREED &&
		    __atomic_compare_exchange_n(&ltr_session->threads[i].used,
						&freed, LTR_SLOT_TAKEN, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return i;
	}
	return -1;
}

/*
 * Give ts a slot of the session: counters and an event ring of its own.
 * A fresh slot if one is left, else one ltruss handed back.  The last
 * slot is kept for the threads that come when none is: they share it,
 * so they send no events (a ring has a single writer) and count with
 * atomics.
 */
static void slot_take(struct ltr_tstate *ts)
{
	int64_t i = __atomic_fetch_add(&ltr_session->nthreads, 1,
				       __ATOMIC_ACQ_REL);
	struct ltr_thread *slot;

	ts->flag_mask = ~0u;
	ts->shared_slot = 0;
	if (i >= LTR_MAX_THREADS - 1) {
		__atomic_store_n(&ltr_session->nthreads, LTR_MAX_THREADS,
				 __ATOMIC_RELAXED);
		i = slot_recycle();
	}
	if (i < 0) {
		static int warned;

		ts->slot = &ltr_session->threads[LTR_MAX_THREADS - 1];
		ts->shared_slot = 1;
		ts->flag_mask = ~LTR_F_TRACE;
		/* Counting alone (-c) loses nothing in the shared slot. */
		if ((ltr_flags & LTR_F_TRACE) &&
		    !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			ltr_warn("warning", "more than 511 threads at a time: the later ones are counted but not traced");
		return;
	}
	slot = &ltr_session->threads[i];
	ts->ring = (unsigned char *)ltr_session + ltr_rings_offset() +
		   (uint64_t)i * ltr_ring_size;
	slot->pid = ts->pid;
	slot->tid = ts->tid;
	__atomic_store_n(&slot->used, LTR_SLOT_TAKEN, __ATOMIC_RELEASE);
	ts->slot = slot;
	/* Owners are announced in the ring, in order with their events. */
	if (ltr_flags & LTR_F_TRACE)
		ltr_event_thread(ts);
}

/* Claim the state of a thread of this process that has exited, or NULL. */
static struct ltr_tstate *state_reuse(int32_t pid, int32_t tid)
{
	struct ltr_tstate *ts;

	for (ts = __atomic_load_n(&threads, __ATOMIC_ACQUIRE); ts;
	     ts = ts->next) {
		int32_t old = __atomic_load_n(&ts->tid, __ATOMIC_RELAXED);

		if (ts->pid != pid || old == 0)
			continue;
		if (old != tid &&
		    ltr_syscall3(SYS_tgkill, pid, old, 0) != -3 /* ESRCH */)
			continue;
		if (__atomic_compare_exchange_n(&ts->tid, &old, tid, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return ts;
	}
	return NULL;
}

struct ltr_tstate *ltr_thread_create(void)
{
	struct ltr_tstate *ts;
	int32_t pid, tid;
	void *p;

	pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	tid = (int32_t)ltr_syscall3(SYS_gettid, 0, 0, 0);
	ts = state_reuse(pid, tid);
	if (ts) {
		ts->depth = 0;
		ts->busy = 0;
		ltr_tls_self = ts;
		if (!ts->shared_slot) {
			/* Tell ltruss the slot has a new thread. */
			ts->slot->tid = tid;
			if (ltr_flags & LTR_F_TRACE)
				ltr_event_thread(ts);
		}
		return ts;
	}
	p = mmap(NULL, sizeof(*ts), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	ts = p;
	ts->pid = pid;
	ts->tid = tid;
	slot_take(ts);
	do
		ts->next = __atomic_load_n(&threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&threads, &ts->next, ts, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	ltr_tls_self = ts;
	return ts;
}


bool ltr_fork_noticed(void)
{
	struct ltr_tstate *ts;

	if (!(ltr_flags & LTR_F_FOLLOW))
		return true;
	/* -f: this child is a traced process of its own from now on. */
	*ltr_fork_guard = 1;
	ltr_stubs_after_fork();
	ltr_patch_after_fork();
	ltr_process_register();
	ts = ltr_tls_self;
	if (ts) {
		ts->pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
		ts->tid = (int32_t)ltr_syscall3(SYS_gettid, 0, 0, 0);
		slot_take(ts);
	}
	return false;
}

