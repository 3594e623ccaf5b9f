/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe-copy.S: a byte copy that may fault, and the signal return it needs.
 *
 * ltr_probe_copy(dst, src, len, stop_at_nul) copies up to len bytes and
 * returns how many it copied (the NUL included when stop_at_nul is set and
 * one was found).  Its only load from the program's memory is the one
 * instruction at ltr_probe_load; the count lives in %rax throughout.  When
 * that load faults, the interposer's SIGSEGV/SIGBUS handler (lib/fault-copy.c)
 * moves the interrupted %rip to ltr_probe_fixup, and the call returns the
 * bytes copied before the fault, like a short read.
 *
 * ltr_probe_copy_bulk(dst, src, len) does the same without looking for a
 * NUL, with one "rep movsb" at ltr_probe_bulk_load: a fault there leaves
 * %rcx holding the bytes not copied yet (a string instruction stops at an
 * element boundary, its registers up to date), and the fix-up at
 * ltr_probe_bulk_fixup returns len - %rcx.  Kilobytes (a -k stack copy)
 * go at the speed of memcpy, not a byte a loop.
 *
 * ltr_sigreturn is the sa_restorer of that handler: the kernel needs one on
 * x86_64, and the audit namespace's libc is not asked for its own.
 */

	.section .note.GNU-stack, "", @progbits

	.text
	.globl	ltr_probe_copy
	.hidden	ltr_probe_copy
	.type	ltr_probe_copy, @function
	.globl	ltr_probe_load
	.hidden	ltr_probe_load
	.globl	ltr_probe_fixup
	.hidden	ltr_probe_fixup
ltr_probe_copy:
	.cfi_startproc
	endbr64
	xorl	%eax, %eax
1:	cmpq	%rdx, %rax
	jae	ltr_probe_fixup
ltr_probe_load:
	movzbl	(%rsi,%rax), %r8d
	movb	%r8b, (%rdi,%rax)
	incq	%rax
	testl	%ecx, %ecx
	jz	1b
	testb	%r8b, %r8b
	jnz	1b
ltr_probe_fixup:
	ret
	.cfi_endproc
	.size	ltr_probe_copy, . - ltr_probe_copy

	.globl	ltr_probe_copy_bulk
	.hidden	ltr_probe_copy_bulk
	.type	ltr_probe_copy_bulk, @function
	.globl	ltr_probe_bulk_load
	.hidden	ltr_probe_bulk_load
	.globl	ltr_probe_bulk_fixup
	.hidden	ltr_probe_bulk_fixup
ltr_probe_copy_bulk:
	.cfi_startproc
	endbr64
	movq	%rdx, %rax
	movq	%rdx, %rcx
ltr_probe_bulk_load:
	rep movsb
ltr_probe_bulk_fixup:
	subq	%rcx, %rax
	ret
	.cfi_endproc
	.size	ltr_probe_copy_bulk, . - ltr_probe_copy_bulk

	.globl	ltr_sigreturn
	.hidden	ltr_sigreturn
	.type	ltr_sigreturn, @function
ltr_sigreturn:
	movl	$15, %eax	/* SYS_rt_sigreturn */
	syscall
	.size	ltr_sigreturn, . - ltr_sigreturn
