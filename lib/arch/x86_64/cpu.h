/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu.h: x86_64 primitives for the interposer: timestamps, raw syscalls, the thread pointer, jmp_buf. */
#ifndef LTRUSS_ARCH_CPU_H
#define LTRUSS_ARCH_CPU_H

#include <signal.h>
#include <stdint.h>

#define SA_RESTORER 0x04000000 /* the kernel's flag: libc hides it */

/* The kernel's struct sigaction on x86_64 (not libc's): rt_sigaction's. */
struct ksigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/* The thread pointer (%fs:0 holds it, by the TLS ABI): glibc's pthread_t. */
static inline uintptr_t ltr_thread_pointer(void)
{
	uintptr_t tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}

/*
 * The stack pointer a jmp_buf (setjmp's, sigsetjmp's) holds: glibc keeps
 * it in word 6, mangled with the thread's pointer guard (%fs:0x30) as
 * PTR_MANGLE does: xor, then rotate left by 17.
 */
static inline uintptr_t ltr_jmpbuf_sp(const void *env)
{
	uintptr_t v = ((const uintptr_t *)env)[6], guard;

	__asm__("mov %%fs:0x30, %0" : "=r"(guard));
	return ((v >> 17) | (v << 47)) ^ guard;
}

/* The time-stamp counter (constant and nonstop on the machines we run on). */
static inline uint64_t ltr_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/*
 * A raw system call: no libc wrapper, so no errno (neither the program's nor
 * ours) changes and no cancellation point is entered.  Returns -errno on error.
 */
static inline long ltr_syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

/* A raw system call of six arguments (see ltr_syscall3). */
static inline long ltr_syscall6(long nr, long a, long b, long c, long d,
				long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#endif
