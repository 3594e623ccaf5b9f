/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-rules.c: the fast way to unwind a stack copy, with cached CFI rules.
 *
 * libdw's unwinder (stack.c) interprets the call-frame information of
 * every frame of every call anew, allocating as it goes: some
 * microseconds a call, which with -k on a busy program is more than the
 * program itself spends.  But a program makes its calls from few places,
 * and almost every frame of compiled code follows the simplest rules:
 * the canonical frame address (CFA) is %rsp or %rbp plus a constant, the
 * return address and the saved registers lie at constant offsets from
 * it.  So the rules for each pc are asked of libdw once (the CFI row
 * that holds it), reduced to those constants, and kept; a walk is then a
 * few loads a frame from the copy.  A frame whose rules are not that
 * simple (a signal frame, a DWARF expression) sends the whole walk back
 * to libdw; a pc without rules ends the stack, as in libdw's walk.
 *
 * A walk stops before a frame it cannot trust: past the first, a return
 * address in no object of the process, or a CFA at or below the last
 * one.  That is where code switched stacks without telling its rules (Go's
 * runtime.asmcgocall, a coroutine's switch in assembly): the rules then
 * point at whatever lies above the top of the new stack, and the "frame"
 * read there is garbage (0x47a886c02be3aa5b under a cgo program).
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/session.h"
#include "stack-rules.h"
#include "xmalloc.h"

#define RULES 4096 /* cached pcs per process layout, a power of two */

/* x86_64 DWARF register numbers: the callee-saved ones a walk follows. */
enum { R_RBX, R_RBP, R_R12, R_R13, R_R14, R_R15, R_RSP, NREGS };
static const int dwarf_reg[NREGS] = { 3, 6, 12, 13, 14, 15, 7 };
#define DW_RA 16

enum rule_kind { RULE_NONE = 1, RULE_NO_OBJECT, RULE_SIMPLE, RULE_OUTERMOST,
		 RULE_COMPLEX };
enum reg_how { REG_SAME, REG_UNDEF, REG_AT };

/* The rules of the frame at one pc, reduced to constants. */
struct rule {
	uint64_t pc;
	uint8_t kind;      /* enum rule_kind; 0: an empty entry */
	uint8_t cfa_reg;   /* R_* the CFA is computed from */
	int64_t cfa_off;
	int64_t ra_off;    /* the return address is at CFA + ra_off */
	uint8_t how[NREGS - 1]; /* enum reg_how of each callee-saved register */
	int64_t off[NREGS - 1]; /* REG_AT: saved at CFA + off */
};

struct rule_cache {
	struct rule r[RULES];
};

struct rule_cache *rules_new(void)
{
	return xcalloc(1, sizeof(struct rule_cache));
}

void rules_free(struct rule_cache *rc)
{
	free(rc);
}

/* R_* of DWARF register dw, or -1 if a walk does not follow it. */
static int reg_of(unsigned long long dw)
{
	int i;

	for (i = 0; i < NREGS; i++)
		if ((unsigned long long)dwarf_reg[i] == dw)
			return i;
	return -1;
}

/* An offset from the CFA as libdw gives it (CFA, CFA+N); false if not that. */
static bool cfa_offset(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	if (nops < 1 || nops > 2 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (nops == 2 && ops[1].atom != DW_OP_plus_uconst)
		return false;
	*off = nops == 2 ? (int64_t)ops[1].number : 0;
	return true;
}

/* Reduce libdw's frame to r: how its CFA, return address and registers go. */
static void rule_from_frame(Dwarf_Frame *frame, struct rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool signal;
	int i, reg;

	r->kind = RULE_COMPLEX;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) != DW_RA || signal)
		return;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || (reg = reg_of(ops[0].number)) < 0)
		return;
	r->cfa_reg = (uint8_t)reg;
	r->cfa_off = (int64_t)ops[0].number2;
	if (dwarf_frame_register(frame, DW_RA, mem, &ops, &nops) != 0)
		return;
	if (nops == 0 && ops == mem) {
		r->kind = RULE_OUTERMOST; /* the return address is undefined */
		return;
	}
	if (!cfa_offset(ops, nops, &r->ra_off))
		return;
	for (i = 0; i < NREGS - 1; i++) {
		if (dwarf_frame_register(frame, dwarf_reg[i], mem, &ops,
					 &nops) != 0)
			return;
		if (nops == 0)
			r->how[i] = ops ? REG_UNDEF : REG_SAME;
		else if (cfa_offset(ops, nops, &r->off[i]))
			r->how[i] = REG_AT;
		else
			return;
	}
	r->kind = RULE_SIMPLE;
}

/* Ask libdw for the rules at pc, from .eh_frame or else .debug_frame. */
static void rule_compute(Dwfl *dwfl, uint64_t pc, struct rule *r)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;

	memset(r, 0, sizeof(*r));
	r->pc = pc;
	r->kind = RULE_NO_OBJECT;
	if (!mod)
		return;
	r->kind = RULE_NONE;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			return;
	}
	rule_from_frame(frame, r);
	free(frame);
}

/* The rules at pc, cached. */
static const struct rule *rule_at(struct rule_cache *rc, Dwfl *dwfl,
				  uint64_t pc)
{
	struct rule *r = &rc->r[(pc ^ pc >> 12) & (RULES - 1)];

	if (!r->kind || r->pc != pc)
		rule_compute(dwfl, pc, r);
	return r;
}

bool rules_have_cfi(struct rule_cache *rc, Dwfl *dwfl, uint64_t pc)
{
	uint8_t kind = rule_at(rc, dwfl, pc)->kind;

	return kind != RULE_NONE && kind != RULE_NO_OBJECT;
}

bool rules_in_object(struct rule_cache *rc, Dwfl *dwfl, uint64_t pc)
{
	return rule_at(rc, dwfl, pc)->kind != RULE_NO_OBJECT;
}

/* The word at addr of the copy of [sp, sp + len); false outside it. */
static bool copy_word(const unsigned char *copy, uint64_t sp, size_t len,
		      uint64_t addr, uint64_t *v)
{
	if (addr < sp || len < 8 || addr - sp > len - 8)
		return false;
	memcpy(v, copy + (addr - sp), sizeof(*v));
	return true;
}

int rules_walk(struct rule_cache *rc, Dwfl *dwfl,
	       const struct ltr_stack_regs *regs, const unsigned char *copy,
	       size_t len, struct stack_frame *frames, unsigned max,
	       enum stack_end *end)
{
	uint64_t val[NREGS] = { regs->rbx, regs->rbp, regs->r12, regs->r13,
				regs->r14, regs->r15, regs->sp + 8 };
	bool known[NREGS] = { true, true, true, true, true, true, true };
	uint64_t pc = regs->rip, lookup = regs->rip - 1;
	unsigned n = 0;
	int i;

	for (;;) {
		const struct rule *r = rule_at(rc, dwfl, lookup);
		uint64_t cfa, ra, saved[NREGS - 1];

		if (n && r->kind == RULE_NO_OBJECT) {
			*end = STACK_END_ASTRAY;
			return (int)n;
		}
		frames[n].pc = pc;
		frames[n].lookup = lookup;
		frames[n].obj = NULL;
		if (++n == max) {
			*end = STACK_END_LIMIT;
			return (int)n;
		}
		if (r->kind == RULE_COMPLEX)
			return -1;
		if (r->kind == RULE_NONE || r->kind == RULE_NO_OBJECT) {
			*end = r->kind == RULE_NONE ? STACK_END_NO_CFI
						    : STACK_END_UNKNOWN;
			return (int)n;
		}
		if (r->kind == RULE_OUTERMOST) {
			*end = STACK_END_START;
			return (int)n;
		}
		if (!known[r->cfa_reg]) {
			*end = STACK_END_UNKNOWN;
			return (int)n;
		}
		cfa = val[r->cfa_reg] + (uint64_t)r->cfa_off;
		/* Each caller's frame lies above its callee's: else garbage. */
		if (cfa <= val[R_RSP]) {
			*end = STACK_END_ASTRAY;
			return (int)n;
		}
		if (!copy_word(copy, regs->sp, len, cfa + (uint64_t)r->ra_off, &ra))
			goto outside;
		for (i = 0; i < NREGS - 1; i++) {
			if (r->how[i] == REG_AT &&
			    !copy_word(copy, regs->sp, len,
				       cfa + (uint64_t)r->off[i], &saved[i]))
				goto outside;
		}
		for (i = 0; i < NREGS - 1; i++) {
			if (r->how[i] == REG_AT)
				val[i] = saved[i];
			else if (r->how[i] == REG_UNDEF)
				known[i] = false;
		}
		val[R_RSP] = cfa;
		if (!ra) {
			*end = STACK_END_START;
			return (int)n;
		}
		pc = ra;
		lookup = ra - 1;
	}
outside:
	*end = STACK_END_COPY;
	return (int)n;
}
