/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interposer.h: internal declarations of libltruss.so.
 *
 * Everything here has hidden visibility (-fvisibility=hidden): the
 * interposer lives inside someone else's process and exports only the
 * rtld-audit entry points (la_*).
 */
#ifndef LTRUSS_INTERPOSER_H
#define LTRUSS_INTERPOSER_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86_64/cpu.h"
#include "session.h"

struct ltr_tstate;

#define likely(x) __builtin_expect(!!(x), 1)
#define ROUND8(n) (((n) + 7u) & ~(size_t)7u)

/* Two stack addresses further apart than this are on different stacks. */
#define LTR_SAME_STACK (64u << 20)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Registers saved by ltr_entry_common (lib/arch/x86_64/trampoline.S). */
struct ltr_regs {
	uint64_t xmm[8]; /* low halves of %xmm0-7 */
	uint64_t rdi, rsi, rdx, rcx, r8, r9, rax, r10;
	uint64_t rbx, rbp, r12, r13, r14, r15; /* callee-saved, for -k */
	uint64_t pad;
	uint64_t ret;    /* the caller's return address, on its stack */
};
_Static_assert(offsetof(struct ltr_regs, ret) == 184,
	       "struct ltr_regs and R_SIZE of trampoline.S disagree");

/* Registers saved by the return trampoline. */
struct ltr_retregs {
	uint64_t xmm0[2], xmm1[2];
	uint64_t rax, rdx;
	uint64_t pad;
	uint64_t slot;   /* the return slot the callee returned through */
};

/* ---- session (attach.c) ------------------------------------------------ */

/* The session, or NULL when this process is not traced. */
extern struct ltr_session *ltr_session;

/* The session's LTR_F_* flags, as this process uses them (0 once detached). */
extern uint32_t ltr_flags;
/* Bytes of each thread's ring (a power of two), from the session. */
extern uint32_t ltr_ring_size;

/* Calls are traced on entry only: a CET shadow stack forbids return hijacking. */
extern bool ltr_no_hijack;

/* Has this thread a CET shadow stack?  Then set ltr_no_hijack (and warn, once). */
bool ltr_check_shadow_stack(void);

/* Map the session named in the environment and clean the environment. */
void ltr_attach(void);

/* Open the session again (by ltruss's /proc/PID/fd), to map more of it; -1 if it cannot. */
int ltr_session_reopen(void);

/* The slot shared by the threads past LTR_MAX_THREADS - 1, mapped at attach. */
extern struct ltr_thread *ltr_slot_shared;

/* Thread slot i, mapped for this process (slot-map.c); NULL if it cannot be. */
struct ltr_thread *ltr_slot_map(uint32_t i);

/* The ring of a slot ltr_slot_map gave. */
static inline unsigned char *ltr_slot_ring(struct ltr_thread *slot)
{
	return (unsigned char *)slot + ltr_page_up(sizeof(*slot));
}

/* Put anonymous memory where the slots were mapped: the process leaves the session. */
void ltr_slots_leave(void);

/* Intern s in the session's string area; returns its offset. */
uint32_t ltr_session_string(const char *s);

/* Report a problem once on stderr ("ltruss: ..."), never aborting the program. */
void ltr_warn(const char *msg, const char *detail);

/* The value of environment variable name, or NULL. */
const char *ltr_getenv(const char *name);

/* ---- objects (objects.c) ----------------------------------------------- */

#define LTR_OBJ_MAIN 0x1u     /* the program itself */
#define LTR_OBJ_FROM 0x2u     /* calls from it are traced (--from) */
#define LTR_OBJ_TO 0x4u       /* some rule may select functions in it */
#define LTR_OBJ_PATCHED 0x8u  /* its GLOB_DAT slots were patched */
#define LTR_OBJ_NONPIE 0x10u  /* the program, linked at a fixed address */
#define LTR_OBJ_HOOKS 0x20u   /* defines functions lib/unwind.c hooks */

/* A loaded object, registered in la_objopen. */
struct ltr_object {
	struct link_map *map;
	Lmid_t lmid;           /* its namespace */
	const char *path;      /* l_name, or the program's path */
	const char *soname;    /* DT_SONAME, or NULL */
	const char *short_name; /* "libc", "a.out", whole (common/select.c) */
	uint32_t name_off;     /* short_name in the session strings */
	uint32_t flags;        /* LTR_OBJ_* */
	uint32_t patch_passes; /* GOT patching passes that left slots unresolved */
	uintptr_t start, end;  /* the address range of its segments */
	uintptr_t bias;        /* load bias */
	uintptr_t relro_start, relro_end;
	const ElfW(Phdr) *phdr; /* its program headers (NULL: none found) */
	size_t phnum;
	struct ltr_object *next;
};

/* Register the object of map (la_objopen); returns it, or NULL. */
struct ltr_object *ltr_object_add(struct link_map *map, Lmid_t lmid);

/* Forget an object (la_objclose). */
void ltr_object_remove(struct ltr_object *obj);

/* The object whose segments contain addr, or NULL. */
struct ltr_object *ltr_object_at(uintptr_t addr);

/* Visit every registered object. */
void ltr_object_each(void (*fn)(struct ltr_object *obj));

/* The PT_LOAD program header of obj whose segment holds addr, or NULL. */
const ElfW(Phdr) *ltr_object_segment(const struct ltr_object *obj,
				     uintptr_t addr);

/* Is the program a non-PIE executable? */
bool ltr_object_main_nonpie(void);

/* The object of the program's own libc (base namespace), or NULL. */
struct ltr_object *ltr_object_libc(void);

/* The function name of the program's libc, or NULL. */
void *ltr_libc_function(const char *name);

/* The variable name of the program's libc (its copy in the program if any), or NULL. */
void *ltr_libc_data(const char *name);

/*
 * A loaded object's dynamic data (lib/dynamic.c), each table checked to lie
 * inside its PT_LOAD segments, or left out (NULL, size 0).
 */
struct ltr_dynamic {
	const ElfW(Sym) *syms; /* nsyms entries, counted from its hash table */
	size_t nsyms;
	const char *strtab;    /* strsz bytes, the last a NUL */
	size_t strsz;
	size_t soname;         /* DT_SONAME's offset in strtab, if have_soname */
	bool have_soname;
	bool textrel;          /* it has text relocations */
	ElfW(Rela) *rela;      /* DT_RELA: relasz bytes, entries of relaent */
	size_t relasz, relaent;
};

/* Read obj's dynamic section into t; false if it has no symbols and strings to look up. */
bool ltr_dynamic_read(const struct ltr_object *obj, struct ltr_dynamic *t);

/* The string at offset off of t's string table, or NULL past its end. */
const char *ltr_dynamic_str(const struct ltr_dynamic *t, size_t off);

/* Symbol i of t, or NULL past its end. */
const ElfW(Sym) *ltr_dynamic_sym(const struct ltr_dynamic *t, size_t i);

/*
 * The first symbol of obj named name: defined (a value, not SHN_UNDEF) and
 * of type type (STT_FUNC, STT_OBJECT), or undefined for LTR_SYM_UNDEF; NULL
 * if none.
 */
#define LTR_SYM_UNDEF (-1)
const ElfW(Sym) *ltr_dynamic_find(const struct ltr_object *obj,
				  const char *name, int type);

/* Do [addr, addr + size) lie inside one readable PT_LOAD segment of obj? */
bool ltr_object_holds(const struct ltr_object *obj, uintptr_t addr, size_t size);

/* ---- processes (process.c) --------------------------------------------- */

/*
 * Register this process in the session: at attach, while the loader is
 * still loading the program (loading), and after a followed fork.
 */
void ltr_process_register(bool loading);

/* The loader is done: the program's own code runs from now on. */
void ltr_process_started(void);

/* Ask the program's libc to tell us its exit status (on_exit). */
void ltr_process_watch_exit(void);

/* Record this process's exit status. */
void ltr_process_exiting(int status);

/* Is this the traced process that registered (not a vfork or unfollowed child)? */
bool ltr_process_is_self(void);

/* Is this a child that shares the registered process's memory (vfork, clone(CLONE_VM))? */
bool ltr_process_shares_memory(void);

/* Has this process (or this child sharing our memory) left the session for a credential change (lib/creds.c)? */
bool ltr_creds_left_here(void);

/*
 * An exec is about to run the program at path (relative to dirfd; "":
 * dirfd itself): false if the session must not be carried into it (the
 * loader would refuse or ignore the interposer).  Says once, on stderr,
 * when that program will run untraced (lib/exec-check.c).
 */
bool ltr_exec_carries_into(int dirfd, const char *path);

/*
 * The same for file found as execvp finds it in path (a PATH value; NULL:
 * libc's default), which is the program's PATH, not the exec's.
 */
bool ltr_exec_search_carries(const char *file, const char *path);

/* ---- selection (select.c, with common/select.c) ------------------------ */

/* Does any rule possibly select functions of obj?  Is obj a --from object? */
bool ltr_select_lib(const struct ltr_object *obj);
bool ltr_select_from(const struct ltr_object *obj);

/* Is the call from caller to function name in callee selected? */
bool ltr_select_call(const struct ltr_object *caller,
		     const struct ltr_object *callee, const char *name);

/* The last rule selecting name in callee (its depth limit, its flags), or NULL. */
const struct ltr_rule *ltr_select_rule(const struct ltr_object *callee,
				       const char *name);

/* ---- binding (bind.c) -------------------------------------------------- */

/*
 * Where a binding from ref of function name, at addr in def, must lead: a
 * hook, the stub of a selected call, or addr itself.  The one decision of
 * la_symbind64 and of GOT patching.
 */
uintptr_t ltr_bind(const struct ltr_object *ref, const struct ltr_object *def,
		   const char *name, uintptr_t addr);

/* ---- stubs (stubs.c) --------------------------------------------------- */

/* Where stub i leads, in this process. */
struct ltr_target {
	uint64_t addr;      /* the real function */
	uint32_t fn;        /* its entry in the session's funcs[] */
	uint16_t flags;     /* LTR_FN_* */
	uint16_t forgotten; /* its object was unloaded: not for new bindings */
	uint32_t depth;     /* shown at most this deep (its rule's depth); 0 = any */
	uint32_t name_hash; /* ltr_name_hash of the name it was bound by */
	uint32_t hpos;      /* its entry in the stubs' hash index */
	const struct ltr_capture *cap; /* what to copy at a call; NULL: nothing */
};

extern struct ltr_target ltr_targets[LTR_NSTUBS];

/* The stub index of a stub address. */
uint32_t ltr_stub_index(uintptr_t stub);

/* In a forked child: release the locks the parent's other threads held. */
void ltr_stubs_after_fork(void);

/* The stub for target addr (name in obj); registers it; 0 if none is left. */
uintptr_t ltr_stub_for(uintptr_t addr, const char *name,
		       const struct ltr_object *obj);

/* Forget the targets in [start, end) for new bindings: their object was unloaded. */
void ltr_stubs_forget(uintptr_t start, uintptr_t end);

/* Is addr one of our stubs? */
bool ltr_is_stub(uintptr_t addr);

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

/*
 * If name is a function the interposer must see whatever the selection,
 * note its real address and return the hook to bind instead; else 0.
 * A selected one is also reported, on entry.  In a forked child that is
 * not traced (forked), only the credential hooks are bound.
 */
uintptr_t ltr_hook_for(const char *name, uintptr_t real, bool selected,
		       const struct ltr_object *def, bool forked);

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

/* ---- pid namespaces (pidns.c) ----------------------------------------- */

/* This process's namespace of kind ("pid", "user"): its inode number, 0 if unknown. */
uint32_t ltr_ns_inode(const char *kind);

/* This process's pid namespace (an inode number), 0 if unknown. */
uint32_t ltr_pidns_self(void);

/* The same, for this process whose getpid() is pid (known already). */
uint32_t ltr_pidns_of(int32_t pid);

/*
 * The calling thread's pid and tid as ltruss sees them, from local_pid and
 * local_tid, its getpid() and gettid().
 */
void ltr_pidns_view(int32_t local_pid, int32_t local_tid, int32_t *pid,
		    int32_t *tid);

/* ---- seccomp (seccomp.c) ---------------------------------------------- */

/* Set once the program entered seccomp: our system calls are checked. */
extern bool ltr_seccomp;

/* May system call nr (one of the hot path's own) be made under seccomp? */
bool ltr_sys_ok_slow(long nr);

/* May the interposer make system call nr now, without being killed? */
static inline bool ltr_sys_ok(long nr)
{
	return likely(!__atomic_load_n(&ltr_seccomp, __ATOMIC_RELAXED)) ||
	       ltr_sys_ok_slow(nr);
}

/*
 * After system call nr (a, b, c) returned r: note an entry into seccomp.
 * t0 is the time-stamp counter read before the call.
 */
void ltr_seccomp_syscall(long nr, long a, long b, long c, long r, uint64_t t0);

/* Set once the time-stamp counter faults (strict seccomp): ltr_now() counts. */
extern bool ltr_no_tsc;

/* A made-up timestamp, one tick after the last, for when rdtsc faults. */
uint64_t ltr_fake_tsc(void);

/* The timestamp of an event: the time-stamp counter, where it may be read. */
static inline uint64_t ltr_now(void)
{
	if (unlikely(__atomic_load_n(&ltr_no_tsc, __ATOMIC_RELAXED)))
		return ltr_fake_tsc();
	return ltr_rdtsc();
}

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

/* ---- GLOB_DAT patching (got-patch.c) ----------------------------------- */

/*
 * Point the GLOB_DAT slots and data pointers of obj where ltr_bind says
 * (hooks, stubs of selected functions).
 * at_start: the loader has relocated everything (la_preinit).  Returns
 * false while obj is not relocated yet, so that a later pass retries it.
 */
bool ltr_got_patch(struct ltr_object *obj, bool at_start);

/* Before obj is relocated: have its GLOB_DAT slots offered to la_symbind64. */
void ltr_got_prebind(struct ltr_object *obj);

/* In a forked child: release the patching lock another thread held. */
void ltr_patch_after_fork(void);

/* ---- threads (thread.c) ------------------------------------------------- */

#define LTR_SHADOW_MAX 1024 /* deepest traced nesting per thread */

/* Frame flags. */
#define LTR_FR_RESTORED 0x2u /* real return address put back (unwinding) */
#define LTR_FR_HIDDEN 0x4u   /* deeper than -D: not printed */
#define LTR_FR_INHERITED 0x8u /* made before a fork (-f): counted by the parent */

/* One traced call in progress, on the thread's shadow stack. */
struct ltr_frame {
	uint64_t *slot;    /* where its return address lives on the stack */
	uint64_t ret;      /* the real return address */
	uint64_t t0;       /* entry timestamp (TSC) */
	uint64_t child;    /* ticks spent in traced callees */
	uint32_t fn;       /* index in the session's funcs[] */
	uint32_t flags;    /* LTR_FR_* */
	uint32_t rec;      /* its entry of the thread's rets[] (rets.c) */
	const struct ltr_capture *cap; /* its prototype's captures, or NULL */
	uint64_t out_addr[LTR_MAX_OUT]; /* output arguments, copied on return */
	uint64_t out_len[LTR_MAX_OUT];
};

#define LTR_JMPS 8 /* setjmp buffers remembered per thread */
/* LTR_RETS (Makefile.am): hijacked returns kept per thread (rets.c). */
#define LTR_AGAIN_JMP 0x1u   /* a longjmp was made to a shown setjmp's buffer */
#define LTR_AGAIN_VFORK 0x2u /* a shown vfork's child runs, or has left */

/* A shown setjmp-family call, seen on entry (lib/returns.c). */
struct ltr_jmp {
	uint64_t env;      /* its jmp_buf; 0: unused */
	uint64_t t0;       /* its entry timestamp */
	uint32_t fn;       /* index in the session's funcs[] */
	uint32_t depth;    /* its nesting level */
};

/*
 * A hijacked return (rets.c): the slot holds the trampoline entry of this
 * record, which keeps the real return address.
 */
struct ltr_ret {
	uint64_t *slot;    /* where the entry was written; NULL: free */
	uint64_t ret;      /* the real return address */
	uint32_t away;     /* its frame was dropped: it may come back */
	/* Of a dropped frame, to count its call if it returns after all: */
	uint32_t fn;
	uint64_t t0;
	const struct ltr_capture *cap;
};

/* The per-thread state, in memory mapped for the thread. */

#define LTR_SCRATCH_SIZE 8192 /* the exec hooks' lists and paths (scratch.c) */

/* Code objects described in a thread's ring (pyframes.c): a cache, forgotten every LTR_PY_FORGET calls. */
#define LTR_PY_SEEN 256
#define LTR_PY_FORGET 65536
/* Tcl interpreters a thread made that -k walks (tclframes.c): its newest. */
#define LTR_TCL_INTERPS 4
/* ByteCodes described in a thread's ring (tclframes.c): a cache. */
#define LTR_TCL_SEEN 64

struct ltr_tstate {
	int32_t tid;
	int32_t pid;
	uintptr_t busy;      /* 0, or the frame of the interposer running (capture.c) */
	unsigned copying;    /* a fast copy of the program's memory runs (fault-copy.c) */
	uint32_t depth;      /* frames in use */
	uint32_t max_depth;  /* LTR_SHADOW_MAX; 0 under a CET shadow stack */
	uint32_t shares_tls; /* threads made by clone() share its TLS (thread.c) */
	uintptr_t tp;        /* its thread pointer: glibc's pthread_t */
	struct ltr_thread *slot; /* counters and ring in the session */
	unsigned char *ring;     /* the bytes of slot's ring */
	uint32_t shared_slot;    /* past LTR_MAX_THREADS: counts only, atomically */
	uint32_t flag_mask;      /* LTR_F_* this thread may use */
	struct ltr_tstate *next; /* all thread states, for reuse and flushing */
	/* Second returns to report (lib/returns.c). */
	uint32_t again;          /* LTR_AGAIN_*: one is pending */
	uint32_t jmp_next;       /* the entry of jmps[] to reuse next */
	uint32_t jmp_pending;    /* a longjmp returns jmps[jmp_pending] again */
	int32_t vfork_child;     /* the pid a shown vfork returns in the parent */
	int32_t vfork_guest;     /* the vfork child writing this ring now (getpid's) */
	int32_t vfork_shown;     /* the vfork child whose own return was shown */
	uint32_t vfork_hidden;   /* the vfork call was not shown: nor its returns */
	uint32_t guest_mask;     /* flag_mask, kept while a child untraced runs */
	uint32_t guest_depth;    /* frames from here on are the child's */
	uint64_t jmp_value;      /* with this value */
	uint64_t jmp_tsc;        /* at this time */
	uint64_t vfork_tsc;      /* when the vfork child left */
	struct ltr_jmp jmps[LTR_JMPS]; /* shown setjmps, for their second return */
	struct ltr_jmp vfork;    /* the shown vfork whose child runs */
	uint32_t nfree;          /* entries of free_rets[] in use */
	uint32_t fresh;          /* rets[] from here on were never taken */
	uint32_t dropped;        /* frames dropped since the last reclaim */
	uint32_t reclaim_at;     /* ... when the next reclaim may be made */
	uint16_t free_rets[LTR_RETS];  /* the free entries of rets[] */
	struct ltr_ret rets[LTR_RETS]; /* hijacked returns (rets.c) */
	struct ltr_frame frames[LTR_SHADOW_MAX];
	int32_t scratch_pid;     /* the process using scratch[], 0 if free (scratch.c) */
	unsigned char scratch[LTR_SCRATCH_SIZE];
	uintptr_t py_seen[LTR_PY_SEEN]; /* -k: code objects described */
	uint32_t py_calls;              /* -k: walks since... (pyframes.c) */
	uintptr_t tcl_interps[LTR_TCL_INTERPS]; /* -k: Tcl interpreters it made, newest last */
	uint32_t tcl_ninterps;                  /* -k: how many it made */
	uintptr_t tcl_seen[LTR_TCL_SEEN][2];    /* -k: ByteCodes described, and their source */
};

extern __thread struct ltr_tstate *ltr_tls_self
	__attribute__((tls_model("initial-exec")));
extern volatile uint64_t *ltr_fork_guard;

/* Memory for a hook's big buffer, off the program's stack (scratch.c). */
struct ltr_scratch {
	void *p;       /* size bytes, or NULL if none could be had */
	size_t mapped; /* bytes mapped for it; 0: the thread's scratch[] */
};

/* Take size bytes for the calling thread into sc; sc->p is NULL if there are none. */
void *ltr_scratch_take(struct ltr_scratch *sc, size_t size);

/* Give back what ltr_scratch_take took; errno is untouched. */
void ltr_scratch_give(struct ltr_scratch *sc);

/* Map the fork guard page (at attach, before anything can fork). */
void ltr_fork_guard_init(void);

/* The states of all threads the process has had, linked by next. */
struct ltr_tstate *ltr_threads(void);

/* Create the calling thread's state (first traced call); NULL if that failed. */
struct ltr_tstate *ltr_thread_create(void);

/* Is sp on the stack of a thread that shares its creator's TLS? */
bool ltr_shared_tls_at(uintptr_t sp);

/*
 * A thread is about to be made by clone() without CLONE_SETTLS, on the
 * stack whose top is top, by a thread whose stack pointer is creator_sp:
 * register its stack, so that it runs untraced (and say so, once).
 */
void ltr_shared_tls_add(uintptr_t top, uintptr_t creator_sp);

/*
 * The calling thread's state, created on first use; NULL if that failed
 * or if the thread shares another's TLS (it is not traced).
 */
static inline struct ltr_tstate *ltr_thread_self(void)
{
	struct ltr_tstate *ts = ltr_tls_self;

	if (unlikely(!ts))
		return ltr_thread_create();
	if (unlikely(__atomic_load_n(&ts->shares_tls, __ATOMIC_ACQUIRE))) {
		char here;

		if (ltr_shared_tls_at((uintptr_t)&here))
			return NULL;
	}
	return ts;
}

/*
 * A fork was noticed (the guard page reads 0 in the child): with -f the
 * child becomes a traced process of its own and this returns false;
 * without, it stays untraced and this returns true.
 */
bool ltr_fork_noticed(void);

/* Is this process a forked child that must not be traced? */
static inline bool ltr_forked(void)
{
	return ltr_fork_guard && *ltr_fork_guard == 0 && ltr_fork_noticed();
}

/* ---- second returns (returns.c) ---------------------------------------- */

void ltr_hook_longjmp(void *env, int val);
void ltr_hook__longjmp(void *env, int val);
void ltr_hook_siglongjmp(void *env, int val);
void ltr_hook_longjmp_chk(void *env, int val);

/* A shown call of setjmp-family fn: remember its buffer env. */
void ltr_setjmp_seen(struct ltr_tstate *ts, uint32_t fn, uint64_t env);

/*
 * A call of vfork fn, shown or not: its child runs in ts until it execs or
 * exits; if shown, its returns in both are to be reported.
 */
void ltr_vfork_seen(struct ltr_tstate *ts, uint32_t fn, bool shown);

/*
 * In a vfork child about to exec or exit (why: LTR_END_EXEC or
 * LTR_END_EXITED): the parent resumes, with our pid.
 */
void ltr_vfork_child_leaving(enum ltr_end why);

/*
 * In a hook a vfork child leaves by (exec, _exit), before it reports the
 * call: a child of a vfork that was not traced writes its own events from
 * here on (with -f; none without), not its parent's.
 */
void ltr_vfork_child_check(void);

/* Forget the second returns of the thread that had ts (a new thread reuses it). */
void ltr_returns_forget(struct ltr_tstate *ts);

/*
 * A second return is pending on this thread (ts->again): report it once
 * the thread is back at the level of the call that returns again (a
 * longjmp's skipped frames are dropped, a vfork's parent runs again).
 */
void ltr_returns_again(struct ltr_tstate *ts);

/* ---- capture (capture.c) ----------------------------------------------- */

/* Where ltr_entry_common goes on (in %rax and %rdx). */
struct ltr_entry_to {
	uint64_t fn;   /* the function */
	uint64_t jump; /* the function, or ltr_tramp_call_of() a hijacked call */
};

/* Called by ltr_entry_common for stub index stub: record an entry; says where to go. */
struct ltr_entry_to ltr_on_entry(struct ltr_regs *regs, uint32_t stub);

/*
 * A longjmp from sp to target, above it on the same stack: drop the frames
 * of ts it skips (the innermost ones whose slots lie in between).
 */
void ltr_frames_jumped(struct ltr_tstate *ts, uintptr_t sp, uintptr_t target);

/* ---- hijacked returns (rets.c) ----------------------------------------- */

/* Free every entry of ts's rets[] (a new thread, or one reusing ts). */
void ltr_rets_forget(struct ltr_tstate *ts);

/* ts has no free entry in rets[]: try to free some; false if none (said once). */
bool ltr_rets_refill(struct ltr_tstate *ts);

/*
 * Take a free entry of ts's rets[] for the return through slot to ret;
 * -1 if none is free, even after a reclaim.
 */
static inline int32_t ltr_ret_take(struct ltr_tstate *ts, uint64_t *slot,
				   uint64_t ret)
{
	struct ltr_ret *r;
	uint32_t k;

	/* Freed ones first: a thread touches as few entries as it nests. */
	if (likely(ts->nfree))
		k = ts->free_rets[--ts->nfree];
	else if (ts->fresh < LTR_RETS)
		k = ts->fresh++;
	else if (ltr_rets_refill(ts))
		k = ts->free_rets[--ts->nfree];
	else
		return -1;
	r = &ts->rets[k];
	r->slot = slot;
	r->ret = ret;
	r->away = 0;
	return (int32_t)k;
}

/* Entry k of ts's rets[] is free again: its return passed, or cannot come. */
static inline void ltr_ret_give(struct ltr_tstate *ts, uint32_t k)
{
	ts->rets[k].slot = NULL;
	ts->free_rets[ts->nfree++] = (uint16_t)k;
}

/*
 * A return through slot by entry k that ts's rets[] does not hold: the
 * stack came from another thread.  Its real return address, or 0.
 */
uint64_t ltr_ret_elsewhere(const struct ltr_tstate *ts, uint32_t k,
			   const uint64_t *slot);

/* Called by the return trampoline: record an exit; returns the real return address. */
uint64_t ltr_on_exit(struct ltr_retregs *regs, uint64_t *slot);

/*
 * Report a call of target f seen only on entry (a hooked function): trace
 * line with what its prototype copies from the integer arguments in
 * regs (hooks have no others), count.
 */
void ltr_note_entry(const struct ltr_target *f, const struct ltr_regs *regs);

/* Report and drop every frame of the calling thread (it is ending). */
void ltr_frames_end_thread(enum ltr_end why);

/* Drop the frames of sp's stack that can no longer return: slots below sp (at sp too if at_sp). */
void ltr_frames_drop_dead(struct ltr_tstate *ts, uintptr_t sp, bool at_sp);

/* ---- trace events (events.c) ------------------------------------------ */

/*
 * A call of frame fr starts (regs as it was entered) at TSC tsc; returns
 * the time stamped, later than tsc when arguments had to be copied.
 */
uint64_t ltr_event_enter(struct ltr_tstate *ts, const struct ltr_frame *fr,
		     const struct ltr_regs *regs, uint64_t tsc);

/* A call seen on entry only (its return is not hijacked); cap may be NULL. */
void ltr_event_call(struct ltr_tstate *ts, uint32_t fn,
		    const struct ltr_capture *cap, const struct ltr_regs *regs,
		    uint64_t tsc);

/* The call of frame fr returns with regs; err: it failed with errno errnum; flags: LTR_EVF_KEEP_ABOVE or 0. */
void ltr_event_exit(struct ltr_tstate *ts, const struct ltr_frame *fr,
		    const struct ltr_retregs *regs, uint64_t tsc, bool err,
		    int errnum, uint8_t flags);

/*
 * A forked child's calls in progress, inherited from its parent: their
 * entries (times of the parent's), so that their returns in the child
 * show real durations.
 */
void ltr_event_inherited(struct ltr_tstate *ts);

/* fn, entered at t0 at depth and shown on entry, returns (again) rax at tsc. */
void ltr_event_returns_again(struct ltr_tstate *ts, uint32_t fn,
			     uint32_t depth, uint64_t t0, uint64_t rax,
			     uint64_t tsc);

/* The thread's slot, reused, belongs to this thread from now on. */
void ltr_event_thread(struct ltr_tstate *ts);

/*
 * A GUEST event: the ring's events are vfork child pid's (as ltruss sees
 * it) from here on; pid 0: the owner's again, the child's calls in
 * progress ended for why.
 */
void ltr_event_guest(struct ltr_tstate *ts, int32_t pid, enum ltr_end why);

/* An UNTRACED event: the process leaves the session before function name changes its credentials. */
void ltr_event_untraced(struct ltr_tstate *ts, const char *name);

/* The call of frame fr ends without returning: why, an LTR_END_*, | LTR_EVF_KEEP_ABOVE. */
void ltr_event_unwound(struct ltr_tstate *ts, const struct ltr_frame *fr,
		       uint8_t why);

/* ---- arguments (args.c, safe-read.c, fault-copy.c) -------------------- */

/* Install the SIGSEGV/SIGBUS handler of the fast copy, when it is safe to. */
void ltr_fault_copy_init(void);

/*
 * Turn the fast copy off for good, once no copy is in flight; when sig is
 * SIGSEGV or SIGBUS, also give the program back its action for it.
 */
void ltr_fault_copy_off(int sig);

/*
 * Copy up to len bytes at src into dst with plain loads, stopping after a
 * NUL if stop_at_nul; *got is the bytes copied, short if a load faulted.
 * Returns false, copying nothing, when the fast copy is off.
 */
bool ltr_fault_copy(void *dst, uintptr_t src, size_t len, bool stop_at_nul,
		    size_t *got);

/* Copy len bytes at src into dst without faulting; returns the bytes copied. */
size_t ltr_read_mem(int pid, void *dst, uintptr_t src, size_t len);

/*
 * A series of fast copies under one mark (fault-copy.c): begin says
 * whether the fast copy may be used (else use ltr_read_mem); each read
 * copies up to len bytes and returns how many (short at a fault); end
 * closes a series begun.
 */
/*
 * After the program's sigaction(sig, NULL, old): while our handler holds
 * sig (SIGSEGV, SIGBUS), make *old the program's own action, as the
 * kernel would have said without us.
 */
struct sigaction;
void ltr_fault_copy_query(int sig, struct sigaction *old);

bool ltr_fault_series_begin(void);
size_t ltr_fault_series_read(void *dst, uintptr_t src, size_t len);
void ltr_fault_series_end(void);

/*
 * Loads that may fault, inlined where they are used (walk-read.h): each
 * such load names, in the section ltr_fixups, where the walk resumes if
 * it faults; fault-copy.c's handler looks the faulting %rip up there, as
 * the kernel's exception tables do.  Offsets from the entry itself, so
 * that the table needs no relocation.
 */
struct ltr_fixup {
	int32_t load;   /* the load, from &load */
	int32_t resume; /* where to resume, from &resume */
};

/* One entry of ltr_fixups: the load at label ld resumes at label re. */
#define LTR_FIXUP(ld, re)                                                   \
	".pushsection ltr_fixups,\"a\"\n.balign 4\n.long " ld " - .\n"          \
	".long " re " - .\n.popsection\n"

/* Read the aligned word at src without faulting: 0, or -errno (-EFAULT: unmapped). */
long ltr_read_word(int pid, uintptr_t src, uint64_t *v);

/*
 * Copy the C string at src into dst (max + 1 bytes): returns its length,
 * at most max (then *cut), or -1 if src cannot be read at all.
 */
long ltr_read_string(int pid, char *dst, uintptr_t src, size_t max,
		     bool *cut);

/* Bytes of blobs an entry of a function with captures cap may need. */
size_t ltr_args_entry_max(const struct ltr_capture *cap);

/* Write the entry blobs of a call (regs as entered) into dst; returns bytes. */
size_t ltr_args_entry(void *dst, size_t room, int pid,
		      const struct ltr_capture *cap, const struct ltr_regs *regs);

/* Remember in fr where the call's output arguments are, for its return. */
void ltr_args_keep(struct ltr_frame *fr, const struct ltr_capture *cap,
		   const struct ltr_regs *regs);

/* Bytes of blobs the return of a function with captures cap may need. */
size_t ltr_args_exit_max(const struct ltr_capture *cap);

/* Write the return blobs of fr's call into dst (x87: %st0, or NULL); returns bytes. */
size_t ltr_args_exit(void *dst, size_t room, int pid,
		     const struct ltr_frame *fr, uint64_t rax, const void *x87);

/* The calling thread's errno in the program (its libc's), or 0. */
int ltr_program_errno(void);

/* Find the program's __errno_location (at attach). */
void ltr_errno_init(void);

/* ---- call stacks, -k (stack-copy.c) ------------------------------------- */

/* Bytes of the stack copied per call; 0 without -k. */
extern uint32_t ltr_stack_size;

/* Read the session's stack size; note where the main thread's stack ends (at attach). */
void ltr_stack_init(void);

/* Bytes of the CALLSTACK blob an entry may need (0 without -k). */
size_t ltr_stack_blob_max(void);

/*
 * Write the CALLSTACK blob of a call entered with regs (ret: its real
 * return address) by thread ts into dst, at most room bytes; returns its
 * size, 0 when there is none (no -k, no room, a hook's call).
 */
size_t ltr_stack_copy(void *dst, size_t room, const struct ltr_tstate *ts,
		      const struct ltr_regs *regs, uint64_t ret);

/* ---- Python frames, -k (pyframes.c) ----------------------------------- */

/*
 * Set (to anything) in the traced program's environment: -k without
 * Python and Tcl frames, the baseline against which bench/run measures
 * what they cost.  For the bench only: the program sees it too.
 */
#define LTR_ENV_BENCH_NO_FRAMES "LTRUSS_BENCH_NO_FRAMES"

/* At an object's load: is it CPython (its _PyRuntime, its Py_Version)? */
void ltr_py_object(const struct ltr_object *obj);

/* Bytes the PYFRAMES and PYCODE blobs of an entry may take (0: no Python). */
size_t ltr_py_blob_max(void);

/*
 * Write the PYFRAMES blob of thread ts's Python frames into dst, then a
 * PYCODE blob for each code object its ring has not described, at most
 * room bytes; returns their size, 0 when there is none.
 */
size_t ltr_py_frames(void *dst, size_t room, struct ltr_tstate *ts);

/* Forget the code objects ts's ring described (a new process or thread). */
void ltr_py_forget(struct ltr_tstate *ts);

/* ---- Tcl frames, -k (tclframes.c) -------------------------------------- */

/* Is obj Tcl 8.6's library, whose Tcl_CreateInterp -k hooks? */
bool ltr_tcl_object(const struct ltr_object *obj);

/* Bytes the TCLFRAMES blob of an entry may take (0: no interpreter yet). */
size_t ltr_tcl_blob_max(void);

/*
 * Write the TCLFRAMES blob of the procs thread ts's interpreters run into
 * dst, at most room bytes; returns its size, 0 when there is none.
 */
size_t ltr_tcl_frames(void *dst, size_t room, struct ltr_tstate *ts);

/* Forget the ByteCodes ts's ring described, and with interps the interpreters it made. */
void ltr_tcl_forget(struct ltr_tstate *ts, bool interps);

/* ---- mappings (maps.c) ------------------------------------------------ */

/* One line of /proc/self/maps: [lo, hi), its permissions, a device's? */
struct ltr_mapping {
	uintptr_t lo, hi;
	bool readable, writable, private, device;
};

/*
 * Call fn for each mapping, in address order, until it returns false (raw
 * system calls only, reading into buf of size bytes, at least a line's);
 * false if the list could not be read whole.
 */
bool ltr_maps_walk(bool (*fn)(const struct ltr_mapping *m, void *arg),
		   void *arg, char *buf, size_t size);

/* Find the mapping that holds addr (raw system calls only); false if none. */
bool ltr_maps_find(uintptr_t addr, struct ltr_mapping *m);

/* ---- memory (mem.c) ---------------------------------------------------- */

size_t ltr_strlen(const char *s);

int ltr_strcmp(const char *a, const char *b);
int ltr_strncmp(const char *a, const char *b, size_t n);
void ltr_strlcpy(char *dst, const char *src, size_t size);
bool ltr_env_is(const char *s, const char *name);
/* Write v in decimal at buf (room for 11 bytes), NUL-terminated; its length. */
size_t ltr_utoa(char *buf, uint32_t v);

/* Trampolines (trampoline.S). */
extern const char ltr_stubs[], ltr_stubs_end[], ltr_tramp_blocks[];

#define LTR_TRAMP_SIZE 16 /* bytes of each return trampoline's block */
#define LTR_TRAMP_CALL 5  /* its call that enters a hijacked function, first */

/* The trampoline entry that returns through rets[k]. */
static inline uint64_t ltr_tramp_of(uint32_t k)
{
	return (uint64_t)ltr_tramp_blocks + LTR_TRAMP_SIZE * k + LTR_TRAMP_CALL;
}

/* The call before trampoline k: it enters the function returning there. */
static inline uint64_t ltr_tramp_call_of(uint32_t k)
{
	return ltr_tramp_of(k) - LTR_TRAMP_CALL;
}

/* Is v a trampoline entry, a hijacked return address? */
static inline bool ltr_is_tramp(uint64_t v)
{
	uint64_t off = v - ltr_tramp_of(0);

	return off < LTR_TRAMP_SIZE * LTR_RETS && !(off % LTR_TRAMP_SIZE);
}

/* The entry of rets[] that trampoline entry v (ltr_is_tramp) returns through. */
static inline uint32_t ltr_tramp_index(uint64_t v)
{
	return (uint32_t)((v - ltr_tramp_of(0)) / LTR_TRAMP_SIZE);
}

#endif
