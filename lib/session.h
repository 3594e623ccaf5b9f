/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h: the contract between ltruss (bin/) and libltruss.so (lib/).
 *
 * ltruss creates one shared-memory session per run (a memfd, mode 0600),
 * fills in the header and the compiled selection, and passes the file
 * descriptor to the traced program in LTRUSS_SESSION.  The interposer maps
 * it, registers every function it redirects in the function table, and keeps
 * per-thread counters in the thread slots.  ltruss reads the counters after
 * the program ends (also when it was killed: the memory is ltruss's too).
 *
 * Every field is fixed-size and position-independent (offsets, never
 * pointers), so both sides agree whatever their address layout.  Bump
 * LTR_SESSION_VERSION on any change.
 */
#ifndef LTRUSS_SESSION_H
#define LTRUSS_SESSION_H

#include <stdint.h>

#define LTR_SESSION_MAGIC 0x316e6f6973734c54ULL /* "TLssion1" */
#define LTR_SESSION_VERSION 2

#define LTR_ENV_SESSION "LTRUSS_SESSION" /* "FD:PID:INODE" of the session memfd */
#define LTR_ENV_SAVED_AUDIT "LTRUSS_SAVED_LD_AUDIT" /* user's own LD_AUDIT */

#define LTR_MAX_RULES 256      /* selection rules (-u items, filter rules) */
#define LTR_MAX_FROM 32        /* caller-object globs (--from) */
#define LTR_GLOB_MAX 128       /* longest glob, with its NUL */
#define LTR_MAX_FUNCS 16384    /* distinct traced targets = stubs in lib/ */
#define LTR_MAX_THREADS 512    /* thread slots; later threads share the last */
#define LTR_MAX_PROCS 4096     /* processes registered (-f) */
#define LTR_MAX_OBJECTS 16384  /* loaded objects recorded, all processes */
#define LTR_STRINGS_SIZE (4u << 20) /* names of objects and functions */

#define LTR_RING_SIZE (1u << 20) /* bytes of one thread's event ring */

/* Session flags: what the run wants. */
#define LTR_F_TRACE 0x1u  /* send trace events */
#define LTR_F_COUNT 0x2u  /* keep counters for the summary */
#define LTR_F_FOLLOW 0x4u /* -f: trace children and exec'd programs too */
#define LTR_F_DROP 0x8u   /* --drop: drop events when a ring is full */

/* Rule flags. */
#define LTR_RULE_EXCLUDE 0x1u /* a matching call is not traced */
#define LTR_RULE_INNER 0x2u   /* also calls LIB makes to itself ('::') */

/* One selection rule: calls into objects matching lib, to functions
 * matching func.  Rules are evaluated in order; the last match wins. */
struct ltr_rule {
	uint32_t flags;
	uint32_t reserved;
	char lib[LTR_GLOB_MAX];
	char func[LTR_GLOB_MAX];
};

/* Function flags, set by the interposer. */
#define LTR_FN_ENTRY_ONLY 0x1u /* never hijack the return (dlopen, vfork...) */
#define LTR_FN_READY 0x4u      /* the entry is filled in (set last) */

/*
 * One traced function of one process: what events and counters name.
 * (Which address it has is the process's own business: with -f, processes
 * load different things at the same addresses.)
 */
struct ltr_func {
	uint64_t reserved0;
	uint32_t name;     /* offset of the symbol name in strings[] */
	uint32_t lib;      /* offset of the library short name in strings[] */
	uint32_t flags;    /* LTR_FN_* */
	uint32_t reserved;
};

/* Counters of one function in one thread.  Times are in TSC ticks. */
struct ltr_count {
	uint64_t calls;
	uint64_t errors;
	uint64_t total; /* inclusive */
	uint64_t self;  /* without traced callees */
	uint64_t min;
	uint64_t max;
};

/*
 * Trace events.  A thread's ring holds variable-length records, 8-byte
 * aligned, that never wrap: a record that would cross the end is preceded
 * by a PAD record filling the rest.  head and tail count bytes since the
 * start; the producer publishes a record with a release store of head,
 * ltruss frees space with a release store of tail.
 */
enum ltr_event_type {
	LTR_EV_PAD = 1,   /* skip to the end of the ring */
	LTR_EV_ENTER,     /* a call starts: w[0..5] argument registers, w[6] return address */
	LTR_EV_EXIT,      /* it returns: w[0] %rax, w[1] %rdx, w[2] %xmm0 */
	LTR_EV_CALL,      /* a call seen on entry only: as ENTER, no EXIT follows */
	LTR_EV_UNWOUND,   /* a call ends without returning: flags = LTR_END_* */
	LTR_EV_THREAD,    /* from here on, the slot's events are thread w[0]'s */
};

/* Why a call ended without returning (LTR_EV_UNWOUND flags). */
enum ltr_end {
	LTR_END_UNWOUND = 1, /* longjmp, or an exception caught above */
	LTR_END_EXITED,      /* the process exited inside it */
	LTR_END_PTHREAD_EXIT,
	LTR_END_KILLED,      /* (ltruss only) the process was killed inside it */
	LTR_END_EXEC,        /* (ltruss only) the process exec'd inside it */
};

#define LTR_ENTER_WORDS 7
#define LTR_EXIT_WORDS 3

struct ltr_event {
	uint16_t size;  /* bytes, header included, a multiple of 8 */
	uint8_t type;   /* enum ltr_event_type */
	uint8_t flags;
	uint16_t depth; /* nesting level, 0 = outermost traced call */
	uint16_t reserved;
	uint32_t fn;    /* index in funcs[] */
	uint32_t reserved2;
	uint64_t ts;    /* TSC */
	uint64_t w[];
};

struct ltr_ring {
	uint64_t head;     /* written by the traced thread */
	uint64_t dropped;  /* events dropped (--drop) */
	char pad1[48];
	uint64_t tail;     /* written by ltruss */
	char pad2[56];
	unsigned char data[LTR_RING_SIZE];
};

/* One thread slot: written only by its thread (no atomics). */
struct ltr_thread {
	int32_t pid;
	int32_t tid;
	uint32_t used; /* set once the slot is taken */
	uint32_t reserved;
	struct ltr_ring ring;
	struct ltr_count counts[LTR_MAX_FUNCS];
};

/* Process states (struct ltr_process). */
#define LTR_PROC_RUNNING 1
#define LTR_PROC_EXITED 2 /* status is the exit status */
#define LTR_PROC_REAPED 3 /* status is the wait status its parent got */

/* A traced process, registered by itself; it writes its exit status too. */
struct ltr_process {
	int32_t pid;
	uint32_t state;  /* LTR_PROC_*; atomic */
	int32_t status;
	uint32_t reserved;
};

/* A loaded object of a traced process, for symbolizing call sites. */
struct ltr_objrec {
	int32_t pid;
	uint32_t path;  /* offset of its file's path in strings[] */
	uint64_t start; /* its segments' address range */
	uint64_t end;
	uint64_t bias;  /* load bias: address = bias + ELF virtual address */
};

/* The session header, at offset 0 of the mapping. */
struct ltr_session {
	uint64_t magic;
	uint32_t version;
	uint32_t header_size; /* sizeof(struct ltr_session) */
	uint64_t total_size;  /* size of the whole mapping */
	uint32_t owner_uid;   /* only this uid's interposer uses the session */
	uint32_t flags;       /* LTR_F_* */
	int32_t reader_pid;   /* ltruss, draining the rings */
	uint32_t depth_limit; /* -D; 0 = unlimited */
	uint32_t nrules;
	uint32_t nfrom;
	uint32_t strsize;     /* -s */
	uint32_t reserved;

	/* Written by the interposer. */
	uint32_t nfuncs;      /* atomic: entries of funcs[] in use */
	uint32_t nthreads;    /* atomic: thread slots taken */
	uint32_t strings_used; /* atomic: bytes of strings[] in use */
	uint32_t stubs_exhausted; /* atomic: targets left untraced, no stub */
	uint32_t objects_seen;
	uint32_t nprocs;      /* atomic: entries of procs[] in use */
	uint32_t nobjects;    /* atomic: entries of objects[] in use */
	uint32_t reserved3;

	struct ltr_rule rules[LTR_MAX_RULES];
	char from[LTR_MAX_FROM][LTR_GLOB_MAX];
	struct ltr_func funcs[LTR_MAX_FUNCS];
	char strings[LTR_STRINGS_SIZE];
	struct ltr_process procs[LTR_MAX_PROCS];
	struct ltr_objrec objects[LTR_MAX_OBJECTS];
	struct ltr_thread threads[LTR_MAX_THREADS];
};

#endif
