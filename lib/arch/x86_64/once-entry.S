/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * once-entry.S: the handler the kernel calls for the program's handler of
 * a signal ltruss passes on (lib/forward-once.c).
 *
 * ltr_once_entry(sig, info, context) asks ltr_once_dispatch what to do
 * with this delivery: 0 drops it (a second copy of one signal), returning
 * to the signal frame's restorer; else it is the program's handler, which
 * is jumped to with the kernel's three arguments and the stack as the
 * kernel made it.  The program's handler then returns to the restorer
 * itself: between it and the signal frame there is no frame of ours, so
 * that a backtrace, gdb, libgcc's unwinder and ltruss -k see the stack
 * they see untraced.  While ltr_once_dispatch runs, the CFI below lets
 * an unwinder through this function.
 */

	.section .note.GNU-stack, "", @progbits

	.text
	.globl	ltr_once_entry
	.hidden	ltr_once_entry
	.type	ltr_once_entry, @function
ltr_once_entry:
	.cfi_startproc
	endbr64
	/* The arguments, kept: three pushes align the stack for the call. */
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	call	ltr_once_dispatch
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	testq	%rax, %rax
	jz	1f
	/* %eax as the kernel leaves it for a handler: 0 (no vector arguments). */
	movq	%rax, %r11
	xorl	%eax, %eax
	jmp	*%r11
1:	ret
	.cfi_endproc
	.size	ltr_once_entry, . - ltr_once_entry
