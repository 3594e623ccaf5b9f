/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * own.c: a program's own functions, static and global, called directly,
 * recursively, by a tail call and through a pointer, and functions entry
 * patching must refuse (a 3-byte one, a loop back into the entry, a
 * branch into the first bytes); it prints how often each was entered.
 * Usage: patch-own [N]
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned n_sq, n_depth, n_hop, n_fact;

/* A static function (noinline: its calls stay calls at -O2). */
__attribute__((noinline)) static int sq(int x)
{
	n_sq++;
	return x * x;
}

/* Recursion: the work after the call keeps it a real call. */
__attribute__((noinline)) int depth(int n)
{
	int r;

	n_depth++;
	if (n == 0)
		return 0;
	r = depth(n - 1);
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

/* A tail call: compiled as a jmp to sq. */
__attribute__((noinline)) int hop(int x)
{
	n_hop++;
	return sq(x + 1);
}

/* A global function called only through a pointer. */
__attribute__((noinline)) long fact(long n)
{
	n_fact++;
	return n <= 1 ? 1 : n * 2;
}

/* Three bytes (xor; ret) without endbr64: too short to patch. */
__attribute__((noinline)) int zero(void)
{
	return 0;
}

/*
 * spin loops back to its first instruction; jumper jumps into the second
 * instruction of landing: neither can be patched.
 */
__asm__(".text\n"
	".globl spin\n.type spin,@function\n"
	"spin:\n\tdec %edi\n\tjnz spin\n\tmov %edi, %eax\n\tret\n"
	".size spin,.-spin\n"
	".globl landing\n.type landing,@function\n"
	"landing:\n\txor %eax, %eax\nlanding_mid:\n\tadd %edi, %eax\n"
	"\tadd %edi, %eax\n\tadd %edi, %eax\n\tret\n"
	".size landing,.-landing\n"
	".globl jumper\n.type jumper,@function\n"
	"jumper:\n\tmov $1, %eax\n\tjmp landing_mid\n"
	".size jumper,.-jumper\n");
int spin(int n);
int landing(int x);
int jumper(int x);

int main(int argc, char **argv)
{
	long (*volatile fp)(long) = fact;
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += sq(i);
		sum += hop(i);
		sum += fp(i);
		sum += zero() + spin(3) + landing(i) + jumper(i);
	}
	sum += depth(n);
	printf("sum %ld\n", sum);
	printf("sq %u\ndepth %u\nhop %u\nfact %u\n", n_sq, n_depth, n_hop,
	       n_fact);
	return 0;
}
