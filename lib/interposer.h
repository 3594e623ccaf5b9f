/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interposer.h: internal declarations of libltruss.so, the first of its
 * layers' headers (objects.h, process.h, hooks.h, capture.h, frames.h).  Each layer's header
 * includes the layers it stands on; a file includes the layers it uses.
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
	/*
	 * Kept for the caller: a call of a local function compiled with
	 * -fipa-ra (gcc -O2) may count on what the callee leaves untouched
	 * (entry patching traces such calls: lib/entry-patch.c).
	 */
	uint64_t rcx, rsi, rdi, r8, r9, r10, r11;
	uint64_t pad[2];
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

/*
 * Open ltruss's (pid's) descriptor fd as /proc/PID/fd/FD with flags, if
 * is(the O_PATH descriptor, arg) says it is the file meant; -1 if not.
 */
int ltr_peer_open(long long pid, long long fd, int flags,
		  bool (*is)(int fd, const void *arg), const void *arg);

/*
 * Map the compiled shipped captures session s names (struct ltr_shipped):
 * ltruss's descriptor, taken as it is if inherited, else through
 * /proc/PID/fd; without it, shipped prototypes are unknown (counted in
 * s->shipped_unmapped, for ltruss to say).
 */
void ltr_shipped_map(struct ltr_session *s, long long pid, bool inherited);

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
/* Write v in decimal at buf (room for 21 bytes), NUL-terminated; its length. */
size_t ltr_utoa(char *buf, uint64_t v);
/* fmt into buf of size bytes, with %s and %llu only (mem.c); its length. */
size_t ltr_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- sets of names (nameset.c) ----------------------------------------- */

#define LTR_NAMESET_SIZE 256 /* slots: room for 128 entries */

struct ltr_nameset {
	const char *const *first; /* the name of entry 0 of the table */
	size_t stride;            /* bytes from one entry's name to the next's */
	uint8_t tag[LTR_NAMESET_SIZE];  /* the top byte of a slot's name hash */
	uint8_t slot[LTR_NAMESET_SIZE]; /* entry + 1; 0: empty */
};

/* Index the n entries of a table whose names are at first, stride bytes apart (once). */
void ltr_nameset_init(struct ltr_nameset *s, const char *const *first,
		      size_t stride, uint32_t n);
/* Is name (of hash ltr_name_hash(name)) in s?  *entry: its entry of the table. */
bool ltr_nameset_find(const struct ltr_nameset *s, const char *name,
		      uint32_t hash, uint32_t *entry);

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
