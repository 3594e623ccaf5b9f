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
 * LTR_SESSION_LAYOUT on any change.
 */
#ifndef LTRUSS_SESSION_H
#define LTRUSS_SESSION_H

#include <stdint.h>

#define LTR_SESSION_MAGIC 0x316e6f6973734c54ULL /* "TLssion1" */
/*
 * The magic while ltruss still fills the session, its command already
 * started (bin/ltruss.c): the command waits for LTR_SESSION_MAGIC
 * (lib/attach.c).  Their first words differ: the wait is a futex on it.
 */
#define LTR_SESSION_PENDING 0x316e6550734c5454ULL /* "TTLsPen1" */
/*
 * LTR_SESSION_RELAYOUT: the session as a later version might lay it out,
 * its version bumped and a field put before those of the tables a trace
 * file used to copy.  tests/compat.bats builds an ltruss so
 * (tests/progs/bin/ltruss-relayout) and reads the trace files of
 * tests/data/ with it: a file must not depend on the session's layout.
 */
#define LTR_SESSION_LAYOUT 26 /* bump on any change */
#ifdef LTR_SESSION_RELAYOUT
#define LTR_SESSION_VERSION (LTR_SESSION_LAYOUT + 1000)
#define LTR_RELAYOUT_FIELD uint64_t relayout;
#else
#define LTR_SESSION_VERSION LTR_SESSION_LAYOUT
#define LTR_RELAYOUT_FIELD
#endif

#define LTR_ENV_SESSION "LTRUSS_SESSION" /* "FD:PID:INODE" of the session memfd */
#define LTR_ENV_SAVED_AUDIT "LTRUSS_SAVED_LD_AUDIT" /* user's own LD_AUDIT */

#define LTR_MAX_RULES 256      /* selection rules (-u items, filter rules) */
#define LTR_MAX_FROM 32        /* caller-object globs (--from) */
#define LTR_GLOB_MAX 128       /* longest glob, with its NUL */
#define LTR_MAX_FUNCS 16384    /* distinct traced targets = stubs in lib/ */
#define LTR_MAX_TOGGLES 256    /* a console's enable/disable rules */
#define LTR_MAX_THREADS 512    /* thread slots; later threads share the last */
#define LTR_MAX_RETIRED 65536  /* counters kept of slots handed back (-f) */
#define LTR_MAX_PROCS 4096     /* processes registered (-f) */
#define LTR_MAX_OBJECTS 16384  /* object records at once: a ring (lib/objects.c) */
#define LTR_STRINGS_SIZE (8u << 20) /* names of objects, functions, prototypes */
#define LTR_MAX_CAPTURES 16384 /* functions with a prototype */
#define LTR_CAPTURE_HASH 32768 /* buckets of the prototype index, a power of two */
#define LTR_FUNC_HASH 32768    /* buckets of the function index, a power of two */
#define LTR_STRSIZE_MAX 4096   /* largest -s */
#define LTR_WHOLE_MAX 32768    /* -w --whole: bytes copied of a string or buffer */
#define LTR_STACK_SIZE_DEFAULT 8192 /* bytes of the stack copied per call (-k) */
#define LTR_STACK_SIZE_MAX 16384    /* and at most */

/* Bytes of one thread's event ring (--buffer): a power of two in this range. */
#define LTR_RING_SIZE_DEFAULT (1u << 20)
#define LTR_RING_SIZE_MIN (64u << 10)
#define LTR_RING_SIZE_MAX (256u << 20)

/* Session flags: what the run wants. */
#define LTR_F_TRACE 0x1u  /* send trace events */
#define LTR_F_COUNT 0x2u  /* keep counters for the summary */
#define LTR_F_FOLLOW 0x4u /* -f: trace children and exec'd programs too */
#define LTR_F_DROP 0x8u   /* --drop: drop events when a ring is full */

/* Control flags (the console changes them while the program runs). */
#define LTR_CTL_PAUSED 0x1u /* no trace events; counting goes on */

/* Rule flags. */
#define LTR_RULE_EXCLUDE 0x1u /* a matching call is not traced */
#define LTR_RULE_INNER 0x2u   /* also calls LIB makes to itself ('::') */
#define LTR_RULE_NOSTACK 0x4u /* -k: no stack copy for these calls (--heap's frees) */

/* One selection rule: calls into objects matching lib, to functions
 * matching func.  Rules are evaluated in order; the last match wins. */
struct ltr_rule {
	uint32_t flags;
	uint32_t depth; /* shown at most this deep (like -D); 0 = no limit */
	char lib[LTR_GLOB_MAX];
	char func[LTR_GLOB_MAX];
};

/* Function flags, set by the interposer. */
#define LTR_FN_ENTRY_ONLY 0x1u /* never hijack the return (dlopen, vfork...) */
#define LTR_FN_READY 0x4u      /* the entry is filled in (set last) */
#define LTR_FN_DISABLED 0x8u   /* (console) not shown: counted, no events */
#define LTR_FN_SETJMP 0x10u    /* the setjmp family: a longjmp returns it again */
#define LTR_FN_VFORK 0x20u     /* vfork: returns in the child, then the parent */
#define LTR_FN_NOSTACK 0x40u   /* its rule says LTR_RULE_NOSTACK */
#define LTR_FN_PATCHED 0x80u   /* (the interposer's targets) reached by entry patching */

/*
 * One traced function of one process: what events and counters name.
 * (Which address it has is the process's own business: with -f, processes
 * load different things at the same addresses.)
 */
struct ltr_func {
	LTR_RELAYOUT_FIELD
	int32_t capture;   /* index in captures[], or -1: no prototype */
	uint32_t depth;    /* from the rule that selected it; 0 = no limit */
	uint32_t name;     /* offset of the symbol name in strings[] */
	uint32_t lib;      /* offset of the library short name in strings[] */
	uint32_t flags;    /* LTR_FN_* */
	uint32_t reserved;
};

/* A console's "enable GLOB" or "disable GLOB", in the order given. */
struct ltr_toggle {
	char glob[LTR_GLOB_MAX];
	uint32_t disable;
};

/*
 * What the interposer copies at a call of a function with a prototype, so
 * that ltruss can print its arguments: the memory they point to may change
 * or vanish as soon as the call returns.  ltruss compiles each prototype
 * into one of these; the interposer looks it up by name when it binds.
 * Argument numbers count the integer registers (rdi = 0 ... r9 = 5) and go
 * on with the stack words (6, 7...).
 */
#define LTR_CAP_XMM 0x1u    /* float arguments: copy %xmm0-7 on entry */
#define LTR_CAP_PRINTF 0x2u /* varargs described by the format argument */
#define LTR_CAP_X87 0x4u    /* returns long double in %st0 */
#define LTR_CAP_IN 0x8u     /* an [in:argN] buffer: copy it on entry */
#define LTR_CAP_IN_LEN32 0x10u /* its length is a 32-bit integer */
#define LTR_CAP_STRUCT 0x20u /* a [struct:...]: copy it, and its in buffers */
#define LTR_CAP_RET_XMM 0x40u /* returns a float or double in %xmm0 */

#define LTR_STRUCT_IN 2    /* in buffers of a [struct:...] copied */
#define LTR_STRUCT_BUF 0x80 /* STRING blob index of its in buffer k: this + k */

/* Error conventions: when a return counts as an error (and errno is read). */
enum ltr_err {
	LTR_ERR_NONE = 0,
	LTR_ERR_MINUS1_32, /* (int)ret == -1, errno says why */
	LTR_ERR_MINUS1_64, /* (long)ret == -1 (ssize_t, off_t, MAP_FAILED) */
	LTR_ERR_NULL,      /* ret == NULL, errno says why */
	LTR_ERR_ERRNUM,    /* ret != 0 is itself the error number (pthread) */
	LTR_ERR_NEG32,     /* (int)ret < 0, errno says why */
};

/* How an output argument's memory is copied on return. */
enum ltr_out {
	LTR_OUT_NONE = 0,
	LTR_OUT_FIXED,  /* size bytes (the pointee of "[out] int *") */
	LTR_OUT_RET,    /* as many bytes as the call returned ("[out:ret]") */
	LTR_OUT_ARG,    /* as many bytes as argument len_arg says ("[out:argN]") */
	LTR_OUT_STRING, /* a NUL-terminated string ("[out] char *") */
};

#define LTR_MAX_OUT 2 /* output arguments copied per call */
#define LTR_ARG_RET 0xff /* as an output "argument": the returned pointer */

struct ltr_capture {
	uint32_t name;    /* offset of the function name in strings[] */
	uint32_t flags;   /* LTR_CAP_* */
	uint8_t strings;  /* bit n: argument n is a C string, copied on entry */
	uint8_t format;   /* LTR_CAP_PRINTF: argument number of the format */
	uint8_t err;      /* enum ltr_err */
	uint8_t nstack;   /* stack words to copy on entry (arguments 6...) */
	struct {
		uint8_t arg;     /* argument number of the pointer */
		uint8_t mode;    /* enum ltr_out */
		uint8_t len_arg; /* LTR_OUT_ARG: argument number of the length */
		uint8_t size;    /* LTR_OUT_FIXED: bytes */
	} out[LTR_MAX_OUT];
	uint8_t funcptrs; /* bit n: argument n is a function pointer */
	uint8_t in_arg;   /* LTR_CAP_IN: argument number of the buffer */
	uint8_t in_len_arg; /* and of its length */
	uint8_t st_arg;   /* LTR_CAP_STRUCT: argument number of the pointer */
	uint8_t st_size;  /* the struct's bytes */
	uint8_t st_nin;   /* its in buffers: byte offsets of the pointer, */
	struct {          /* and of its 32-bit length */
		uint8_t ptr, len;
	} st_in[LTR_STRUCT_IN];
	uint8_t regs;     /* argument registers it reads (events carry these) */
	uint8_t reserved;
};

#define LTR_STACK_WORDS_MAX 8 /* stack words copied per call */

/* Hash of a function name, for the captures index (FNV-1a). */
static inline uint32_t ltr_name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Counters of one function in one thread.  Times are in TSC ticks. */
struct ltr_count {
	LTR_RELAYOUT_FIELD
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
 *
 * In a ring, an ENTER, CALL or EXIT carries only the fixed words its call
 * will print (words says how many): an ENTER the argument registers its
 * prototype reads (cap->regs; LTR_RAW_ARGS without one) then the return
 * address, an EXIT %rax alone unless it returns a float or fails (then
 * all four).  The writes of a call are most of what tracing costs the
 * program.  And every record of a ring has the short header of struct
 * ltr_rec, not struct ltr_event's.  ltruss puts the header and the words
 * back in place as it copies each event out (bin/events/reader.c), the
 * others 0: everything after the reader, and trace files, see the whole
 * layout (struct ltr_event), with words 0.
 */
enum ltr_event_type {
	LTR_EV_PAD = 1,   /* skip to the end of the ring */
	LTR_EV_ENTER,     /* a call starts: w[0..5] argument registers, w[6] return address */
	LTR_EV_EXIT,      /* it returns: w[0] %rax, w[1] %rdx, w[2] %xmm0, w[3] errno */
	LTR_EV_CALL,      /* a call seen on entry only: as ENTER, no EXIT follows */
	LTR_EV_UNWOUND,   /* a call ends without returning: flags = LTR_END_* */
	LTR_EV_THREAD,    /* from here on, the slot's events are thread w[0]'s */
	LTR_EV_UNTRACED,  /* the process leaves the session (a credential change): w[] holds the function's name, NUL-padded */
	LTR_EV_GUEST,     /* from here on, the slot's events are vfork child w[0]'s; w[0] = 0: its owner's again, the child's calls in progress end (w[1] = LTR_END_*) */
};

/* Why a call ended without returning (LTR_EV_UNWOUND flags). */
enum ltr_end {
	LTR_END_UNWOUND = 1, /* longjmp, or an exception caught above */
	LTR_END_EXITED,      /* the process exited inside it */
	LTR_END_PTHREAD_EXIT,
	LTR_END_KILLED,      /* (ltruss only) the process was killed inside it */
	LTR_END_EXEC,        /* (ltruss only) the process exec'd inside it */
	LTR_END_HIDDEN,      /* a call not shown (-D, disabled): only its level goes */
};

#define LTR_ENTER_WORDS 7
#define LTR_RAW_ARGS 3 /* argument registers shown of a call without prototype */
#define LTR_EXIT_WORDS 4
#define LTR_UNTRACED_WORDS 2

/* Event flags of ENTER, CALL and EXIT. */
#define LTR_EVF_ERROR 0x1u /* EXIT: the return is an error; w[3] is errno */
#define LTR_EVF_RESUME 0x2u /* ENTER: a call whose entry was shown already
			     * (inherited by a forked child, or a setjmp
			     * returning again): only its end is printed */
/*
 * EXIT, UNWOUND (or'ed with the LTR_END_* reason): the call was not the
 * innermost one of its thread.  The calls entered after it are suspended
 * on other stacks (coroutines, an interrupted stack): they stay in
 * progress, each one level lower than it was.
 */
#define LTR_EVF_KEEP_ABOVE 0x80u

/*
 * Memory copied at the call follows the fixed words of ENTER, CALL and EXIT
 * as blobs, each 8-byte aligned, up to the event's size.
 */
enum ltr_blob_type {
	LTR_BLOB_STRING = 1, /* the C string argument index points to; or the
			      * bytes of an [in:argN] buffer (LTR_CAP_IN), of a
			      * [struct:...] (LTR_CAP_STRUCT), of its in buffer
			      * k (index LTR_STRUCT_BUF + k) */
	LTR_BLOB_OUT,        /* EXIT: output argument index's memory */
	LTR_BLOB_XMM,        /* the low halves of %xmm0-7 on entry */
	LTR_BLOB_STACK,      /* stack words: arguments 6, 7... */
	LTR_BLOB_VARARGS,    /* printf varargs: n class bytes, padded, then n words */
	LTR_BLOB_VASTRING,   /* the string of vararg index (a %s) */
	LTR_BLOB_X87,        /* EXIT: %st0 as 10 bytes */
	LTR_BLOB_CALLSTACK,  /* -k: struct ltr_stack_regs, then the stack's top */
	LTR_BLOB_PYFRAMES,   /* -k: struct ltr_py_head, then struct ltr_py_frame each */
	LTR_BLOB_PYCODE,     /* -k: struct ltr_py_code, then its strings and line table */
	LTR_BLOB_TCLFRAMES,  /* -k: struct ltr_tcl_head, its frames, its CmdFrames */
	LTR_BLOB_TCLCODE,    /* -k: struct ltr_tcl_code, then its lines, map and path */
};

/*
 * -k: the registers an unwinder needs at the call site, as the caller
 * sees them once the call returns, then (in the same blob) a copy of the
 * caller's stack from sp up: len - sizeof(struct ltr_stack_regs) bytes,
 * cut at the thread's stack end or at the first unreadable page.  The
 * word at sp is the real return address (the copy never shows the
 * interposer's trampoline: hijacked return slots are given back theirs).
 * ltruss unwinds the copy afterwards (bin/symbols/stack.c).
 */
struct ltr_stack_regs {
	uint64_t sp;  /* where the copy starts: the call's return slot */
	uint64_t rip; /* the return address */
	uint64_t rbp, rbx, r12, r13, r14, r15; /* callee-saved, at the call */
};

/*
 * A sparse CALLSTACK (LTR_BLOBF_SPARSE, a live trace's only: never in a
 * -w file): after struct ltr_stack_regs, the span of the copy it stands
 * for (a uint64_t, at most LTR_STACK_SIZE_MAX), then the words of it
 * that are given, each at its offset from sp (8-aligned, inside the
 * span); every other word of the span reads as zero.  The interposer
 * makes one when ltruss's walk will read nothing else that matters
 * (lib/stack-hints.c).
 */
struct ltr_stack_word {
	uint64_t off, val;
};

/*
 * -k: how the frame of the code at a return address lies, so that the
 * interposer copies no more of a stack than ltruss's walk of it reads
 * (lib/stack-copy.c), written by ltruss as its walks meet frames
 * (bin/stack-hints.c).  A frame whose CFA is its stack pointer plus a
 * constant, with its return address just below the CFA and its saved
 * registers between, is LTR_HINT_SP; the thread's first frame (no return
 * address) LTR_HINT_OUTERMOST; any other is not described, and a stack
 * with such a frame is copied as far as it goes.  Entries are by pc, for
 * the process ltruss sees as pid (each has its own addresses), in open
 * addressing; pc is written last, and is 0 while an entry changes.
 */
struct ltr_stack_hint {
	uint64_t pc;  /* atomic: the return address; 0: free, or changing */
	uint64_t how; /* atomic: pid << 32 | LTR_HINT_* << 24 | CFA - sp, bytes */
};
#define LTR_STACK_FRAMES_MAX 1024 /* largest stack_frames */
#define LTR_STACK_HINTS 2048 /* entries of stack_hints[] (a power of two) */
#define LTR_STACK_HINT_PROBES 4 /* an entry lies this near its hash, or is not there */
#define LTR_HINT_SP 1
#define LTR_HINT_OUTERMOST 2

/* The entry of stack_hints[] where the probes for pc start. */
static inline uint32_t ltr_stack_hint_slot(uint64_t pc)
{
	return (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> 40) &
	       (LTR_STACK_HINTS - 1);
}

/*
 * -k in a CPython process: the Python frames the thread was running at the
 * call, innermost first (lib/pyframes.c).  Each names its code object by
 * address and the instruction it was at; cframe is the address of the
 * _PyCFrame of the C activation of the evaluation loop that runs it, which
 * lies in that activation's native frame, so ltruss puts the Python frames
 * after the native frame whose [sp, CFA) holds it.  A code object is
 * described (LTR_BLOB_PYCODE) in the first event of its thread's ring that
 * names it, and again once forgotten; ltruss keeps the last description of
 * each address per process.
 *
 * A call deep in Python mostly runs under the same outer frames as the
 * thread's call before it, so a blob flagged LTR_PYF_CHAIN holds only the
 * frames that differ: its own frames are the innermost ones, and after
 * them come the last `outer` frames of the blob of the same ring numbered
 * seq - 1 (as rebuilt: its own frames and those it took in turn).
 * ltruss keeps the last list of frames of each ring and rebuilds each
 * blob whole before anything reads it (bin/symbols/pyreuse.c); a blob
 * whose predecessor it did not see gives its own frames only, flagged
 * LTR_PYF_MORE.  The interposer leaves room in the event for the blob
 * whole, so that a rebuilt event fits where the interposer's did.
 */
struct ltr_py_head {
	uint32_t version; /* Py_Version of the interpreter: 0x030b02f0 */
	uint32_t flags;   /* LTR_PYF_* */
};
#define LTR_PYF_MORE 0x1u  /* more frames than the blob holds */
#define LTR_PYF_CHAIN 0x2u /* a struct ltr_py_chain follows the head */
#define LTR_PY_FRAMES_MAX 512 /* frames sent per call */

/* LTR_PYF_CHAIN: the blob's number in its ring, and the frames it reuses. */
struct ltr_py_chain {
	uint32_t seq;   /* one more than the ring's blob before it */
	uint32_t outer; /* its frames are followed by the last outer of blob seq - 1 */
};

struct ltr_py_frame {
	uint64_t code;   /* the PyCodeObject */
	uint64_t cframe; /* the _PyCFrame of its C activation */
	int64_t lasti;   /* the instruction's byte offset in the code; -2: none yet */
};

struct ltr_py_code {
	uint64_t code;         /* the PyCodeObject described */
	int32_t firstlineno;
	uint16_t qualname_len; /* bytes of co_qualname's characters */
	uint16_t filename_len; /* bytes of co_filename's characters */
	uint32_t linetable_len; /* bytes of co_linetable */
	uint8_t qualname_kind; /* bytes a character: 1 (Latin-1), 2 or 4 */
	uint8_t filename_kind;
	uint16_t reserved;
	/* qualname, filename, linetable bytes follow, unpadded */
};

/*
 * -k in a Tcl 8.6 process (lib/tclframes.c): the procs the thread was
 * running at the call, innermost first, each named as it was invoked
 * (objv[0], copied up to LTR_TCL_NAME_MAX bytes); then the bytecode the
 * interpreter was running (its CmdFrames of type BC, innermost first),
 * each with the proc frame it runs in and its instruction's offset, and
 * the files it evaluates directly (type SOURCE: a script's top level),
 * each with its line and the Tcl_Obj of its name.  A ByteCode, or a
 * file's name, is described (LTR_BLOB_TCLCODE: its command location map and
 * the line and file of each command, from the interpreter's lineBCPtr)
 * in the first event of its thread's ring that names it.  ltruss puts
 * the frames, with their lines, in place of the run of libtcl frames of
 * the native stack.
 */
struct ltr_tcl_head {
	uint16_t nprocs; /* struct ltr_tcl_frame that follow */
	uint16_t ncmds;  /* struct ltr_tcl_cmd that follow them */
	uint32_t flags;  /* LTR_TCLF_* */
};
#define LTR_TCLF_MORE 0x1u    /* more frames than the blob holds */
#define LTR_TCL_FRAMES_MAX 64 /* proc frames sent per call, as many CmdFrames */
#define LTR_TCL_NAME_MAX 40   /* bytes of a name sent */

struct ltr_tcl_frame {
	uint64_t frame;    /* the CallFrame */
	uint64_t body;     /* the ByteCode of its body (procPtr->bodyPtr's) */
	uint32_t level;    /* CallFrame.level: 1 for a proc called at top level */
	uint16_t kind;     /* CallFrame.isProcCallFrame: 1 proc, 2 lambda, 4 method */
	uint8_t name_len;  /* bytes of name */
	uint8_t truncated; /* 1: the name was longer */
	char name[LTR_TCL_NAME_MAX]; /* objv[0]'s string, no NUL */
};

struct ltr_tcl_cmd {
	uint64_t frame; /* the CallFrame it runs in (CmdFrame.framePtr) */
	uint64_t code;  /* BC: its ByteCode; SOURCE: its file name's Tcl_Obj */
	int64_t pc;     /* BC: the instruction's offset in the code; -1: none yet */
	int32_t line;   /* SOURCE: the line of its command */
	uint32_t type;  /* CmdFrame.type: 2 BC (bytecode), 4 SOURCE (a file's, evaluated directly) */
};

struct ltr_tcl_code {
	uint64_t code;        /* the ByteCode described, or a file name's Tcl_Obj */
	uint32_t ncmds;       /* its numCommands */
	uint32_t map_len;     /* bytes of its codeDelta, codeLength and srcDelta arrays */
	uint32_t length_at;   /* where codeLength starts in them */
	uint32_t srcdelta_at; /* where srcDelta starts in them */
	uint32_t nloc;        /* (srcOffset, first line) pairs of its commands */
	uint16_t path_len;    /* bytes of its file's name */
	uint8_t type;         /* its ExtCmdLoc's type (4: a file); 0: none */
	uint8_t reserved;
	/* nloc pairs of int32, then the map's bytes, then the path, unpadded */
};

/* printf vararg classes (LTR_BLOB_VARARGS). */
enum ltr_va_class {
	LTR_VA_INT = 1, /* an int-sized or long word; the conversion says which */
	LTR_VA_DOUBLE,  /* a double, as its bits */
	LTR_VA_LDOUBLE, /* a long double: two words, 10 bytes used */
	LTR_VA_STRING,  /* a char *: the word, and a VASTRING blob unless NULL or bad */
	LTR_VA_POINTER, /* %p, %n */
};

#define LTR_VARARGS_MAX 32 /* printf arguments decoded per call */
#define LTR_PAYLOAD_MAX 60000 /* bytes of blobs in one event (size is 16 bits) */

/* Blob flags. */
#define LTR_BLOBF_TRUNCATED 0x1u /* longer than -s: cut */
#define LTR_BLOBF_FAULT 0x2u     /* unreadable memory: nothing copied */
#define LTR_BLOBF_SPARSE 0x4u    /* a CALLSTACK of some words only (struct ltr_stack_word) */

struct ltr_blob {
	uint8_t type;   /* enum ltr_blob_type */
	uint8_t index;  /* argument number, or vararg number */
	uint8_t flags;  /* LTR_BLOBF_* */
	uint8_t reserved;
	uint32_t len;   /* bytes of data (the blob is padded to 8) */
	unsigned char data[];
};

/* An event, as ltruss hands it on from the reader (bin/events/reader.c). */
struct ltr_event {
	uint16_t size;  /* bytes, header included, a multiple of 8 */
	uint8_t type;   /* enum ltr_event_type */
	uint8_t flags;
	uint16_t depth; /* nesting level, 0 = outermost traced call */
	uint16_t words; /* 0 (the fixed words of the type's whole layout) */
	uint32_t fn;    /* index in funcs[] */
	uint32_t reserved2;
	uint64_t ts;    /* TSC */
	uint64_t w[];
};

/*
 * An event as a ring holds it: struct ltr_event's header in 16 bytes
 * instead of 24, for the 16 bytes of a call's ENTER and EXIT are a fifth
 * of what the program writes a call and ltruss's core reads back.  The
 * first 8 bytes are one store of the interposer (lib/events.c), the
 * stamp the other.  kind is the type in its low 4 bits, the fixed words
 * written in the high 4 (0: all of the type's layout); fn fits in 16 bits
 * (LTR_MAX_FUNCS).  A PAD is a record whose kind is LTR_EV_PAD.
 */
struct ltr_rec {
	uint16_t size;  /* bytes in the ring, this header included, a multiple of 8 */
	uint8_t kind;   /* type | words << 4 */
	uint8_t flags;
	uint16_t depth;
	uint16_t fn;
	uint64_t ts;
	uint64_t w[];
};
#define LTR_REC_TYPE(kind) ((kind) & 0xfu)
#define LTR_REC_WORDS(kind) ((unsigned)(kind) >> 4)

/*
 * The indexes of a thread's ring; its bytes follow its slot (ltr_slot_offset).
 * A thread that finds its ring full sets wake_at to the tail it needs and
 * sleeps on the futex of tail's low 32 bits (shared: processes map the
 * session); ltruss, once it has moved tail there, clears wake_at and
 * wakes it (lib/events.c, bin/events/reader.c).
 */
struct ltr_ring {
	uint64_t head;     /* written by the traced thread */
	uint64_t dropped;  /* events dropped (--drop) */
	/* Written only when the ring is full (LTRUSS_DEBUG_RINGS shows them): */
	uint64_t stops;    /* times the thread waited for room */
	uint64_t sleeps;   /* its sleeps on the futex */
	uint64_t least_room; /* the fewest bytes free it went on with after a stop; 0: none */
	char pad1[24];
	uint64_t tail;     /* written by ltruss; its low word is the futex */
	uint64_t wake_at;  /* a thread sleeps until tail reaches this; 0: none */
	char pad2[48];
};

/* Thread slot states (the session's slot_used[]). */
#define LTR_SLOT_TAKEN 1 /* a thread of process pid owns it */
#define LTR_SLOT_FREED 2 /* ltruss handed it back: a new thread may take it */

/*
 * One thread slot: written only by its thread (no atomics); ids as ltruss
 * sees them.  Slots are
 * recycled across processes: once a process has ended and ltruss has
 * drained its rings, ltruss moves its slots' counters to retired[],
 * zeroes them and marks the slots FREED; a thread of a later process
 * takes one with a compare-and-swap of the session's slot_used[i], and
 * goes on in its ring where the last owner stopped (ring.head).
 */
struct ltr_thread {
	int32_t pid;
	int32_t tid;
	uint32_t reserved[2];
	struct ltr_ring ring;
	struct ltr_count counts[LTR_MAX_FUNCS];
};

/* Process states (struct ltr_process). */
#define LTR_PROC_RUNNING 1
#define LTR_PROC_EXITED 2 /* status is the exit status */
#define LTR_PROC_REAPED 3 /* status is the wait status its parent got */

/* The counters of one function in a thread slot that was handed back. */
struct ltr_retired {
	LTR_RELAYOUT_FIELD
	int32_t pid;  /* the process the slot's thread belonged to */
	uint32_t fn;  /* index in funcs[] */
	struct ltr_count c;
};

/*
 * A traced process, registered by itself; it writes its exit status too.
 * pid is as ltruss sees it; local_pid as its own pid namespace (pidns)
 * does, where its parent may reap it.
 */
struct ltr_process {
	int32_t pid;
	uint32_t state;  /* LTR_PROC_*; atomic */
	int32_t status;
	int32_t local_pid;
	uint32_t pidns;
	uint32_t started; /* atomic: 1 once the loader is done (la_preinit) */
};

/*
 * Entry patching (bin/patch/patch-plan.c makes the plans, lib/entry-patch.c
 * applies them): a function of an object, its first instructions moved
 * out and relocated, so that a 5-byte jmp can take their place.  All the
 * decoding is ltruss's; the interposer only copies code[], fills each
 * fixup's 32-bit field with target - (where its instruction ends), adds
 * a jmp back, and writes the jmp.
 */
#define LTR_MAX_PATCHES 4096 /* functions patched, all objects */
#define LTR_PATCH_CODE 48    /* bytes of a relocated copy */
#define LTR_PATCH_ORIG 16    /* bytes checked before patching */
#define LTR_PATCH_FIXUPS 4   /* RIP-relative fields in a copy */

/* One RIP-relative 32-bit field of a relocated copy. */
struct ltr_patch_fixup {
	uint8_t at;  /* where the field is in code[] */
	uint8_t end; /* where its instruction ends in code[]: RIP there */
	uint16_t reserved;
	uint32_t reserved2;
	uint64_t target; /* the ELF virtual address it refers to */
};

/* One function to patch. */
struct ltr_patch {
	uint32_t object;  /* offset of the object's path in strings[] */
	uint32_t name;    /* offset of the function's name in strings[] */
	uint64_t vaddr;   /* ELF virtual address of the jmp (after endbr64) */
	uint8_t len;      /* bytes displaced there (5 or more) */
	uint8_t code_len; /* bytes of code[] */
	uint8_t nfixups;
	uint8_t reserved;
	uint32_t applied; /* atomic, by the interposer: processes that patched it */
	uint32_t failed;  /* atomic, by the interposer: LTR_PATCH_E*, the last failure */
	uint32_t reserved2;
	uint8_t orig[LTR_PATCH_ORIG]; /* the len bytes expected at vaddr */
	uint8_t code[LTR_PATCH_CODE];
	struct ltr_patch_fixup fixups[LTR_PATCH_FIXUPS];
};

/* The state of the session's patch_req. */
#define LTR_PATCH_REQ_ASKED 1    /* a process asks ltruss to plan an object */
#define LTR_PATCH_REQ_ANSWERED 2 /* ltruss appended its plans, if any */

/* Why the interposer did not apply a plan (struct ltr_patch's failed). */
#define LTR_PATCH_EBYTES 1 /* the bytes there are not the ones ltruss read */
#define LTR_PATCH_EAREA 2  /* no code area within 2 GiB of the object */
#define LTR_PATCH_EMEM 3   /* /proc/self/mem refused the write */
#define LTR_PATCH_ESTUB 4  /* no stub left */

/*
 * A loaded object of a traced process, for symbolizing call sites.  The
 * records are a ring: claim i (nobjects counts the claims) is stored in
 * objects[i % LTR_MAX_OBJECTS], and seq says which claim a slot holds.
 * mapped says when it was loaded, on the clock of the events (the TSC), so
 * that ltruss names a call's addresses by the objects there at the call,
 * not by one loaded there since (bin/symbols/objmap.c).
 */
struct ltr_objrec {
	LTR_RELAYOUT_FIELD
	int32_t pid;
	uint32_t path;  /* offset of its file's path in strings[] */
	uint64_t start; /* its segments' address range */
	uint64_t end;
	uint64_t bias;  /* load bias: address = bias + ELF virtual address */
	uint64_t mapped; /* ltr_now() in la_objopen; 0: since the start */
	uint32_t seq;   /* written last (release): its claim + 1 once written */
};

/*
 * The shipped prototypes' captures are not copied into the session: they
 * stay in ltruss's compiled table (conf/prototypes.tbl, its layout in
 * bin/config/shipped-format.h), which each traced process maps read-only
 * (lib/shipped.c) from the descriptor ltruss keeps open (inherited, or
 * /proc/PID/fd/FD as the session's).  Copying them (440 KiB into the
 * session's shared memory) was most of ltruss's session set-up, at every
 * start.  Captures [0, ncaptures) are the table's; the session's own
 * captures[i] (a filter's prototypes, which win over the table's: looked
 * up first) is capture ncaptures + i.  ltruss checked the table before
 * the start; a process checks the file is the same (inode, size) and every
 * offset it reads against size, and without it traces on, its shipped
 * prototypes unknown.
 */
struct ltr_shipped {
	int32_t fd;          /* ltruss's descriptor of the table; -1: none */
	uint32_t ncaptures;  /* captures in the table */
	uint64_t ino;        /* the file's inode and device, as ltruss opened it */
	uint64_t dev;
	uint64_t size;       /* its bytes */
	uint32_t captures;   /* offset of its struct ltr_capture[ncaptures] */
	uint32_t index;      /* offset of its uint32_t[LTR_CAPTURE_HASH]: capture + 1; 0 = empty */
	uint32_t strings;    /* offset of the names its captures' name fields index */
	uint32_t nstrings;   /* bytes of those names, the last a NUL */
};

/*
 * The session header, at offset 0 of the file; the thread slots follow
 * it, from the next page (ltr_slot_offset()): slot i's struct ltr_thread,
 * then its ring of ring_size bytes, page-aligned, so that each is mapped
 * on its own, by the process whose thread takes it and by ltruss once it
 * is taken.  The file is as big as all of them, but its pages exist only
 * once touched, and nobody maps what it does not use: a traced process
 * maps the header and the slots of its threads (address space is what
 * `ulimit -v` limits, whether the pages exist or not).  The ring's size
 * is an option, so that ltruss's memory (and the program's) is what the
 * user chose: a ring's pages are touched as it fills, and a thread that
 * makes more calls than its ring holds reuses them.
 */
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
	uint32_t ncaptures;   /* entries of captures[] in use (after shipped's: see struct ltr_shipped) */
	uint32_t control;     /* atomic: LTR_CTL_*, read on every call */
	int32_t owner_pid;    /* ltruss's pid (the console checks it lives) */
	uint64_t start_time;  /* CLOCK_REALTIME ns when the run started */
	char command[256];    /* the traced command line, for "sessions" */
	uint32_t ring_size;    /* bytes of each ring (--buffer) */
	uint32_t reader_pidns; /* ltruss's pid namespace (inode of /proc/self/ns/pid) */
	uint32_t reader_beat;  /* atomic: ltruss's passes over the rings, counted */
	/* Atomic, by the interposer: returns through dropped frames (capture.c). */
	uint32_t lost_returns;
	uint32_t stack_size;   /* -k: bytes of the stack copied per call; 0 = none */
	uint32_t stack_frames; /* -k: frames ltruss's walk reads, at most; 0 = copy stack_size bytes, no stack_hints[] */
	struct ltr_shipped shipped; /* the compiled shipped captures, mapped by each process */

	/* Written by the interposer. */
	uint32_t nfuncs;      /* atomic: entries of funcs[] in use */
	uint32_t nthreads;    /* atomic: thread slots taken */
	uint32_t strings_used; /* atomic: bytes of strings[] in use */
	uint32_t stubs_exhausted; /* atomic: targets left untraced, no stub */
	uint32_t objects_seen;
	uint32_t nprocs;      /* atomic: entries of procs[] in use */
	uint32_t procs_exited; /* atomic: entries that recorded their exit */
	uint32_t procs_released; /* atomic, by ltruss: of those, reported and their slots handed back */
	uint32_t nobjects;    /* atomic: claims of objects[] so far (a ring) */
	uint32_t objects_lost; /* atomic: records not stored, ltruss gone */
	uint32_t objects_kept; /* written by ltruss: 1 = it copies every record */
	uint32_t objects_copied; /* atomic, by ltruss: claims below it are copied */
	uint32_t nretired;    /* atomic, written by ltruss: entries of retired[] */
	uint32_t attach_enomem; /* atomic: a process could not map the session, out of address space */
	uint32_t shipped_unmapped; /* atomic: processes that could not map the shipped table (struct ltr_shipped) */

	/* Written by a console, applied by ltruss (bin/events/toggles.c). */
	uint32_t toggles_lock; /* atomic: a console is changing toggles[] */
	uint32_t toggles_gen;  /* atomic: odd while toggles[] changes */
	uint32_t toggles_done; /* atomic: the toggles_gen ltruss applied */
	uint32_t ntoggles;
	struct ltr_toggle toggles[LTR_MAX_TOGGLES];

	struct ltr_rule rules[LTR_MAX_RULES];
	char from[LTR_MAX_FROM][LTR_GLOB_MAX];
	struct ltr_func funcs[LTR_MAX_FUNCS];
	uint32_t func_index[LTR_FUNC_HASH]; /* atomic, by name hash: fn + 1; 0 = empty (lib/stubs.c) */
	struct ltr_capture captures[LTR_MAX_CAPTURES];
	uint32_t capture_index[LTR_CAPTURE_HASH]; /* open addressing: capture + 1; 0 = empty */
	char strings[LTR_STRINGS_SIZE];
	struct ltr_process procs[LTR_MAX_PROCS];
	struct ltr_objrec objects[LTR_MAX_OBJECTS];
	struct ltr_stack_hint stack_hints[LTR_STACK_HINTS]; /* -k, written by ltruss */
	/*
	 * atomic: 0 never taken, or LTR_SLOT_*.  In one page: ltruss marks
	 * the last slot taken and processes take the first ones, which
	 * touched two new pages of the memfd when the array straddled them.
	 */
	uint32_t slot_used[LTR_MAX_THREADS] __attribute__((aligned(2048)));
	/*
	 * Entry patching: plans ltruss made before the start, then appended
	 * (npatches released last) for an object opened later, which a
	 * process asks for one at a time (lib/entry-patch.c).
	 */
	uint32_t npatches;    /* atomic: entries of patches[] */
	uint32_t patch_req_lock; /* atomic: 1 while a process asks */
	uint32_t patch_req;   /* atomic: LTR_PATCH_REQ_* */
	uint32_t patch_req_path; /* offset of the object's path in strings[] */
	uint32_t patch_req_main; /* 1: the object asked for is the program (a.out) */
	struct ltr_patch patches[LTR_MAX_PATCHES];
	/* The interposer maps the header up to here: the rest is ltruss's. */
	struct ltr_retired retired[LTR_MAX_RETIRED];
};
_Static_assert(sizeof(((struct ltr_session *)0)->slot_used) <= 2048,
	       "slot_used, aligned to 2048, lies in one page");

/* n rounded up to a page. */
static inline uint64_t ltr_page_up(uint64_t n)
{
	return (n + 4095) & ~(uint64_t)4095;
}

/* Bytes of the header a traced process maps (retired[] is ltruss's). */
static inline uint64_t ltr_header_size_lib(void)
{
	return ltr_page_up(__builtin_offsetof(struct ltr_session, retired));
}

/* Bytes of one thread slot in the file: its struct ltr_thread, then its ring. */
static inline uint64_t ltr_slot_size(uint32_t ring_size)
{
	return ltr_page_up(sizeof(struct ltr_thread)) + ring_size;
}

/* Where thread slot i starts in the file; its ring is ltr_page_up(sizeof(struct ltr_thread)) further. */
static inline uint64_t ltr_slot_offset(uint32_t i, uint32_t ring_size)
{
	return ltr_page_up(sizeof(struct ltr_session)) +
	       (uint64_t)i * ltr_slot_size(ring_size);
}

/* The size of the whole session file. */
static inline uint64_t ltr_session_size(uint32_t ring_size)
{
	return ltr_slot_offset(LTR_MAX_THREADS, ring_size);
}

#endif
