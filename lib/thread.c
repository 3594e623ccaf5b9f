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
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "frames.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"
#include "sys.h"

__thread struct ltr_tstate *ltr_tls_self
	__attribute__((tls_model("initial-exec")));
volatile uint64_t *ltr_fork_guard;
static struct ltr_tstate *threads;

#define SLOT_WAIT_NAPS 200000 /* naps of 50 us: 10 s */

void ltr_fork_guard_init(void)
{
	void *p = ltr_mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ltr_map_error(p))
		return;
	if (ltr_madvise(p, 4096, MADV_WIPEONFORK) != 0) {
		ltr_munmap(p, 4096);
		ltr_warn("warning", "no MADV_WIPEONFORK: forked children will be traced as their parent");
		return;
	}
	*(volatile uint64_t *)p = 1;
	ltr_fork_guard = p;
}

/* Take a slot ltruss handed back (its process ended); -1 if none is free. */
static int64_t slot_recycle(void)
{
	uint32_t n = __atomic_load_n(&ltr_session->nthreads, __ATOMIC_ACQUIRE);
	uint32_t i;

	/*
	 * The states are together in the header: one pass, no slot mapped,
	 * over the slots ever taken only.
	 */
	for (i = 0; i < n && i < LTR_MAX_THREADS - 1; i++) {
		uint32_t freed = LTR_SLOT_FREED;

		if (__atomic_load_n(&ltr_session->slot_used[i],
				    __ATOMIC_RELAXED) == LTR_SLOT_FREED &&
		    __atomic_compare_exchange_n(&ltr_session->slot_used[i],
						&freed, LTR_SLOT_TAKEN, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return i;
	}
	return -1;
}

/*
 * Are slots about to be handed back?  A process that recorded its exit
 * holds its slots until ltruss has drained and reported it
 * (bin/events/slots.c); ltruss counts those it released.
 */
static bool slots_coming(void)
{
	return (int32_t)(__atomic_load_n(&ltr_session->procs_exited,
					 __ATOMIC_ACQUIRE) -
			 __atomic_load_n(&ltr_session->procs_released,
					 __ATOMIC_ACQUIRE)) > 0;
}

/*
 * No slot is free, but processes that ended still hold some: wait for
 * ltruss to hand one back, as a thread waits for room in its ring, rather
 * than go untraced because ltruss is behind (a -f run of many short
 * processes, -k slowing ltruss down).  Not with --drop, nor for -c alone
 * (the shared slot counts as well); SLOT_WAIT_NAPS at most, in case an
 * ended process never goes (ltruss reports it once it is reaped or a
 * zombie).  The slot, or -1.
 */
static int64_t slot_wait(void)
{
	unsigned still = 0, spins = 0;
	uint32_t beat = 0;
	int64_t i = -1;

	if (!ltr_may_wait() || !ltr_sys_ok(SYS_nanosleep))
		return -1;
	while (i < 0 && slots_coming() && spins < SLOT_WAIT_NAPS &&
	       ltr_reader_nap(&beat, &still, &spins))
		i = slot_recycle();
	return i;
}

/*
 * Share the last slot: counted with atomics, no events (a ring has one
 * writer); crowded: because all the others are taken.
 */
static void slot_share(struct ltr_tstate *ts, bool crowded)
{
	static int warned;

	ts->slot = ltr_slot_shared;
	ts->ring = NULL;
	ts->shared_slot = 1;
	ts->flag_mask = ~LTR_F_TRACE;
	/* Counting alone (-c) loses nothing in the shared slot. */
	if (crowded && (ltr_flags & LTR_F_TRACE) &&
	    !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		ltr_warn("warning", "more than 511 threads at a time: the later ones are counted but not traced");
}

/*
 * Give ts a slot of the session: counters and an event ring of its own.
 * One ltruss handed back if there is one, else a fresh one: a slot's
 * ring pages exist (in the session file, and in ltruss's memory, which
 * reads them) from its first use on, so taking the freed ones first
 * keeps the slots in use, and the memory, to what runs at once under -f,
 * not every process ever traced.  The last slot is kept for the threads
 * that come when none is left: they share it, so they send no events (a
 * ring has a single writer) and count with atomics.  A slot this process
 * cannot map is handed back.
 */
static void slot_take(struct ltr_tstate *ts)
{
	int64_t i = slot_recycle();
	struct ltr_thread *slot;

	ts->flag_mask = ~0u;
	ts->shared_slot = 0;
	if (i < 0)
		i = __atomic_fetch_add(&ltr_session->nthreads, 1,
				       __ATOMIC_ACQ_REL);
	if (i >= LTR_MAX_THREADS - 1) {
		__atomic_store_n(&ltr_session->nthreads, LTR_MAX_THREADS,
				 __ATOMIC_RELAXED);
		i = slot_recycle();
		if (i < 0)
			i = slot_wait();
	}
	if (i < 0) {
		slot_share(ts, true);
		return;
	}
	slot = ltr_slot_map((uint32_t)i);
	if (!slot) {
		__atomic_store_n(&ltr_session->slot_used[i], LTR_SLOT_FREED,
				 __ATOMIC_RELEASE);
		slot_share(ts, false);
		return;
	}
	ts->ring = ltr_slot_ring(slot);
	ts->tail_seen = __atomic_load_n(&slot->ring.tail, __ATOMIC_ACQUIRE);
	ltr_pidns_view(ts->pid, ts->tid, &slot->pid, &slot->tid);
	__atomic_store_n(&ltr_session->slot_used[i], LTR_SLOT_TAKEN,
			 __ATOMIC_RELEASE);
	ts->slot = slot;
	/* Owners are announced in the ring, in order with their events. */
	if (ltr_flags & LTR_F_TRACE)
		ltr_event_thread(ts);
}

/*
 * States are never freed, and a thread's end is not seen: a new thread
 * asks the kernel (tgkill with signal 0) whether the owner of a state is
 * gone.  Asking it of every state would make each thread start cost as
 * much as the threads alive, and a pool of N threads N^2 / 2 system calls
 * (12 000 threads: 22 s).  So each new thread looks at a few states only,
 * from where the last one stopped, going round the list: a state whose
 * thread ended is found within a round, and the states number at most
 * about (1 + 1 / REUSE_LOOK) times the threads alive at once.
 */
#define REUSE_LOOK 8
static struct ltr_tstate *reuse_at; /* atomic: where the next look starts */

/* Claim the state of a thread of this process that has exited, or NULL. */
static struct ltr_tstate *state_reuse(int32_t pid, int32_t tid)
{
	struct ltr_tstate *ts = __atomic_load_n(&reuse_at, __ATOMIC_ACQUIRE);
	int looked;

	for (looked = 0; looked < REUSE_LOOK; looked++, ts = ts->next) {
		int32_t old;

		if (!ts)
			ts = __atomic_load_n(&threads, __ATOMIC_ACQUIRE);
		if (!ts)
			return NULL;
		old = __atomic_load_n(&ts->tid, __ATOMIC_RELAXED);
		if (ts->pid != pid || old == 0)
			continue;
		if (old != tid &&
		    ltr_syscall3(SYS_tgkill, pid, old, 0) != -3 /* ESRCH */)
			continue;
		if (__atomic_compare_exchange_n(&ts->tid, &old, tid, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			__atomic_store_n(&reuse_at, ts->next, __ATOMIC_RELEASE);
			return ts;
		}
	}
	__atomic_store_n(&reuse_at, ts, __ATOMIC_RELEASE);
	return NULL;
}

struct ltr_tstate *ltr_thread_create(void)
{
	uint32_t max_depth;
	struct ltr_tstate *ts;
	int32_t pid, tid;
	void *p;

	/* Under seccomp, a thread that cannot make these is not traced. */
	if (!ltr_sys_ok(SYS_getpid) || !ltr_sys_ok(SYS_gettid) ||
	    !ltr_sys_ok(SYS_mmap) || !ltr_sys_ok(SYS_tgkill))
		return NULL;
	/*
	 * A vfork child runs on its parent's thread, in its memory: the state
	 * it made would be the parent's from then on, with the child's pid
	 * and tid, and the parent's calls would be lost.  It is made by the
	 * parent's first call instead.
	 */
	if (ltr_process_shares_memory())
		return NULL;
	pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	tid = (int32_t)ltr_syscall3(SYS_gettid, 0, 0, 0);
	max_depth = ltr_no_hijack || ltr_check_shadow_stack() ? 0 : LTR_SHADOW_MAX;
	ts = state_reuse(pid, tid);
	if (ts) {
		ts->depth = 0;
		ts->max_depth = max_depth;
		ts->shares_tls = 0;
		ts->tp = ltr_thread_pointer();
		ts->busy = 0;
		ltr_returns_forget(ts);
		ltr_rets_forget(ts);
		ltr_py_forget(ts);
		ltr_tcl_forget(ts, true);
		ltr_tls_self = ts;
		if (!ts->shared_slot) {
			/* Tell ltruss the slot has a new thread. */
			int32_t seen_pid;

			ltr_pidns_view(pid, tid, &seen_pid, &ts->slot->tid);
			if (ltr_flags & LTR_F_TRACE)
				ltr_event_thread(ts);
		}
		return ts;
	}
	p = ltr_mmap(NULL, sizeof(*ts), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ltr_map_error(p))
		return NULL;
	ts = p;
	ts->pid = pid;
	ts->tid = tid;
	ts->max_depth = max_depth;
	ts->tp = ltr_thread_pointer();
	ltr_rets_forget(ts);
	slot_take(ts);
	do
		ts->next = __atomic_load_n(&threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&threads, &ts->next, ts, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	ltr_tls_self = ts;
	return ts;
}

struct ltr_tstate *ltr_threads(void)
{
	return __atomic_load_n(&threads, __ATOMIC_ACQUIRE);
}

struct ltr_tstate *ltr_thread_of(uintptr_t tp)
{
	int32_t pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	struct ltr_tstate *ts;

	for (ts = __atomic_load_n(&threads, __ATOMIC_ACQUIRE); ts; ts = ts->next)
		if (ts->tp == tp && ts->pid == pid &&
		    __atomic_load_n(&ts->tid, __ATOMIC_RELAXED))
			return ts;
	return NULL;
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
	ltr_exec_after_fork();
	ltr_process_register(false);
	ts = ltr_tls_self;
	if (ts) {
		uint32_t i;

		/* The calls in progress (fork itself) are the parent's to count. */
		for (i = 0; i < ts->depth && i < LTR_SHADOW_MAX; i++)
			ts->frames[i].flags |= LTR_FR_INHERITED;
		ts->pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
		ts->tid = (int32_t)ltr_syscall3(SYS_gettid, 0, 0, 0);
		slot_take(ts);
		ltr_py_forget(ts);
		ltr_tcl_forget(ts, false);
		if ((ltr_flags & LTR_F_TRACE) && !ts->shared_slot)
			ltr_event_inherited(ts);
	}
	return false;
}

/*
 * Threads that share their creator's thread-local storage: clone(CLONE_VM)
 * without CLONE_SETTLS.  ltr_tls_self would give such a thread its
 * creator's state: its shadow stack, and its ring, which must have a
 * single writer.  So they are known by their stacks, registered by the
 * clone hook before the thread starts, and run untraced.  The creator's
 * state is made first and marked (shares_tls): only the threads whose
 * state is marked look their stack up.  A registered stack stays
 * registered: a thread's end is not seen.
 */
#define SHARED_TLS_MAX 16
static struct {
	uintptr_t lo, hi;
} shared_tls[SHARED_TLS_MAX];
static uint32_t shared_tls_count;

bool ltr_shared_tls_at(uintptr_t sp)
{
	uint32_t n = __atomic_load_n(&shared_tls_count, __ATOMIC_ACQUIRE);
	uint32_t i;

	for (i = 0; i < n && i < SHARED_TLS_MAX; i++)
		if (sp >= shared_tls[i].lo && sp < shared_tls[i].hi)
			return true;
	return false;
}

/* The start of the mapping that holds addr; 0 if not found. */
static uintptr_t mapping_start(uintptr_t addr)
{
	struct ltr_mapping m;

	return ltr_maps_find(addr, &m) ? m.lo : 0;
}

void ltr_shared_tls_add(uintptr_t top, uintptr_t creator_sp)
{
	static int lock;
	uintptr_t lo = mapping_start(top - 1);
	uint32_t n;

	/* A stack inside the creator's own (an array of its): above its sp. */
	if (lo <= creator_sp && creator_sp < top)
		lo = creator_sp;
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		;
	n = shared_tls_count;
	if (n < SHARED_TLS_MAX) {
		shared_tls[n].lo = lo ? lo : top - (8u << 20);
		shared_tls[n].hi = top;
		__atomic_store_n(&shared_tls_count, n + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	if (n == 0)
		ltr_warn("warning", "a thread made by clone() without CLONE_SETTLS shares its creator's thread-local storage: it is not traced");
	else if (n == SHARED_TLS_MAX)
		ltr_warn("warning", "more than 16 threads made by clone() without CLONE_SETTLS: the later ones are traced as their creator, which may end the program");
}

typedef int (*clone_fn)(int (*fn)(void *), void *stack, int flags, void *arg,
			...);

/* clone: a thread that will share our TLS is registered before it starts. */
int ltr_hook_clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	void *ptid, *tls, *ctid;
	va_list ap;

	/* Passed on as given: clone reads them only if flags say so. */
	va_start(ap, arg);
	ptid = va_arg(ap, void *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, void *);
	va_end(ap);
	ltr_hook_note(LTR_H_CLONE, (uint64_t)fn, (uint64_t)stack,
		      (uint64_t)flags);
	if ((flags & CLONE_VM) && !(flags & CLONE_SETTLS) && stack) {
		struct ltr_tstate *ts = ltr_thread_self();

		ltr_shared_tls_add((uintptr_t)stack,
				   (uintptr_t)__builtin_frame_address(0));
		if (ts)
			__atomic_store_n(&ts->shares_tls, 1, __ATOMIC_RELEASE);
	}
	return ((clone_fn)ltr_hook_real[LTR_H_CLONE])(fn, stack, flags, arg,
						       ptid, tls, ctid);
}
