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

/* Push the return address, hijack it; on return pop it and count the call. */
	.globl floor_stub_hijack
	.type floor_stub_hijack, @function
floor_stub_hijack:
	movq floor_top(%rip), %r11
	movq (%rsp), %r10
	movq %r10, (%r11)
	addq $16, %r11
	movq %r11, floor_top(%rip)
	leaq hijack_return(%rip), %r10
	movq %r10, (%rsp)
	jmp floor_target
hijack_return:
	movq floor_top(%rip), %r11
	subq $16, %r11
	movq %r11, floor_top(%rip)
	incq floor_calls(%rip)
	jmp *(%r11)
	.size floor_stub_hijack, . - floor_stub_hijack

/* The same, with the entry time kept and the duration added up: -c's least. */
	.globl floor_stub_timed
	.type floor_stub_timed, @function
floor_stub_timed:
	movq floor_top(%rip), %r11
	movq (%rsp), %r10
	movq %r10, (%r11)
	movq %rdx, %r10		/* rdtsc clobbers the third argument */
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, 8(%r11)
	movq %r10, %rdx
	addq $16, %r11
	movq %r11, floor_top(%rip)
	leaq timed_return(%rip), %r10
	movq %r10, (%rsp)
	jmp floor_target
timed_return:
	movq %rax, %r10		/* the function's result */
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq floor_top(%rip), %r11
	subq $16, %r11
	movq %r11, floor_top(%rip)
	subq 8(%r11), %rax
	addq %rax, floor_ticks(%rip)
	incq floor_calls(%rip)
	movq %r10, %rax
	jmp *(%r11)
	.size floor_stub_timed, . - floor_stub_timed

	.bss
	.p2align 6
	.globl floor_top, floor_calls, floor_ticks, floor_shadow
floor_top: .quad 0
floor_calls: .quad 0
floor_ticks: .quad 0
	.p2align 6
floor_shadow: .zero 16 * 64
