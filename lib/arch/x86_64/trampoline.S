/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trampoline.S: the x86_64 stubs, the common entry and the return trampoline.
 *
 * Stubs.  One stub per traced target address, pre-built here in .text (no
 * writable and executable memory): stub i is 16 bytes at ltr_stubs + 16*i,
 * "endbr64; mov $i, %r11d; jmp ltr_entry_common".  The loader's binding
 * (la_symbind64) and patched GLOB_DAT slots point at the stub instead of the
 * function, so calls of untraced functions are not redirected at all.  %r11
 * is free at a call boundary: the ABI reserves it for neither arguments nor
 * the static chain.
 *
 * Entry.  The stub jumps, it does not call, so the stack is exactly the
 * caller's: stack arguments and varargs are untouched.  ltr_entry_common
 * saves the argument registers (%rdi %rsi %rdx %rcx %r8 %r9, %rax = vector
 * count of varargs, %r10 = static chain), the low halves of %xmm0-7 for
 * capture, and the callee-saved registers as the caller left them (the
 * unwinder of -k starts from them), calls ltr_on_entry(regs, index), restores, and jumps to the
 * address it returned.  ltr_on_entry may replace the return address on the
 * stack (regs->ret) with a return trampoline to see the return.  The C code of
 * the interposer is built with -mgeneral-regs-only, so the vector registers
 * that carry float arguments need no restoring.
 *
 * Return.  A hijacked slot holds one of LTR_RETS return trampolines,
 * ltr_return_tramps + 8*k for the call whose real return address is kept
 * in entry k of the thread's rets[] (lib/rets.c).  The callee returns into
 * it with its result in %rax, %rdx, %xmm0, %xmm1 or x87 %st0/%st1, and its
 * "ret" has already popped the slot it returned through: the stack is the
 * caller's again.  Trampoline k is "call ltr_return_common", which writes
 * its own address + 5 back into that slot (k, for ltr_on_exit).  The first
 * four registers are saved below it (x87 is never touched by the
 * interposer), ltr_on_exit gets the slot's address, finds entry k and the
 * frame on the thread's shadow stack, and returns the real return address,
 * and the trampoline ends with "jmp *%r11" to it (%r11 is free at a return,
 * as at a call): the stack keeps no trace of it.  For the unwinder the
 * trampoline is the end of the stack (its return address is undefined);
 * C++ exceptions, forced unwinds and backtraces put the real return
 * addresses back before they walk the stack (lib/unwind.c).
 */

#ifndef LTR_NSTUBS
#error "LTR_NSTUBS must be defined"
#endif
#ifndef LTR_RETS
#error "LTR_RETS must be defined"
#endif

	.section .note.GNU-stack, "", @progbits

	.text

/* struct ltr_regs offsets (lib/interposer.h) */
#define R_XMM 0
#define R_RDI 64
#define R_RSI 72
#define R_RDX 80
#define R_RCX 88
#define R_R8 96
#define R_R9 104
#define R_RAX 112
#define R_R10 120
#define R_RBX 128
#define R_RBP 136
#define R_R12 144
#define R_R13 152
#define R_R14 160
#define R_R15 168
#define R_SIZE 184 /* then the caller's return address */

	.p2align 4
	.globl ltr_stubs
	.hidden ltr_stubs
	.type ltr_stubs, @function
ltr_stubs:
	.set stub_index, 0
	.rept LTR_NSTUBS
	.p2align 4
	endbr64
	movl $stub_index, %r11d
	jmp ltr_entry_common
	.set stub_index, stub_index + 1
	.endr
	.p2align 4
	.globl ltr_stubs_end
	.hidden ltr_stubs_end
ltr_stubs_end:
	.size ltr_stubs, ltr_stubs_end - ltr_stubs

	.p2align 4
	.globl ltr_entry_common
	.hidden ltr_entry_common
	.type ltr_entry_common, @function
ltr_entry_common:
	.cfi_startproc
	subq $R_SIZE, %rsp
	.cfi_adjust_cfa_offset R_SIZE
	movq %rdi, R_RDI(%rsp)
	movq %rsi, R_RSI(%rsp)
	movq %rdx, R_RDX(%rsp)
	movq %rcx, R_RCX(%rsp)
	movq %r8, R_R8(%rsp)
	movq %r9, R_R9(%rsp)
	movq %rax, R_RAX(%rsp)
	movq %r10, R_R10(%rsp)
	/* Callee-saved: only read (-k unwinds from them), never restored. */
	movq %rbx, R_RBX(%rsp)
	movq %rbp, R_RBP(%rsp)
	movq %r12, R_R12(%rsp)
	movq %r13, R_R13(%rsp)
	movq %r14, R_R14(%rsp)
	movq %r15, R_R15(%rsp)
	movq %xmm0, R_XMM+0(%rsp)
	movq %xmm1, R_XMM+8(%rsp)
	movq %xmm2, R_XMM+16(%rsp)
	movq %xmm3, R_XMM+24(%rsp)
	movq %xmm4, R_XMM+32(%rsp)
	movq %xmm5, R_XMM+40(%rsp)
	movq %xmm6, R_XMM+48(%rsp)
	movq %xmm7, R_XMM+56(%rsp)
	movq %rsp, %rdi
	movl %r11d, %esi
	call ltr_on_entry
	movq %rax, %r11
	movq R_RDI(%rsp), %rdi
	movq R_RSI(%rsp), %rsi
	movq R_RDX(%rsp), %rdx
	movq R_RCX(%rsp), %rcx
	movq R_R8(%rsp), %r8
	movq R_R9(%rsp), %r9
	movq R_RAX(%rsp), %rax
	movq R_R10(%rsp), %r10
	addq $R_SIZE, %rsp
	.cfi_adjust_cfa_offset -R_SIZE
	jmp *%r11
	.cfi_endproc
	.size ltr_entry_common, . - ltr_entry_common

/* struct ltr_retregs offsets (lib/interposer.h) */
#define X_XMM0 0
#define X_XMM1 16
#define X_RAX 32
#define X_RDX 40
#define X_SIZE 64 /* the last 8 bytes are the callee's return slot */

	.p2align 4
	.cfi_startproc
	.cfi_undefined rip
	/* The unwinder looks up return address - 1: it must land here too. */
	nop
	.p2align 3
	.globl ltr_return_tramps
	.hidden ltr_return_tramps
	.type ltr_return_tramps, @function
ltr_return_tramps:
	.rept LTR_RETS
	.p2align 3
	call ltr_return_common
	.endr
	.size ltr_return_tramps, . - ltr_return_tramps

	/* The call pushed its entry + 5 into the slot returned through. */
ltr_return_common:
	subq $X_SIZE-8, %rsp
	movdqu %xmm0, X_XMM0(%rsp)
	movdqu %xmm1, X_XMM1(%rsp)
	movq %rax, X_RAX(%rsp)
	movq %rdx, X_RDX(%rsp)
	movq %rsp, %rdi
	leaq X_SIZE-8(%rsp), %rsi
	call ltr_on_exit
	movq %rax, %r11
	movdqu X_XMM0(%rsp), %xmm0
	movdqu X_XMM1(%rsp), %xmm1
	movq X_RAX(%rsp), %rax
	movq X_RDX(%rsp), %rdx
	addq $X_SIZE, %rsp
	jmp *%r11
	.cfi_endproc
