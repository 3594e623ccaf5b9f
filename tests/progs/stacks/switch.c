/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * switch.c: a traced call made on a stack of the program's own, switched
 * to as Go's runtime.asmcgocall switches to the system stack
 * (tests/stacks.bats): main -> run_on (assembly: switches stacks) ->
 * on_new_stack -> getppid.  run_on's unwind information describes its
 * frame as if it never left the stack it came from, as Go's does, so an
 * unwinder that follows it reads a return address from above the top of
 * the new stack, where this program left garbage (0x47a886c02be3aa5b, the
 * value seen under a real cgo program).  Arguments: "deep" makes the
 * call through a chain of frames on the new stack first, "expr" switches
 * with run_on_expr.
 * Prints "ppid ok" when the call on the other stack gave getppid().
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK_SIZE (64 << 10)
#define GARBAGE 0x47a886c02be3aa5bull
#define KEEP() __asm__ volatile("" ::: "memory")

/*
 * Call fn on the stack whose top is top; its result.  run_on_expr says the
 * same with a DWARF expression for its CFA, which sends ltruss to libdw's
 * own walk (stack-rules.c): both ways must stop at the switch.
 */
long run_on(long (*fn)(void), void *top);
long run_on_expr(long (*fn)(void), void *top);
#define RUN_ON(name, cfa) \
	".text\n.globl " name "\n.type " name ", @function\n" name ":\n" \
	".cfi_startproc\n" \
	"	push %rbp\n" cfa \
	".cfi_rel_offset %rbp, 0\n" \
	"	mov %rsp, %rbp\n" \
	/* The switch: the CFI still says "CFA = %rsp + 16". */ \
	"	mov %rsi, %rsp\n" \
	"	call *%rdi\n" \
	"	mov %rbp, %rsp\n" \
	"	pop %rbp\n" \
	".cfi_def_cfa %rsp, 8\n" \
	".cfi_restore %rbp\n" \
	"	ret\n" \
	".cfi_endproc\n" \
	".size " name ", .-" name "\n"
__asm__(RUN_ON("run_on", ".cfi_adjust_cfa_offset 8\n"));
/* DW_CFA_def_cfa_expression: DW_OP_breg7 (%rsp) 16. */
__asm__(RUN_ON("run_on_expr", ".cfi_escape 0x0f, 0x02, 0x77, 0x10\n"));

static int deep;

/* A few frames on the new stack before the traced call. */
static __attribute__((noinline)) long nested(int n)
{
	long r = n ? nested(n - 1) : getppid();

	KEEP();
	return r;
}

/* Runs on the new stack: the traced call. */
static __attribute__((noinline)) long on_new_stack(void)
{
	long r = deep ? nested(3) : getppid();

	KEEP();
	return r + 1;
}

int main(int argc, char **argv)
{
	unsigned long long *area;
	size_t i;
	long (*run)(long (*)(void), void *) = run_on;

	deep = argc > 1 && strcmp(argv[1], "deep") == 0;
	if (argc > 1 && strcmp(argv[1], "expr") == 0)
		run = run_on_expr;
	/* The new stack, and garbage above its top (where run_on's rule points). */
	area = mmap(NULL, 2 * STACK_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return 1;
	for (i = 0; i < 2 * STACK_SIZE / sizeof(*area); i++)
		area[i] = GARBAGE;
	if (run(on_new_stack, (char *)area + STACK_SIZE) != getppid() + 1)
		return 1;
	puts("ppid ok");
	return 0;
}
