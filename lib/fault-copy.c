/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault-copy.c: copy the program's memory with a plain load that may fault.
 *
 * Why.  process_vm_readv (safe-read.c) never faults but is a system call
 * per string, 0.4 to 2 us: it made a traced `sort` of 30 000 lines fifty
 * times slower than the untraced one.  Most strings live in memory that is
 * mapped and readable, and a plain copy costs a few nanoseconds; the rare
 * bad pointer must still never fault the program.
 *
 * How.  At start-up (la_preinit) the interposer installs a SIGSEGV and a
 * SIGBUS handler.  ltr_probe_copy and ltr_probe_copy_bulk
 * (arch/x86_64/probe-copy.S) each load the program's bytes with one
 * instruction; a fault there is recognised by its
 * %rip and resumed at a fix-up that returns a short count, exactly as the
 * kernel's exception tables do.  The walks of interpreter frames
 * (walk-read.h) inline their loads instead, a few instructions a frame
 * rather than a call a field, each listed with its fix-up in a table of
 * their own (ltr_fixups, struct ltr_fixup), which the handler looks up in
 * the same way.  Every other SIGSEGV or SIGBUS is not ours:
 * the handler puts the program's own action back (the default: we install
 * only over SIG_DFL) and returns, so the fault happens again and the kernel
 * delivers it as it would have without us (a signal sent by kill is sent
 * again); from then on the fast path is off.
 *
 * A fault reaches our handler only if the signal is neither blocked (the
 * kernel then kills the process) nor handled by the program.  So the fast
 * path turns off, for good, as soon as the program (signal-hooks.c)
 *   - installs its own SIGSEGV or SIGBUS action: ours is removed first,
 *     so that it gets what it would without us (a query, sigaction with
 *     no new action, is told the action it had before ours, and keeps
 *     the fast path: CPython asks of every signal at start-up);
 *   - blocks either signal with any call that sets a mask (sigprocmask,
 *     pthread_sigmask, a handler's sa_mask, sigsuspend, ppoll...);
 *   - or when one is already blocked at start-up, or we run under valgrind.
 * Turning off waits for copies in flight in other threads, so that none
 * faults once the program's handler is in place.  Then every copy goes
 * through process_vm_readv, as before.  What the hooks cannot see (a raw
 * rt_sigaction system call, setcontext with a full mask, a -fno-plt call
 * of sigaction) is listed in the man page, BUGS.
 *
 * Copies in flight.  Turning off must know that no other thread is inside
 * a copy that saw the fast path on.  A counter of copies shared by all
 * threads did that with two locked instructions a copy, some 25 ns of a
 * traced sort's strcoll (two strings a call): more than the copies.  So a
 * thread says it copies in its own state (ts->copying), with plain stores,
 * and the rare turning off pays instead: after clearing fast_on it makes
 * every thread of the system pass a memory barrier (membarrier(2),
 * MEMBARRIER_CMD_GLOBAL, which needs no registration the program could
 * see), then waits for the threads it finds copying.  A thread either
 * loaded fast_on before that barrier, and then its store of copying is
 * seen, or after it, and then it sees fast_on clear.  A thread's first
 * copy stores copying with a full fence, so that turning off can skip the
 * barrier (milliseconds) when no other thread of the process ever copied.
 * The shared counter stays for what cannot use this: a kernel without
 * membarrier, a process under seccomp, a thread without a state of its
 * own.
 */
#include <linux/membarrier.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "interposer.h"
#include "process.h"

size_t ltr_probe_copy(void *dst, const void *src, size_t len);
size_t ltr_probe_copy_bulk(void *dst, const void *src, size_t len);
void ltr_sigreturn(void);
extern const char ltr_probe_load[], ltr_probe_fixup[];
extern const char ltr_probe_bulk_load[], ltr_probe_bulk_fixup[];

#define SPIN_MAX (1u << 22) /* a copy in flight is shorter than this */

/* ts->copying: never, copying now, or not now but it did. */
enum { COPY_NEVER, COPY_RUNNING, COPY_DONE };

static bool fast_on;            /* the handlers are ours and nothing blocks */
static bool fenced;             /* membarrier can end copies in flight */
static unsigned inflight;       /* copies counted here, in every thread */
static bool owned[2];           /* SIGSEGV, SIGBUS still have our handler */
static struct ksigaction orig[2]; /* the program's actions before ours */

/* 0 for SIGSEGV, 1 for SIGBUS, -1 for any other signal. */
static int slot_of(int sig)
{
	return sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : -1;
}

/* Put the program's action for signal slot i back, if ours is there. */
static void give_back(int i)
{
	if (__atomic_exchange_n(&owned[i], false, __ATOMIC_SEQ_CST))
		ltr_syscall6(SYS_rt_sigaction, i ? SIGBUS : SIGSEGV,
			     (long)&orig[i], 0, 8, 0, 0);
}

extern const struct ltr_fixup __start_ltr_fixups[] __attribute__((visibility("hidden")));
extern const struct ltr_fixup __stop_ltr_fixups[] __attribute__((visibility("hidden")));

/* If *rip is one of the inlined loads (ltr_fixups), move it to its fix-up. */
static bool fixup(greg_t *rip)
{
	const struct ltr_fixup *f;

	for (f = __start_ltr_fixups; f < __stop_ltr_fixups; f++)
		if (*rip == (greg_t)((uintptr_t)&f->load + f->load)) {
			*rip = (greg_t)((uintptr_t)&f->resume + f->resume);
			return true;
		}
	return false;
}

/* Our SIGSEGV/SIGBUS handler: resume our own faulting load, return the rest. */
static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *rip = &uc->uc_mcontext.gregs[REG_RIP];
	int i = slot_of(sig);

	if (si->si_code > 0 && *rip == (greg_t)ltr_probe_load) {
		*rip = (greg_t)ltr_probe_fixup;
		return;
	}
	if (si->si_code > 0 && *rip == (greg_t)ltr_probe_bulk_load) {
		*rip = (greg_t)ltr_probe_bulk_fixup;
		return;
	}
	if (si->si_code > 0 && fixup(rip))
		return;
	/* Not ours: the program's own action, with the fault done again. */
	__atomic_store_n(&fast_on, false, __ATOMIC_SEQ_CST);
	if (i < 0)
		return;
	give_back(i);
	if (si->si_code <= 0)
		ltr_syscall6(SYS_rt_tgsigqueueinfo,
			     ltr_syscall3(SYS_getpid, 0, 0, 0),
			     ltr_syscall3(SYS_gettid, 0, 0, 0), sig, (long)si,
			     0, 0);
}

/* Is the interposer running on valgrind's simulated CPU? */
static bool on_valgrind(void)
{
	const char *p = ltr_getenv("LD_PRELOAD");

	/* valgrind preloads its vgpreload_*.so helpers into every program. */
	for (; p && *p; p++)
		if (*p == 'v' && ltr_strncmp(p, "vgpreload", 9) == 0)
			return true;
	return false;
}

void ltr_fault_copy_init(void)
{
	struct ksigaction ours = { on_fault,
				   SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
					   SA_RESTORER,
				   ltr_sigreturn, 0 };
	uint64_t blocked = 0;
	int i;

	if (on_valgrind())
		return;
	if (ltr_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&blocked, 8,
			 0, 0) < 0 ||
	    blocked & (1ull << (SIGSEGV - 1) | 1ull << (SIGBUS - 1)))
		return;
	for (i = 0; i < 2; i++)
		if (ltr_syscall6(SYS_rt_sigaction, i ? SIGBUS : SIGSEGV, 0,
				 (long)&orig[i], 8, 0, 0) < 0 ||
		    orig[i].handler != (void *)SIG_DFL)
			return;
	for (i = 0; i < 2; i++) {
		if (ltr_syscall6(SYS_rt_sigaction, i ? SIGBUS : SIGSEGV,
				 (long)&ours, 0, 8, 0, 0) < 0) {
			ltr_fault_copy_off(-1);
			return;
		}
		owned[i] = true;
	}
	if (ltr_sys_ok(SYS_membarrier)) {
		long cmds = ltr_syscall3(SYS_membarrier, MEMBARRIER_CMD_QUERY,
					 0, 0);

		fenced = cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL);
	}
	__atomic_store_n(&fast_on, true, __ATOMIC_SEQ_CST);
}

/* Spin until *v is no longer busy, for as long as a copy can take. */
static void wait_while(const unsigned *v, unsigned busy)
{
	unsigned spins = 0;

	while (__atomic_load_n(v, __ATOMIC_SEQ_CST) == busy &&
	       ++spins < SPIN_MAX)
		__builtin_ia32_pause();
}

/*
 * With fast_on clear: wait for the copies other threads of this process
 * started while it was set (see "Copies in flight" above).  The caller's
 * own copy, if a handler of the program interrupted one, cannot end
 * before it returns: waiting for it would only delay.
 */
static void wait_fenced(void)
{
	struct ltr_tstate *self = ltr_tls_self, *ts;
	int32_t pid;
	bool others = false;

	if (!fenced)
		return;
	pid = (int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0);
	for (ts = ltr_threads(); ts; ts = ts->next)
		if (ts != self && ts->pid == pid &&
		    __atomic_load_n(&ts->copying, __ATOMIC_SEQ_CST))
			others = true;
	if (!others)
		return;
	if (ltr_sys_ok(SYS_membarrier))
		ltr_syscall3(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	for (ts = ltr_threads(); ts; ts = ts->next)
		if (ts != self && ts->pid == pid)
			wait_while(&ts->copying, COPY_RUNNING);
}

void ltr_fault_copy_off(int sig)
{
	unsigned spins = 0;
	int i = slot_of(sig);

	if (!__atomic_load_n(&fast_on, __ATOMIC_SEQ_CST) &&
	    (i < 0 || !__atomic_load_n(&owned[i], __ATOMIC_SEQ_CST)))
		return;
	__atomic_store_n(&fast_on, false, __ATOMIC_SEQ_CST);
	/* A copy that saw fast_on set finishes under our handler. */
	wait_fenced();
	while (__atomic_load_n(&inflight, __ATOMIC_SEQ_CST) &&
	       ++spins < SPIN_MAX)
		__builtin_ia32_pause();
	if (i >= 0)
		give_back(i);
}

/* The copy itself, once it may fault. */
static inline size_t probe(void *dst, uintptr_t src, size_t len,
			   bool stop_at_nul)
{
	return stop_at_nul ? ltr_probe_copy(dst, (const void *)src, len)
			   : ltr_probe_copy_bulk(dst, (const void *)src, len);
}

void ltr_fault_copy_query(int sig, struct sigaction *old)
{
	int i = slot_of(sig);
	unsigned long keep;

	if (i < 0 || !__atomic_load_n(&owned[i], __ATOMIC_SEQ_CST))
		return;
	/* libc shows SA_RESTORER or not: as it did ours, the program's. */
	keep = (unsigned long)old->sa_flags & SA_RESTORER;
	old->sa_sigaction = orig[i].handler;
	old->sa_flags = (int)((orig[i].flags & ~(unsigned long)SA_RESTORER) |
			      (keep ? orig[i].flags & SA_RESTORER : 0));
	old->sa_restorer = orig[i].restorer;
	__builtin_memset(&old->sa_mask, 0, sizeof(old->sa_mask));
	__builtin_memcpy(&old->sa_mask, &orig[i].mask, sizeof(orig[i].mask));
}

/*
 * Say in ts that its thread copies now (see "Copies in flight"): a plain
 * store, with a full fence the first time.  Two stores, not one whose
 * order is computed: gcc makes an order it cannot see at compile time
 * seq_cst, an xchg on every walk of Python's frames under -k (perf: 9% of
 * the traced python3's time, all of it on the instruction after it).
 */
static inline void copying_begin(struct ltr_tstate *ts)
{
	if (likely(ts->copying))
		__atomic_store_n(&ts->copying, COPY_RUNNING, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&ts->copying, COPY_RUNNING, __ATOMIC_SEQ_CST);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/*
 * A series of copies under one mark (a walk of pointers, a load each):
 * only in a thread of its own state, fenced (see "Copies in flight"), so
 * that the mark is two plain stores whatever the loads.
 */
bool ltr_fault_series_begin(void)
{
	struct ltr_tstate *ts = ltr_tls_self;

	if (!__atomic_load_n(&fast_on, __ATOMIC_RELAXED) || !fenced || !ts ||
	    __atomic_load_n(&ltr_seccomp, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&ts->shares_tls, __ATOMIC_RELAXED))
		return false;
	copying_begin(ts);
	if (__atomic_load_n(&fast_on, __ATOMIC_RELAXED))
		return true;
	__atomic_store_n(&ts->copying, COPY_DONE, __ATOMIC_RELEASE);
	return false;
}

size_t ltr_fault_series_read(void *dst, uintptr_t src, size_t len)
{
	return src < 4096 ? 0 : probe(dst, src, len, false);
}

void ltr_fault_series_end(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&ltr_tls_self->copying, COPY_DONE, __ATOMIC_RELEASE);
}

bool ltr_fault_copy(void *dst, uintptr_t src, size_t len, bool stop_at_nul,
		    size_t *got)
{
	struct ltr_tstate *ts = ltr_tls_self;
	bool on;

	/* Off for good: no need to be counted in flight. */
	if (!__atomic_load_n(&fast_on, __ATOMIC_RELAXED))
		return false;
	if (likely(fenced && ts &&
		   !__atomic_load_n(&ltr_seccomp, __ATOMIC_RELAXED) &&
		   !__atomic_load_n(&ts->shares_tls, __ATOMIC_RELAXED))) {
		/* Said in the thread's own state: see "Copies in flight". */
		copying_begin(ts);
		on = __atomic_load_n(&fast_on, __ATOMIC_RELAXED);
		if (on)
			*got = probe(dst, src, len, stop_at_nul);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&ts->copying, COPY_DONE, __ATOMIC_RELEASE);
		return on;
	}
	__atomic_add_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
	on = __atomic_load_n(&fast_on, __ATOMIC_SEQ_CST);
	if (on)
		*got = probe(dst, src, len, stop_at_nul);
	__atomic_sub_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
	return on;
}
