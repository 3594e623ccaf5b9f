/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe-copy.S: copies that may fault, and the signal return they need.
 *
 * ltr_probe_copy(dst, src, len) copies the C string at src, up to len
 * bytes, and returns how many it copied (the NUL included when it found
 * one).  It reads the string 8 bytes at a time: a load that stays within
 * one page faults only where the string's own first byte cannot be read
 * (the page holds a byte of the string, so it can be read whole), and
 * near a page's end it loads the aligned word instead (aligned words never
 * cross a page), shifted down past the bytes before the string (zeros
 * come in at the top: a NUL found there is not the string's).  The NUL of
 * a word is its lowest byte whose (w - 0x01..01) & ~w & 0x80..80 bit is
 * set.  Whole words go to dst with one store; the last few bytes with
 * one store too, of the 8 bytes that end with them (those before them
 * were written last and are kept in %r9), so that a copy of sort's lines
 * costs a third of the byte loop it replaces (7 against 24 ns, 33 bytes
 * from the cache).  Its only load from the program's memory is the one
 * instruction at ltr_probe_load; the count lives in %rax throughout.
 * When that load faults, the interposer's SIGSEGV/SIGBUS handler
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
1:	leaq	(%rsi,%rax), %r10	/* the next bytes of the string */
	movl	%r10d, %ecx
	andl	$4095, %ecx
	cmpl	$4088, %ecx
	ja	2f
	xorl	%ecx, %ecx		/* 8 bytes in this page: all of them */
	movl	$8, %r11d
	jmp	ltr_probe_load
2:	movl	%r10d, %ecx		/* the page ends first: its aligned word */
	andl	$7, %ecx
	movl	$8, %r11d
	subl	%ecx, %r11d		/* bytes of the string in it */
	andq	$-8, %r10
	shll	$3, %ecx		/* bits before them */
ltr_probe_load:
	movq	(%r10), %r8
	shrq	%cl, %r8
	movabsq	$0x0101010101010101, %r10
	movq	%r8, %rcx
	subq	%r10, %rcx
	movq	%r8, %r10
	notq	%r10
	andq	%r10, %rcx
	movabsq	$0x8080808080808080, %r10
	andq	%r10, %rcx		/* a bit at each NUL, exact at the lowest */
	movq	%rdx, %r10
	subq	%rax, %r10		/* room left */
	testq	%rcx, %rcx
	jnz	3f
	cmpq	$8, %r10
	jb	3f
	movq	%r8, (%rdi,%rax)	/* 8 bytes, no NUL, room for more */
	movq	%r8, %r9		/* the last 8 bytes written */
	addq	$8, %rax
	cmpq	%rdx, %rax
	jb	1b
	ret
3:	testq	%rcx, %rcx		/* k bytes of this word: up to its NUL, */
	jz	4f
	bsfq	%rcx, %rcx
	shrl	$3, %ecx
	cmpl	%r11d, %ecx
	jae	4f			/* (a zero shifted in is not the string's) */
	leal	1(%rcx), %r11d
4:	cmpq	%r11, %r10		/* and the room left */
	jae	5f
	movq	%r10, %r11
5:	cmpl	$8, %r11d
	je	7f
	cmpq	$8, %rax
	jb	8f
	/*
	 * One 8-byte store ending at the last byte: the 7 - k bytes before
	 * the k new ones are those written last, in %r9.
	 */
	leal	(,%r11,8), %ecx
	shrq	%cl, %r9
	negl	%ecx
	addl	$64, %ecx
	shlq	%cl, %r8
	orq	%r8, %r9
	addq	%r11, %rax
	movq	%r9, -8(%rdi,%rax)
	jmp	6f
7:	movq	%r8, (%rdi,%rax)	/* the NUL is byte 7 */
	movq	%r8, %r9
	addq	$8, %rax
	jmp	6f
8:	movb	%r8b, (%rdi,%rax)	/* the first bytes: one at a time */
	shrq	$8, %r8
	incq	%rax
	decl	%r11d
	jnz	8b
	cmpq	$8, %rax
	jb	6f
	movq	-8(%rdi,%rax), %r9
6:	cmpq	%rdx, %rax		/* stop at len, or after the NUL */
	jae	ltr_probe_fixup
	cmpb	$0, -1(%rdi,%rax)
	jne	1b
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
