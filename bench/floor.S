/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * floor.S: the least a tracer that times calls by their returns can cost.
 *
 * ltruss's -c must see each traced call's return to time it, as every
 * tracer of returns does (uftrace, ltrace): the return address is replaced
 * by a trampoline, so the function's "ret" is always mispredicted, and two
 * clock reads are made.  These stubs do exactly that and nothing more: no
 * register saved beyond the third argument, one thread, one global shadow
 * stack, no check of any kind.  bench/floor.c times a call through each of
 * them; what they add is the floor no real tracer of returns can go under
 * on this machine, and bench/run prints it beside the -c target.
 */
	.section .note.GNU-stack, "", @progbits
	.text

/* Only the jump a stub costs: the base the others are compared with. */
	.globl floor_stub_jump
	.type floor_stub_jump, @function
floor_stub_jump:
	jmp floor_target
	.size floor_stub_jump, . - floor_stub_jump

/*
 * STUB name timed: push the return address and hijack it; on return pop
 * it and count the call.  timed: also keep the entry time and add up the
 * duration, -c's least.
 */
	.macro STUB name, timed
	.globl \name
	.type \name, @function
\name:
	movq floor_top(%rip), %r11
	movq (%rsp), %r10
	movq %r10, (%r11)
	.if \timed
	movq %rdx, %r10		/* rdtsc clobbers the third argument */
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, 8(%r11)
	movq %r10, %rdx
	.endif
	addq $16, %r11
	movq %r11, floor_top(%rip)
	leaq 1f(%rip), %r10
	movq %r10, (%rsp)
	jmp floor_target
1:
	.if \timed
	movq %rax, %r10		/* the function's result */
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	.endif
	movq floor_top(%rip), %r11
	subq $16, %r11
	movq %r11, floor_top(%rip)
	.if \timed
	subq 8(%r11), %rax
	addq %rax, floor_ticks(%rip)
	movq %r10, %rax
	.endif
	incq floor_calls(%rip)
	jmp *(%r11)
	.size \name, . - \name
	.endm

	STUB floor_stub_hijack, 0
	STUB floor_stub_timed, 1

	.bss
	.p2align 6
	.globl floor_top, floor_calls, floor_ticks, floor_shadow
floor_top: .quad 0
floor_calls: .quad 0
floor_ticks: .quad 0
	.p2align 6
floor_shadow: .zero 16 * 64
