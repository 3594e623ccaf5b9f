/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp.c: which of the interposer's own system calls seccomp allows.
 *
 * The hot path makes a few system calls of its own: the ring wait
 * (futex, nanosleep, and kill to see whether ltruss lives), string
 * copies (process_vm_readv), a new thread's state (getpid, gettid, mmap,
 * tgkill; in another pid namespace, readlinkat, openat, read and close of
 * /proc: lib/pidns.c), the alternate-stack check (sigaltstack).  A program under
 * SECCOMP_MODE_STRICT may only read, write, exit and sigreturn, and a
 * filter may kill it for anything else: one of our calls made after the
 * program entered seccomp would kill it, typically when ltruss falls
 * behind and the ring is full.
 *
 * So prctl(PR_SET_SECCOMP) and seccomp(2) made through syscall() are
 * hooked (lib/hooks.c).  Before the call, the set of our system calls the
 * new mode allows is worked out: for strict mode, none; for a filter, by
 * running its classic BPF program here on each of our calls (x86_64, the
 * arguments zero, as a filter sees them), counting only SECCOMP_RET_ALLOW
 * and SECCOMP_RET_LOG as allowed (an errno, a trap, a tracer or a user
 * notification would change what the program sees).  A filter whose
 * instructions this interpreter does not know allows nothing.  Once the
 * call succeeds, the sets of all filters so far are combined, as the
 * kernel combines them.  From then on each of those call sites asks
 * ltr_sys_ok() first, and does without: the ring wait spins and at last
 * drops events (ltruss reports how many), strings are not copied (their
 * address is shown), a thread that starts is not traced, and the
 * alternate-stack check is skipped.  This is process-wide, though strict
 * mode and filters without TSYNC bind only the calling thread: more
 * cautious than needed.  A filter installed before the program started
 * (inherited across exec, a container's) is not seen.
 *
 * Strict mode also turns the time-stamp counter off (the kernel sets
 * TIF_NOTSC: rdtsc raises SIGSEGV, and the vDSO clock reads it too).
 * Events then get made-up timestamps, one tick apart from the last real
 * one, so that their order holds; their times and durations mean nothing.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "hooks.h"
#include "interposer.h"

#define AUDIT_ARCH_X86_64 0xc000003eu

/* The system calls of the interposer's hot path; bit i of a mask is ours[i]. */
static const long ours[] = {
	SYS_futex, SYS_nanosleep, SYS_kill, SYS_process_vm_readv,
	SYS_getpid, SYS_gettid, SYS_mmap, SYS_tgkill, SYS_sigaltstack,
	SYS_readlinkat, SYS_openat, SYS_read, SYS_close, SYS_open,
	SYS_arch_prctl,
};
#define NOURS (sizeof(ours) / sizeof(ours[0]))
#define ALL_OURS ((1u << NOURS) - 1)

bool ltr_seccomp;             /* the program is in seccomp: check each call */
bool ltr_no_tsc;              /* strict mode: rdtsc faults */
static uint32_t allowed = ALL_OURS; /* which of ours[] may still be made */
static uint64_t fake_tsc;     /* the last made-up timestamp */

uint64_t ltr_fake_tsc(void)
{
	return __atomic_add_fetch(&fake_tsc, 1, __ATOMIC_RELAXED);
}

bool ltr_sys_ok_slow(long nr)
{
	size_t i;

	for (i = 0; i < NOURS; i++)
		if (ours[i] == nr)
			return __atomic_load_n(&allowed, __ATOMIC_ACQUIRE) &
			       (1u << i);
	return false;
}

/* Word off (a multiple of 4) of the seccomp_data of system call nr, arguments zero. */
static uint32_t data_word(long nr, uint32_t off)
{
	if (off == offsetof(struct seccomp_data, nr))
		return (uint32_t)nr;
	if (off == offsetof(struct seccomp_data, arch))
		return AUDIT_ARCH_X86_64;
	return 0; /* instruction pointer and arguments */
}

/* Is a BPF jump's condition (code's op, against v) true for a? */
static bool jump_taken(uint16_t code, uint32_t a, uint32_t v)
{
	switch (BPF_OP(code)) {
	case BPF_JEQ:
		return a == v;
	case BPF_JGT:
		return a > v;
	case BPF_JGE:
		return a >= v;
	default: /* BPF_JSET */
		return (a & v) != 0;
	}
}

/* a op v, for a BPF ALU instruction; false if the op is unknown or divides by 0. */
static bool alu(uint16_t code, uint32_t *a, uint32_t v)
{
	switch (BPF_OP(code)) {
	case BPF_ADD: *a += v; return true;
	case BPF_SUB: *a -= v; return true;
	case BPF_MUL: *a *= v; return true;
	case BPF_AND: *a &= v; return true;
	case BPF_OR: *a |= v; return true;
	case BPF_XOR: *a ^= v; return true;
	case BPF_LSH: *a = v < 32 ? *a << v : 0; return true;
	case BPF_RSH: *a = v < 32 ? *a >> v : 0; return true;
	case BPF_NEG: *a = -*a; return true;
	case BPF_DIV: if (!v) return false; *a /= v; return true;
	case BPF_MOD: if (!v) return false; *a %= v; return true;
	}
	return false;
}

/*
 * Run filter f on system call nr: does it allow it?  Jumps go forward
 * only, so this ends within len steps; anything unknown is "no".
 */
static bool filter_allows(const struct sock_fprog *f, long nr)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	unsigned pc;

	for (pc = 0; pc < f->len; pc++) {
		const struct sock_filter *in = &f->filter[pc];
		uint16_t c = in->code;
		uint32_t v = BPF_SRC(c) == BPF_X ? x : in->k;

		switch (BPF_CLASS(c)) {
		case BPF_LD:
		case BPF_LDX: {
			uint32_t *r = BPF_CLASS(c) == BPF_LD ? &a : &x;

			if (BPF_MODE(c) == BPF_ABS && BPF_SIZE(c) == BPF_W &&
			    !(in->k & 3) && in->k < sizeof(struct seccomp_data))
				*r = data_word(nr, in->k);
			else if (BPF_MODE(c) == BPF_IMM)
				*r = in->k;
			else if (BPF_MODE(c) == BPF_LEN)
				*r = sizeof(struct seccomp_data);
			else if (BPF_MODE(c) == BPF_MEM && in->k < BPF_MEMWORDS)
				*r = mem[in->k];
			else
				return false;
			break;
		}
		case BPF_ST:
		case BPF_STX:
			if (in->k >= BPF_MEMWORDS)
				return false;
			mem[in->k] = BPF_CLASS(c) == BPF_ST ? a : x;
			break;
		case BPF_ALU:
			if (!alu(c, &a, v))
				return false;
			break;
		case BPF_JMP:
			if (BPF_OP(c) == BPF_JA)
				pc += in->k;
			else
				pc += jump_taken(c, a, v) ? in->jt : in->jf;
			break;
		case BPF_RET: {
			uint32_t ret = BPF_RVAL(c) == BPF_A ? a : in->k;
			uint32_t action = ret & SECCOMP_RET_ACTION_FULL;

			return action == SECCOMP_RET_ALLOW ||
			       action == SECCOMP_RET_LOG;
		}
		case BPF_MISC:
			if (BPF_MISCOP(c) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			return false;
		}
	}
	return false;
}

/* Which of ours[] a new mode (SECCOMP_MODE_*, with filter f) allows. */
static uint32_t mode_allows(unsigned long mode, const struct sock_fprog *f)
{
	uint32_t mask = 0;
	size_t i;

	if (mode != SECCOMP_MODE_FILTER || !f || !f->filter)
		return 0;
	for (i = 0; i < NOURS; i++)
		if (filter_allows(f, ours[i]))
			mask |= 1u << i;
	return mask;
}

/* After a successful entry into a mode that allows mask of ours[]. */
static void entered(uint32_t mask)
{
	__atomic_fetch_and(&allowed, mask, __ATOMIC_ACQ_REL);
	__atomic_store_n(&ltr_seccomp, true, __ATOMIC_RELEASE);
}

long ltr_hook_prctl(long option, long a2, long a3, long a4, long a5)
{
	long r;

	ltr_hook_note(LTR_H_PRCTL, (uint64_t)option, (uint64_t)a2,
		      (uint64_t)a3);
	uint64_t t0 = ltr_now();

	r = ((long (*)(long, long, long, long, long))
		     ltr_hook_real[LTR_H_PRCTL])(option, a2, a3, a4, a5);
	ltr_seccomp_syscall(SYS_prctl, option, a2, a3, r, t0);
	return r;
}

/*
 * The filter is read after the call succeeded (the kernel could read it):
 * a bad pointer is the program's error, never a fault of ours.  A filter
 * with a listener returns its descriptor.
 */
void ltr_seccomp_syscall(long nr, long a, long b, long c, long r, uint64_t t0)
{
	if (r < 0)
		return;
	if ((nr == SYS_prctl && a == PR_SET_SECCOMP &&
	     b == SECCOMP_MODE_STRICT) ||
	    (nr == SYS_seccomp && a == SECCOMP_SET_MODE_STRICT)) {
		__atomic_store_n(&fake_tsc, t0, __ATOMIC_RELAXED);
		__atomic_store_n(&ltr_no_tsc, true, __ATOMIC_RELEASE);
		entered(0);
	} else if (nr == SYS_prctl && a == PR_SET_SECCOMP)
		entered(mode_allows((unsigned long)b, (void *)c));
	else if (nr == SYS_seccomp && a == SECCOMP_SET_MODE_FILTER)
		entered(mode_allows(SECCOMP_MODE_FILTER, (void *)c));
}
