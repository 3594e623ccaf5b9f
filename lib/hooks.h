/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hooks.h: the functions the interposer hooks (exceptions, backtraces, exit,
 * wait, credentials, exec and spawn, dladdr) and unwinding across
 * hijacked frames.
 * (lib/interposer.h says what every internal declaration shares.)
 */
#ifndef LTR_LIB_HOOKS_H
#define LTR_LIB_HOOKS_H

#include "interposer.h"
#include "objects.h"
#include "process.h"

/* ---- hooks (hooks.c, unwind.c, process.c, dladdr.c) --------------------- */

enum ltr_hook {
	LTR_H_RAISE, LTR_H_RETHROW, LTR_H_FORCED, LTR_H_BACKTRACE,
	LTR_H_BEGIN_CATCH, LTR_H_PTHREAD_EXIT, LTR_H_GLIBC_BACKTRACE,
	LTR_H_CLONE, LTR_H_PTHREAD_CANCEL, LTR_H_EXIT_, LTR_H_EXIT,
	LTR_H_WAIT, LTR_H_WAITPID, LTR_H_WAIT3, LTR_H_WAIT4, LTR_H_WAITID,
	LTR_H_SETUID, LTR_H_SETEUID, LTR_H_SETREUID, LTR_H_SETRESUID,
	LTR_H_SETFSUID, LTR_H_SETGID, LTR_H_SETEGID, LTR_H_SETREGID,
	LTR_H_SETRESGID, LTR_H_SETFSGID, LTR_H_SETGROUPS, LTR_H_INITGROUPS,
	LTR_H_CAPSET, LTR_H_SYSCALL, LTR_H_PRCTL,
	LTR_H_SIGACTION, LTR_H_SIGNAL, LTR_H_SYSV_SIGNAL, LTR_H___SYSV_SIGNAL,
	LTR_H_BSD_SIGNAL, LTR_H_SIGSET, LTR_H_SIGHOLD, LTR_H_SIGIGNORE,
	LTR_H_SIGPROCMASK, LTR_H_PTHREAD_SIGMASK, LTR_H_SIGSUSPEND,
	LTR_H_PPOLL, LTR_H_PPOLL_CHK, LTR_H_PSELECT, LTR_H_EPOLL_PWAIT,
	LTR_H_EPOLL_PWAIT2,
	LTR_H_EXECVE, LTR_H_EXECV, LTR_H_EXECVP, LTR_H_EXECVPE, LTR_H_EXECL,
	LTR_H_EXECLP, LTR_H_EXECLE, LTR_H_FEXECVE, LTR_H_EXECVEAT,
	LTR_H_SPAWN, LTR_H_SPAWNP, LTR_H_SYSTEM, LTR_H_POPEN,
	LTR_H_LONGJMP, LTR_H__LONGJMP, LTR_H_SIGLONGJMP, LTR_H_LONGJMP_CHK,
	LTR_H_DLADDR, LTR_H_DLADDR1, LTR_H_TCL_CREATE_INTERP,
	LTR_H_COUNT
};

/* The real functions behind the hooks. */
extern void *ltr_hook_real[LTR_H_COUNT];

/* Fill the hooks' index by name before the first binding: once, at la_version. */
void ltr_hooks_init(void);

/*
 * If name (of ltr_name_hash hash) is a function the interposer must see
 * whatever the selection, note its real address and return the hook to
 * bind instead; else 0.  A selected one is also reported, on entry.  In a
 * forked child that is not traced (forked), only the credential hooks are
 * bound.
 */
uintptr_t ltr_hook_for(const char *name, uint32_t hash, uintptr_t real,
		       bool selected, const struct ltr_object *def, bool forked);

/* Is addr one of the hooks (a slot patched already)? */
bool ltr_is_hook(uintptr_t addr);

/* What hook addr calls (the function, or its stub); addr if it is no hook. */
uintptr_t ltr_unhook(uintptr_t addr);

/* Report hook h's call if the selection names its function. */
void ltr_hook_note(enum ltr_hook h, uint64_t a0, uint64_t a1, uint64_t a2);

/* The same, with all six integer arguments in regs (the rest zero). */
void ltr_hook_note_regs(enum ltr_hook h, const struct ltr_regs *regs);

int ltr_hook_raise(void *exc);
int ltr_hook_rethrow(void *exc);
int ltr_hook_forced(void *exc, void *stop, void *arg);
int ltr_hook_backtrace(void *trace, void *arg);
int ltr_hook_glibc_backtrace(void **buf, int size);
void *ltr_hook_begin_catch(void *exc);
void ltr_hook_pthread_exit(void *ret);
int ltr_hook_clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
int ltr_hook_pthread_cancel(uintptr_t thread);
void ltr_hook_exit_(int status);
void ltr_hook_Exit(int status);
int ltr_hook_wait(int *status);
int ltr_hook_waitpid(int pid, int *status, int options);
int ltr_hook_wait3(int *status, int options, void *rusage);
int ltr_hook_wait4(int pid, int *status, int options, void *rusage);
int ltr_hook_waitid(int idtype, unsigned id, void *info, int options);
long ltr_hook_setuid(long a, long b, long c);
long ltr_hook_seteuid(long e);
long ltr_hook_setreuid(long a, long b, long c);
long ltr_hook_setresuid(long a, long b, long c);
long ltr_hook_setfsuid(long a, long b, long c);
long ltr_hook_setgid(long a, long b, long c);
long ltr_hook_setegid(long e);
long ltr_hook_setregid(long a, long b, long c);
long ltr_hook_setresgid(long a, long b, long c);
long ltr_hook_setfsgid(long a, long b, long c);
long ltr_hook_setgroups(long a, long b, long c);
long ltr_hook_initgroups(long user, long group);
long ltr_hook_capset(long a, long b, long c);
long ltr_hook_syscall(long nr, long a, long b, long c, long d, long e, long f);
long ltr_hook_prctl(long option, long a2, long a3, long a4, long a5);
int ltr_hook_execve(const char *path, char *const argv[], char *const envp[]);
int ltr_hook_execv(const char *path, char *const argv[]);
int ltr_hook_execvp(const char *file, char *const argv[]);
int ltr_hook_execvpe(const char *file, char *const argv[], char *const envp[]);
int ltr_hook_execl(const char *path, const char *arg, ...);
int ltr_hook_execlp(const char *file, const char *arg, ...);
int ltr_hook_execle(const char *path, const char *arg, ...);
int ltr_hook_fexecve(int fd, char *const argv[], char *const envp[]);
int ltr_hook_execveat(int dirfd, const char *path, char *const argv[],
		      char *const envp[], int flags);
int ltr_hook_posix_spawn(int *pid, const char *path, const void *fa,
			 const void *attr, char *const argv[],
			 char *const envp[]);
int ltr_hook_posix_spawnp(int *pid, const char *file, const void *fa,
			  const void *attr, char *const argv[],
			  char *const envp[]);
int ltr_hook_system(const char *command);
void *ltr_hook_popen(const char *command, const char *mode);
int ltr_hook_dladdr(const void *addr, void *info);
int ltr_hook_dladdr1(const void *addr, void *info, void **extra, int flags);
void *ltr_hook_tcl_create_interp(void);

/*
 * Keep what an exec carries into the next program (lib/exec.c): the
 * LTRUSS_SESSION entry and the LD_AUDIT value ltruss gave (at attach).
 */
void ltr_exec_remember(const char *session, const char *audit);

/*
 * In a forked child: environ back to the program's own if it was the copy
 * system() or popen() carry the session in (another thread ran one at the
 * fork), and the swap lock free.  Async-signal-safe, allocates nothing.
 */
void ltr_exec_after_fork(void);

/* With -f, have the program's libc run ltr_exec_after_fork in fork children. */
void ltr_exec_watch_fork(void);

/* ---- unwinding (unwind.c) ----------------------------------------------- */

/* Put back the real return addresses of this thread's frames above sp. */
void ltr_frames_restore(uintptr_t sp);

/*
 * At la_objopen: if obj has its own static unwinder, trace on entry only
 * every call (the program) or the calls at risk (a library), and say so.
 */
void ltr_unwind_check_object(const struct ltr_object *obj);

/* At la_objclose: obj's calls are no longer at risk. */
void ltr_unwind_forget(const struct ltr_object *obj);

/* How many libraries with their own unwinder are loaded (lib/unwind.c). */
extern uint32_t ltr_own_unwinders;

/* May such an unwinder walk the frame of a call of callee returning to ret? */
bool ltr_unwind_at_risk(uintptr_t callee, uintptr_t ret);

/* The same, at the cost of one load while no such library is loaded. */
static inline bool ltr_unwind_risky(uintptr_t callee, uintptr_t ret)
{
	return unlikely(__atomic_load_n(&ltr_own_unwinders, __ATOMIC_RELAXED)) &&
	       ltr_unwind_at_risk(callee, ret);
}

/* The same for all the frames of thread ts (another one of this process). */
void ltr_frames_restore_of(struct ltr_tstate *ts, uintptr_t sp);

/* The state of this process's thread whose thread pointer is tp, or NULL. */
struct ltr_tstate *ltr_thread_of(uintptr_t tp);

/* Hijack again the restored frames that are still live above sp. */
void ltr_frames_rehijack(uintptr_t sp);

#endif
