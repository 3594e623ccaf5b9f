/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hooks.c: functions the interposer must see, whatever the selection.
 *
 * The unwinder's entry points, backtrace, pthread_exit and pthread_cancel
 * (lib/unwind.c) must put the real return addresses back before anything
 * walks the stack; clone registers the threads that share their creator's
 * TLS (lib/thread.c); _exit, _Exit and, with -f, the wait family
 * (lib/process.c) tell how processes end; the exec family and, with -f,
 * posix_spawn, system and popen (lib/exec.c) carry the session into the
 * next program; the longjmp family (lib/returns.c) tells when a setjmp
 * returns again; the credential functions (lib/creds.c) make a process
 * leave the session, also in a forked child that is not traced; prctl and
 * syscall tell when the program enters seccomp (lib/seccomp.c); dladdr
 * and dladdr1 (lib/dladdr.c) see through stubs; with -k, Tcl_CreateInterp
 * (lib/tclframes.c) tells which Tcl interpreters a thread has (traced
 * whole when selected, as the signal calls).
 * la_symbind64 and GOT patching (through lib/bind.c) bind these names to
 * the hooks, which call the real function.  When the selection names one
 * of them too, it is reported on entry (it cannot be traced on return:
 * the hook is in the way).  Those
 * that return normally (the signal calls of signal-hooks.c, system and
 * popen) are traced whole instead: when selected, their hooks call the
 * function's stub.
 */
#include "capture.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"
#include "signal-hooks.h"

void *ltr_hook_real[LTR_H_COUNT];

/*
 * Stub indexes (+1) of the hooked functions the selection names: the
 * target gives the function's index, and the captures of its prototype.
 */
static uint32_t traced_stub[LTR_H_COUNT];

static const struct {
	const char *name;
	void *hook;
	bool follow_only; /* only with -f */
	bool creds;       /* a credential change: also in untraced children */
	bool via_stub;    /* selected, it is traced whole: the hook calls its stub */
	bool leaves;      /* a vfork child leaves by it (exec, _exit) */
} hooks[LTR_H_COUNT] = {
	[LTR_H_RAISE] = { "_Unwind_RaiseException", ltr_hook_raise, false },
	[LTR_H_RETHROW] = { "_Unwind_Resume_or_Rethrow", ltr_hook_rethrow,
			    false },
	[LTR_H_FORCED] = { "_Unwind_ForcedUnwind", ltr_hook_forced, false },
	[LTR_H_BACKTRACE] = { "_Unwind_Backtrace", ltr_hook_backtrace, false },
	[LTR_H_BEGIN_CATCH] = { "__cxa_begin_catch", ltr_hook_begin_catch,
				false },
	[LTR_H_PTHREAD_EXIT] = { "pthread_exit", ltr_hook_pthread_exit, false },
	[LTR_H_GLIBC_BACKTRACE] = { "backtrace", ltr_hook_glibc_backtrace,
				    false },
	[LTR_H_CLONE] = { "clone", ltr_hook_clone, false },
	[LTR_H_PTHREAD_CANCEL] = { "pthread_cancel", ltr_hook_pthread_cancel,
				   false },
	[LTR_H_EXIT_] = { "_exit", ltr_hook_exit_, .leaves = true },
	[LTR_H_EXIT] = { "_Exit", ltr_hook_Exit, .leaves = true },
	[LTR_H_WAIT] = { "wait", ltr_hook_wait, true },
	[LTR_H_WAITPID] = { "waitpid", ltr_hook_waitpid, true },
	[LTR_H_WAIT3] = { "wait3", ltr_hook_wait3, true },
	[LTR_H_WAIT4] = { "wait4", ltr_hook_wait4, true },
	[LTR_H_WAITID] = { "waitid", ltr_hook_waitid, true },
	[LTR_H_EXECVE] = { "execve", ltr_hook_execve, .leaves = true },
	[LTR_H_EXECV] = { "execv", ltr_hook_execv, .leaves = true },
	[LTR_H_EXECVP] = { "execvp", ltr_hook_execvp, .leaves = true },
	[LTR_H_EXECVPE] = { "execvpe", ltr_hook_execvpe, .leaves = true },
	[LTR_H_EXECL] = { "execl", ltr_hook_execl, .leaves = true },
	[LTR_H_EXECLP] = { "execlp", ltr_hook_execlp, .leaves = true },
	[LTR_H_EXECLE] = { "execle", ltr_hook_execle, .leaves = true },
	[LTR_H_FEXECVE] = { "fexecve", ltr_hook_fexecve, .leaves = true },
	[LTR_H_EXECVEAT] = { "execveat", ltr_hook_execveat, .leaves = true },
	[LTR_H_SPAWN] = { "posix_spawn", ltr_hook_posix_spawn, true },
	[LTR_H_SPAWNP] = { "posix_spawnp", ltr_hook_posix_spawnp, true },
	[LTR_H_SYSTEM] = { "system", ltr_hook_system, .follow_only = true,
			   .via_stub = true },
	[LTR_H_POPEN] = { "popen", ltr_hook_popen, .follow_only = true,
			  .via_stub = true },
	[LTR_H_LONGJMP] = { "longjmp", ltr_hook_longjmp, false },
	[LTR_H__LONGJMP] = { "_longjmp", ltr_hook__longjmp, false },
	[LTR_H_SIGLONGJMP] = { "siglongjmp", ltr_hook_siglongjmp, false },
	[LTR_H_LONGJMP_CHK] = { "__longjmp_chk", ltr_hook_longjmp_chk, false },
#define CREDS(h, name, fn) [h] = { name, (void *)fn, .creds = true }
	CREDS(LTR_H_SETUID, "setuid", ltr_hook_setuid),
	CREDS(LTR_H_SETEUID, "seteuid", ltr_hook_seteuid),
	CREDS(LTR_H_SETREUID, "setreuid", ltr_hook_setreuid),
	CREDS(LTR_H_SETRESUID, "setresuid", ltr_hook_setresuid),
	CREDS(LTR_H_SETFSUID, "setfsuid", ltr_hook_setfsuid),
	CREDS(LTR_H_SETGID, "setgid", ltr_hook_setgid),
	CREDS(LTR_H_SETEGID, "setegid", ltr_hook_setegid),
	CREDS(LTR_H_SETREGID, "setregid", ltr_hook_setregid),
	CREDS(LTR_H_SETRESGID, "setresgid", ltr_hook_setresgid),
	CREDS(LTR_H_SETFSGID, "setfsgid", ltr_hook_setfsgid),
	CREDS(LTR_H_SETGROUPS, "setgroups", ltr_hook_setgroups),
	CREDS(LTR_H_INITGROUPS, "initgroups", ltr_hook_initgroups),
	CREDS(LTR_H_CAPSET, "capset", ltr_hook_capset),
	CREDS(LTR_H_SYSCALL, "syscall", ltr_hook_syscall),
#undef CREDS
	[LTR_H_PRCTL] = { "prctl", ltr_hook_prctl },
#define SIGNAL(h, name, fn) [h] = { name, (void *)fn, .via_stub = true }
	SIGNAL(LTR_H_SIGACTION, "sigaction", ltr_hook_sigaction),
	SIGNAL(LTR_H_SIGNAL, "signal", ltr_hook_signal),
	SIGNAL(LTR_H_SYSV_SIGNAL, "sysv_signal", ltr_hook_sysv_signal),
	SIGNAL(LTR_H___SYSV_SIGNAL, "__sysv_signal", ltr_hook___sysv_signal),
	SIGNAL(LTR_H_BSD_SIGNAL, "bsd_signal", ltr_hook_bsd_signal),
	SIGNAL(LTR_H_SIGSET, "sigset", ltr_hook_sigset),
	SIGNAL(LTR_H_SIGHOLD, "sighold", ltr_hook_sighold),
	SIGNAL(LTR_H_SIGIGNORE, "sigignore", ltr_hook_sigignore),
	SIGNAL(LTR_H_SIGPROCMASK, "sigprocmask", ltr_hook_sigprocmask),
	SIGNAL(LTR_H_PTHREAD_SIGMASK, "pthread_sigmask", ltr_hook_pthread_sigmask),
	SIGNAL(LTR_H_SIGSUSPEND, "sigsuspend", ltr_hook_sigsuspend),
	SIGNAL(LTR_H_PPOLL, "ppoll", ltr_hook_ppoll),
	SIGNAL(LTR_H_PPOLL_CHK, "__ppoll_chk", ltr_hook___ppoll_chk),
	SIGNAL(LTR_H_PSELECT, "pselect", ltr_hook_pselect),
	SIGNAL(LTR_H_EPOLL_PWAIT, "epoll_pwait", ltr_hook_epoll_pwait),
	SIGNAL(LTR_H_EPOLL_PWAIT2, "epoll_pwait2", ltr_hook_epoll_pwait2),
#undef SIGNAL
	[LTR_H_DLADDR] = { "dladdr", ltr_hook_dladdr, false },
	[LTR_H_DLADDR1] = { "dladdr1", ltr_hook_dladdr1, false },
	/* -k: the interpreters whose procs a stack shows (tclframes.c). */
	[LTR_H_TCL_CREATE_INTERP] = { "Tcl_CreateInterp",
				      ltr_hook_tcl_create_interp,
				      .via_stub = true },
};

void ltr_hook_note_regs(enum ltr_hook h, const struct ltr_regs *regs)
{
	uint32_t stub = __atomic_load_n(&traced_stub[h], __ATOMIC_ACQUIRE);

	if (hooks[h].leaves)
		ltr_vfork_child_check();
	if (stub)
		ltr_note_entry(&ltr_targets[stub - 1], regs);
}

void ltr_hook_note(enum ltr_hook h, uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct ltr_regs regs = { .rdi = a0, .rsi = a1, .rdx = a2 };

	ltr_hook_note_regs(h, &regs);
}

/* The bounds of this object, from the linker: every hook lies within. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char _end[] __attribute__((visibility("hidden")));

/*
 * The index of the hook at addr, or -1 if addr is no hook.  GOT patching
 * asks of every slot's value: one outside this object is none, without
 * the walk over the table.
 */
static int hook_index(uintptr_t addr)
{
	int i;

	if (addr < (uintptr_t)__ehdr_start || addr >= (uintptr_t)_end)
		return -1;
	for (i = 0; i < LTR_H_COUNT; i++)
		if ((uintptr_t)hooks[i].hook == addr)
			return i;
	return -1;
}

bool ltr_is_hook(uintptr_t addr)
{
	return hook_index(addr) >= 0;
}

uintptr_t ltr_unhook(uintptr_t addr)
{
	int i = hook_index(addr);
	void *real = i < 0 ? NULL : __atomic_load_n(&ltr_hook_real[i],
						    __ATOMIC_ACQUIRE);

	return real ? (uintptr_t)real : addr;
}

/* The hooks by name (nameset.c): every binding asks, filled by ltr_hooks_init. */
static struct ltr_nameset hook_names;
_Static_assert(LTR_H_COUNT <= LTR_NAMESET_SIZE / 2, "a nameset holds every hook");

void ltr_hooks_init(void)
{
	ltr_nameset_init(&hook_names, &hooks[0].name, sizeof(hooks[0]),
			 LTR_H_COUNT);
}

/*
 * A hooked function that returns (a signal call, system, popen) is traced
 * whole when selected: the hook calls it through its stub, which records
 * its entry and its return.  Once one caller selects it, the hook traces it for all.
 */
static void bind_through_stub(size_t i, const char *name, uint32_t hash,
			      uintptr_t real, bool selected,
			      const struct ltr_object *def)
{
	uintptr_t stub = selected ? ltr_stub_for(real, name, hash, def, NULL) : 0;

	if (stub)
		__atomic_store_n(&ltr_hook_real[i], (void *)stub,
				 __ATOMIC_RELEASE);
	else if (!ltr_is_stub((uintptr_t)__atomic_load_n(&ltr_hook_real[i],
							__ATOMIC_ACQUIRE)))
		__atomic_store_n(&ltr_hook_real[i], (void *)real,
				 __ATOMIC_RELEASE);
}

uintptr_t ltr_hook_for(const char *name, uint32_t hash, uintptr_t real,
		       bool selected, const struct ltr_object *def, bool forked)
{
	uint32_t i;

	if (!ltr_nameset_find(&hook_names, name, hash, &i))
		return 0;
	if ((hooks[i].follow_only && !(ltr_flags & LTR_F_FOLLOW)) ||
	    (forked && !hooks[i].creds))
		return 0;
	if (hooks[i].via_stub) {
		bind_through_stub(i, name, hash, real, selected, def);
		return (uintptr_t)hooks[i].hook;
	}
	__atomic_store_n(&ltr_hook_real[i], (void *)real, __ATOMIC_RELEASE);
	/* Its stub, never bound, gives it a name and counters. */
	if (selected && !traced_stub[i]) {
		uintptr_t stub = ltr_stub_for(real, name, hash, def, NULL);

		if (stub)
			__atomic_store_n(&traced_stub[i],
					 ltr_stub_index(stub) + 1,
					 __ATOMIC_RELEASE);
	}
	return (uintptr_t)hooks[i].hook;
}
