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
 * kernel's exception tables do.  Every other SIGSEGV or SIGBUS is not ours:
 * the handler puts the program's own action back (the default: we install
 * only over SIG_DFL) and returns, so the fault happens again and the kernel
 * delivers it as it would have without us (a signal sent by kill is sent
 * again); from then on the fast path is off.
 *
 * A fault reaches our handler only if the signal is neither blocked (the
 * kernel then kills the process) nor handled by the program.  So the fast
 * path turns off, for good, as soon as the program (signal-hooks.c)
 *   - installs or asks for its own SIGSEGV or SIGBUS action: ours is
 *     removed first, so that it sees and gets what it would without us;
 *   - blocks either signal with any call that sets a mask (sigprocmask,
 *     pthread_sigmask, a handler's sa_mask, sigsuspend, ppoll...);
 *   - or when one is already blocked at start-up, or we run under valgrind.
 * Turning off waits for copies in flight in other threads, so that none
 * faults once the program's handler is in place.  Then every copy goes
 * through process_vm_readv, as before.  What the hooks cannot see (a raw
 * rt_sigaction system call, setcontext with a full mask, a -fno-plt call
 * of sigaction) is listed in the man page, BUGS.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

size_t ltr_probe_copy(void *dst, const void *src, size_t len, int stop_at_nul);
size_t ltr_probe_copy_bulk(void *dst, const void *src, size_t len);
void ltr_sigreturn(void);
extern const char ltr_probe_load[], ltr_probe_fixup[];
extern const char ltr_probe_bulk_load[], ltr_probe_bulk_fixup[];

#define SA_RESTORER 0x04000000 /* the kernel's flag: libc hides it */
#define SPIN_MAX (1u << 22) /* a copy in flight is shorter than this */

/* The kernel's struct sigaction on x86_64 (not libc's). */
struct ksigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static bool fast_on;            /* the handlers are ours and nothing blocks */
static unsigned inflight;       /* copies running now, in every thread */
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
	__atomic_store_n(&fast_on, true, __ATOMIC_SEQ_CST);
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
	while (__atomic_load_n(&inflight, __ATOMIC_SEQ_CST) &&
	       ++spins < SPIN_MAX)
		__builtin_ia32_pause();
	if (i >= 0)
		give_back(i);
}

bool ltr_fault_copy(void *dst, uintptr_t src, size_t len, bool stop_at_nul,
		    size_t *got)
{
	bool on;

	/* Off for good: no need to be counted in flight. */
	if (!__atomic_load_n(&fast_on, __ATOMIC_RELAXED))
		return false;
	__atomic_add_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
	on = __atomic_load_n(&fast_on, __ATOMIC_SEQ_CST);
	if (on)
		*got = stop_at_nul ? ltr_probe_copy(dst, (const void *)src, len, 1)
				   : ltr_probe_copy_bulk(dst, (const void *)src, len);
	__atomic_sub_fetch(&inflight, 1, __ATOMIC_SEQ_CST);
	return on;
}
