/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process.h: processes and threads: start, fork, exit, pid namespaces, each
 * thread's state (its traced frames, setjmp buffers, returns), second returns.
 * (lib/interposer.h says what every internal declaration shares.)
 */
#ifndef LTR_LIB_PROCESS_H
#define LTR_LIB_PROCESS_H

#include "interposer.h"

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
#define LTR_HINTS_SEEN 32 /* -k: frames whose stack hint a thread keeps (stack-hints.c) */
#define LTR_PY_FORGET 65536
/* Tcl interpreters a thread made that -k walks (tclframes.c): its newest. */
#define LTR_TCL_INTERPS 4
/* ByteCodes described in a thread's ring (tclframes.c): a cache. */
#define LTR_TCL_SEEN 64

/* A Python frame as -k's walk read it (pyframes.c): where, and what its record is made of. */
struct ltr_py_walked {
	uint64_t frame;  /* its _PyInterpreterFrame */
	uint64_t code;   /* its code object */
	uint64_t instr;  /* its last instruction */
	uint64_t flag;   /* its is_entry (3.11) or owner (3.12) byte */
	uint64_t cframe; /* the _PyCFrame running it */
};

/* -k: the stack hint a thread's last sparse copy used at a frame. */
struct ltr_hint_seen {
	uint64_t pc;  /* the frame's return address; 0: none */
	uint64_t how; /* hint_of()'s answer for it */
};

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
	uint64_t tail_seen;      /* slot's ring tail as last read (events.c) */
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
	uint32_t hints_gen;             /* -k: hints_seen[] are of this generation (stack-hints.c) */
	struct ltr_hint_seen hints_seen[LTR_HINTS_SEEN]; /* -k: by frame, innermost first */
	uintptr_t py_seen[LTR_PY_SEEN]; /* -k: code objects described */
	uint32_t py_calls;              /* -k: walks since... (pyframes.c) */
	uint32_t py_seq;                /* -k: the number of its last PYFRAMES blob */
	uint32_t py_nchain;             /* -k: frames in py_chain[]; 0: reuse none */
	struct ltr_py_walked py_chain[LTR_PY_FRAMES_MAX]; /* -k: the frames last sent, outermost first */
	struct ltr_py_walked py_walk[LTR_PY_FRAMES_MAX];  /* -k: a walk's frames, innermost first */
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

/* Has this process forked, unnoticed yet (ltr_forked() must look)? */
static inline bool ltr_fork_pending(void)
{
	return ltr_fork_guard && *ltr_fork_guard == 0;
}

/* Is this process a forked child that must not be traced? */
static inline bool ltr_forked(void)
{
	return ltr_fork_pending() && ltr_fork_noticed();
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

#endif
