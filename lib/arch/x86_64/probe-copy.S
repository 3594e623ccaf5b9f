/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe-copy.S: copies that may fault, and the signal return they need.
 *
 * ltr_probe_copy(dst, src, len) copies the C string at src, up to len
 * bytes, and returns how many it copied (the NUL included when it found
 * one).  It reads the string a word at a time, with aligned 8-byte loads:
 * such a load never crosses a page, so it faults only where the string's
 * own bytes cannot be read, and a page that holds a byte of the string
 * can be read whole.  The first word is shifted down past the bytes before
 * src (zeros come in at the top: a NUL found there is not the string's);
 * a NUL in a word is its lowest byte whose (w - 0x01..01) & ~w & 0x80..80
 * bit is set.  Its only load from the program's memory is the one
 * instruction at ltr_probe_load; the count lives in %rax throughout.  When
 * that load faults, the interposer's SIGSEGV/SIGBUS handler
 * (lib/fault-copy.c) moves the interrupted %rip to ltr_probe_fixup, and
 * the call returns the bytes copied before the fault, like a short read.
 * Only general registers are used: the hot path leaves the vector ones
 * alone.
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
	xorl	%eax, %eax		/* bytes copied */
	testq	%rdx, %rdx
	jz	ltr_probe_fixup
	movq	%rsi, %rcx
	andl	$7, %ecx
	subq	%rcx, %rsi		/* the aligned word that holds src */
	shll	$3, %ecx		/* bits to drop from the first word */
	movl	$8, %r9d
	movl	%ecx, %r10d
	shrl	$3, %r10d
	subl	%r10d, %r9d		/* bytes of the string in this word */
ltr_probe_load:
	movq	(%rsi), %r8
	shrq	%cl, %r8
	xorl	%ecx, %ecx		/* later words: nothing to drop */
	movabsq	$0x0101010101010101, %r10
	movq	%r8, %r11
	subq	%r10, %r11
	movq	%r8, %r10
	notq	%r10
	andq	%r10, %r11
	movabsq	$0x8080808080808080, %r10
	andq	%r10, %r11		/* a bit at each NUL, exact at the lowest */
	jz	2f
	bsfq	%r11, %r11
	shrl	$3, %r11d		/* the first NUL's byte */
	cmpl	%r9d, %r11d
	jae	2f			/* a dropped byte, not the string's */
	leal	1(%r11), %r9d		/* up to the NUL, included */
	movl	$1, %r11d		/* and stop there */
	jmp	3f
2:	xorl	%r11d, %r11d		/* no NUL in this word */
3:	movq	%rdx, %r10
	subq	%rax, %r10		/* room left */
	cmpq	%r9, %r10
	ja	4f
	movq	%r10, %r9		/* cut at len */
	movl	$1, %r11d
4:	cmpl	$8, %r9d
	jne	5f
	movq	%r8, (%rdi,%rax)
	addq	$8, %rax
	jmp	8f
5:	testl	$4, %r9d
	jz	6f
	movl	%r8d, (%rdi,%rax)
	shrq	$32, %r8
	addq	$4, %rax
6:	testl	$2, %r9d
	jz	7f
	movw	%r8w, (%rdi,%rax)
	shrq	$16, %r8
	addq	$2, %rax
7:	testl	$1, %r9d
	jz	8f
	movb	%r8b, (%rdi,%rax)
	incq	%rax
8:	testl	%r11d, %r11d
	jnz	ltr_probe_fixup
	addq	$8, %rsi
	movl	$8, %r9d
	jmp	ltr_probe_load
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
