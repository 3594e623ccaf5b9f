/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu.h: x86_64 primitives for the interposer: timestamps and raw syscalls. */
#ifndef LTRUSS_ARCH_CPU_H
#define LTRUSS_ARCH_CPU_H

#include <stdint.h>

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

#endif
