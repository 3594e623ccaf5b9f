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
 * unwinder of -k starts from them), calls ltr_on_entry(regs, index),
 * restores, and jumps where it said.  ltr_on_entry may replace the return
 * address on the stack (regs->ret) with a return trampoline to see the
 * return.  The C code of the interposer is built with -mgeneral-regs-only,
 * so the vector registers that carry float arguments need no restoring.
 *
 * Return.  A hijacked slot holds one of LTR_RETS return trampolines,
 * ltr_tramp_of(k) (lib/interposer.h), for the call whose real return
 * address is kept in entry k of the thread's rets[] (lib/rets.c).  The
 * callee returns into it with its result in %rax, %rdx, %xmm0, %xmm1 or
 * x87 %st0/%st1, and its "ret" has already popped the slot it returned
 * through: the stack is the caller's again.  Trampoline k pushes k into
 * that slot and jumps to ltr_return_common, which saves the registers a
 * result comes in and the other call-clobbered general ones below it (x87
 * is never touched by the interposer) and calls
 * ltr_on_exit with the slot's address; that finds entry k and the frame on
 * the thread's shadow stack and returns the real return address, which
 * goes back into the slot for a "ret" to it.
 *
 * The return stack buffer.  The processor predicts a "ret" by a stack of
 * the return addresses of the calls made; a ret that goes elsewhere costs
 * a pipeline flush (about 9 ns here, as much as a rdtsc), and a call never
 * returned from shifts the stack, so that every ret of the callers after it
 * misses too.  So no call here goes unmatched, and the callee's own ret is
 * predicted: its call is made, for the predictor, by us.  Before a
 * hijacked call ltr_entry_common jumps to the 5 bytes before trampoline k,
 * "call ltr_enter_thunk", with the saved registers still on the stack:
 * the call pushes trampoline k both below them and on the prediction
 * stack; the thunk takes the function's address from the saved registers
 * (where ltr_entry_common put it, over R15, which is only read), frees
 * them and the pushed address at once (the prediction stack keeps it),
 * and jumps to the function.  No value is left below the stack pointer
 * to be read later (valgrind would rightly call it undefined).  The
 * callee's ret to trampoline k is then the predicted one, and
 * ltr_return_common's ret to the real return address is the one the
 * caller's call pushed.  A tail call of another traced function nests
 * the same way (its trampoline returns to ours).  The saved registers
 * cover every word from slot - 184 to slot - 16 before ltr_on_entry runs,
 * and so overwrite the return slots lying there of frames a longjmp
 * skipped (lib/capture.c counts on it).
 * Unwinders see the trampolines as the end of the stack (their return
 * address is undefined); C++ exceptions, forced unwinds and backtraces
 * put the real return addresses back before they walk the stack
 * (lib/unwind.c).
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
	/* Returns the function in %rax, where to jump in %rdx. */
	call ltr_on_entry
	/* R15 was only read: it keeps the function for ltr_enter_thunk. */
	movq %rax, R_R15(%rsp)
	movq %rdx, %r11
	cmpq %rax, %rdx /* the flags survive the moves */
	movq R_RDI(%rsp), %rdi
	movq R_RSI(%rsp), %rsi
	movq R_RDX(%rsp), %rdx
	movq R_RCX(%rsp), %rcx
	movq R_R8(%rsp), %r8
	movq R_R9(%rsp), %r9
	movq R_RAX(%rsp), %rax
	movq R_R10(%rsp), %r10
	jne 1f
	addq $R_SIZE, %rsp
	.cfi_remember_state
	.cfi_adjust_cfa_offset -R_SIZE
	jmp *%r11
	/* Hijacked: ltr_enter_thunk frees the saved registers. */
1:	.cfi_restore_state
	jmp *%r11
	.cfi_endproc
	.size ltr_entry_common, . - ltr_entry_common

/* struct ltr_retregs offsets (lib/interposer.h) */
#define X_XMM0 0
#define X_XMM1 16
#define X_RAX 32
#define X_RDX 40
#define X_RCX 48
#define X_RSI 56
#define X_RDI 64
#define X_R8 72
#define X_R9 80
#define X_R10 88
#define X_R11 96
#define X_SIZE 128 /* the last 8 bytes are the callee's return slot */

	/*
	 * The return trampolines, LTR_TRAMP_SIZE bytes each: the call that
	 * enters a hijacked function, then trampoline k (LTR_TRAMP_CALL bytes
	 * in: a call is always 5), where it returns.  The unwinder looks up a
	 * return address - 1: the call before it, in the same CFI.
	 */
	.p2align 4
	.cfi_startproc
	.cfi_undefined rip
	.globl ltr_tramp_blocks
	.hidden ltr_tramp_blocks
	.type ltr_tramp_blocks, @function
ltr_tramp_blocks:
	.set tramp_index, 0
	/* Encoded by hand, so that every block has the same size. */
	.rept LTR_RETS
	call ltr_enter_thunk
	.byte 0x68 /* pushq $imm32 */
	.long tramp_index
	.byte 0xe9 /* jmp rel32 */
	.long ltr_return_common - . - 4
	int3
	.set tramp_index, tramp_index + 1
	.endr
	.size ltr_tramp_blocks, . - ltr_tramp_blocks

	/*
	 * Called by the block of trampoline k, below ltr_entry_common's saved
	 * registers: the function is in their R15, and then the stack is the
	 * caller's again.
	 */
ltr_enter_thunk:
	movq 8+R_R15(%rsp), %r11
	leaq 8+R_SIZE(%rsp), %rsp
	jmp *%r11

	/* Trampoline k pushed k into the slot returned through. */
	.type ltr_return_common, @function
ltr_return_common:
	subq $X_SIZE-8, %rsp
	movdqu %xmm0, X_XMM0(%rsp)
	movdqu %xmm1, X_XMM1(%rsp)
	movq %rax, X_RAX(%rsp)
	movq %rdx, X_RDX(%rsp)
	/* What the callee left in the others, for -fipa-ra callers. */
	movq %rcx, X_RCX(%rsp)
	movq %rsi, X_RSI(%rsp)
	movq %rdi, X_RDI(%rsp)
	movq %r8, X_R8(%rsp)
	movq %r9, X_R9(%rsp)
	movq %r10, X_R10(%rsp)
	movq %r11, X_R11(%rsp)
	movq %rsp, %rdi
	leaq X_SIZE-8(%rsp), %rsi
	call ltr_on_exit
	movq %rax, X_SIZE-8(%rsp)
	movdqu X_XMM0(%rsp), %xmm0
	movdqu X_XMM1(%rsp), %xmm1
	movq X_RAX(%rsp), %rax
	movq X_RDX(%rsp), %rdx
	movq X_RCX(%rsp), %rcx
	movq X_RSI(%rsp), %rsi
	movq X_RDI(%rsp), %rdi
	movq X_R8(%rsp), %r8
	movq X_R9(%rsp), %r9
	movq X_R10(%rsp), %r10
	movq X_R11(%rsp), %r11
	addq $X_SIZE-8, %rsp
	ret
	.cfi_endproc
	.size ltr_return_common, . - ltr_return_common

	/* ltr_tramp_of() (lib/interposer.h) counts on blocks of 16 bytes. */
	.if ltr_enter_thunk - ltr_tramp_blocks - 16 * LTR_RETS
	.error "a return trampoline block is not 16 bytes"
	.endif
