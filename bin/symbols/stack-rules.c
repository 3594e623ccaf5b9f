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
 * address in no file of the process, or a CFA at or below the last one.
 * That is where code switched stacks without telling its rules (Go's
 * runtime.asmcgocall, a coroutine's switch in assembly): the rules then
 * point at whatever lies above the top of the new stack, and the "frame"
 * read there is garbage (0x47a886c02be3aa5b under a cgo program).
 *
 * The rules are those of a file's code, wherever it is loaded: they are
 * kept per file (stack-files.c), by address in the file, in a table that
 * grows with the pcs seen, so that any number of processes loading the
 * same library share them, and a file's module is asked for only when a
 * pc of it is new.
 */
#include "config.h"

#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "lib/session.h"
#include "stack-rules.h"
#include "xmalloc.h"

/* x86_64 DWARF register numbers: the callee-saved ones a walk follows. */
enum { R_RBX, R_RBP, R_R12, R_R13, R_R14, R_R15, R_RSP, NREGS };
static const int dwarf_reg[NREGS] = { 3, 6, 12, 13, 14, 15, 7 };
#define DW_RA 16

enum rule_kind { RULE_NONE = 1, RULE_SIMPLE, RULE_OUTERMOST, RULE_COMPLEX };
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
	/* Of the above, for each frame of a walk: asked once (rule_derive). */
	bool framed;            /* sp_framed() */
	bool any_at;            /* a register is REG_AT */
	int64_t at_low;         /* the lowest of their offsets */
};

/* The rules of one file's pcs, by open addressing. */
struct rule_cache {
	struct rule *r;
	size_t size, used; /* size: a power of two, or 0 */
	Dwfl_Module *(*module)(void *arg);
	void *arg;
};

struct rule_cache *rules_new(Dwfl_Module *(*module)(void *arg), void *arg)
{
	struct rule_cache *rc = xcalloc(1, sizeof(*rc));

	rc->module = module;
	rc->arg = arg;
	return rc;
}

void rules_free(struct rule_cache *rc)
{
	if (rc)
		free(rc->r);
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

static void rule_derive(struct rule *r);

/*
 * Ask libdw for the rules at pc of module mod (NULL: none), from
 * .eh_frame or else .debug_frame.
 */
static void rule_compute(Dwfl_Module *mod, uint64_t pc, struct rule *r)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;

	memset(r, 0, sizeof(*r));
	r->pc = pc;
	r->kind = RULE_NONE;
	if (!mod)
		return;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) != 0)
			return;
	}
	rule_from_frame(frame, r);
	free(frame);
	rule_derive(r);
}

/* The slot of pc among rc's rules (rc->size > 0): its own, or a free one. */
static struct rule *rule_slot(struct rule_cache *rc, uint64_t pc)
{
	size_t i = (size_t)(pc * 0x9e3779b97f4a7c15ull >> 32) &
		   (rc->size - 1);

	while (rc->r[i].kind && rc->r[i].pc != pc)
		i = (i + 1) & (rc->size - 1);
	return &rc->r[i];
}

/* rule_at() of a pc not computed yet, or when rc must grow first. */
static __attribute__((noinline)) const struct rule *
rule_new(struct rule_cache *rc, uint64_t pc)
{
	struct rule *r;

	if (rc->used >= rc->size / 2) {
		/* Twice the slots, every rule moved to its new one. */
		struct rule *old = rc->r;
		size_t old_size = rc->size, i;

		rc->size = rc->size ? 2 * rc->size : 64;
		rc->r = xcalloc(rc->size, sizeof(*rc->r));
		for (i = 0; i < old_size; i++)
			if (old[i].kind)
				*rule_slot(rc, old[i].pc) = old[i];
		free(old);
	}
	r = rule_slot(rc, pc);
	if (!r->kind) {
		rule_compute(rc->module(rc->arg), pc, r);
		rc->used++;
	}
	return r;
}

/* The rules at pc of rc's file, computed on first use: a lookup, after it. */
static inline const struct rule *rule_at(struct rule_cache *rc, uint64_t pc)
{
	const struct rule *r;

	if (rc->used < rc->size / 2 && (r = rule_slot(rc, pc))->kind)
		return r;
	return rule_new(rc, pc);
}

bool rules_have_cfi(struct rule_cache *rc, uint64_t pc)
{
	return rc && rule_at(rc, pc)->kind != RULE_NONE;
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

/*
 * copy_word, the read noted in in (if not NULL) for rules_same_inputs:
 * where, and whether its value matters (need: a return address; a saved
 * register's only once a CFA is computed from it, note_use).
 */
static bool read_word(struct rules_inputs *in, const unsigned char *copy,
		      uint64_t sp, size_t len, uint64_t addr, uint64_t *v,
		      bool need)
{
	bool ok = copy_word(copy, sp, len, addr, v);

	if (in) {
		if (in->n < in->cap) {
			in->r[in->n].off = addr - sp;
			in->r[in->n].val = ok ? *v : 0;
			in->r[in->n].need = need;
		}
		in->n++;
		in->failed = !ok;
	}
	return ok;
}

/*
 * A CFA is computed from register reg, whose value v came from read
 * number from of the walk (-1: the first frame's register): that value
 * matters.
 */
static void note_use(struct rules_inputs *in, int from, int reg, uint64_t v)
{
	if (from < 0) {
		in->regs |= (uint8_t)(1u << reg);
		in->reg[reg] = v;
	} else if ((unsigned)from < in->cap) {
		in->r[from].need = true;
	}
}

/*
 * Can the interposer follow frame rule r (stack-hints.h): its CFA the
 * stack pointer plus a constant, its return address the word below, its
 * saved registers below the CFA (so that all the walk reads of it lies
 * below)?
 */
static bool framed_of(const struct rule *r)
{
	int i;

	if (r->cfa_reg != R_RSP || r->cfa_off <= 0 || r->ra_off != -8)
		return false;
	for (i = 0; i < NREGS - 1; i++)
		if (r->how[i] == REG_AT && r->off[i] >= 0)
			return false;
	return true;
}

/* What every walk asks of r, asked once when r is computed. */
static void rule_derive(struct rule *r)
{
	int i;

	r->framed = framed_of(r);
	r->any_at = false;
	r->at_low = 0;
	for (i = 0; i < NREGS - 1; i++) {
		if (r->how[i] != REG_AT)
			continue;
		if (!r->any_at || r->off[i] < r->at_low)
			r->at_low = r->off[i];
		r->any_at = true;
	}
}

/* framed_of(r), as rule_derive kept it. */
static bool sp_framed(const struct rule *r)
{
	return r->framed;
}

/* The registers of a walk's first frame, by R_*. */
static void first_regs(const struct ltr_stack_regs *regs, uint64_t *val)
{
	val[R_RBX] = regs->rbx;
	val[R_RBP] = regs->rbp;
	val[R_R12] = regs->r12;
	val[R_R13] = regs->r13;
	val[R_R14] = regs->r14;
	val[R_R15] = regs->r15;
	val[R_RSP] = regs->sp + 8;
}

bool rules_same_inputs(const struct rules_inputs *in,
		       const struct ltr_stack_regs *regs,
		       const unsigned char *copy, size_t len)
{
	uint64_t val[NREGS], v;
	unsigned i;

	if (in->n > in->cap || len < in->reach)
		return false;
	first_regs(regs, val);
	for (i = 0; i < R_RSP; i++)
		if (in->regs & (1u << i) && val[i] != in->reg[i])
			return false;
	if (in->failed &&
	    copy_word(copy, regs->sp, len, regs->sp + in->fail_off, &v))
		return false;
	/* Inside the copy: each read lies below reach. */
	for (i = 0; i < in->n; i++) {
		memcpy(&v, copy + in->r[i].off, sizeof(v));
		if (v != in->r[i].val)
			return false;
	}
	return true;
}

/* Keep of in's reads those whose value matters; note where the others fell. */
static void inputs_pack(struct rules_inputs *in)
{
	unsigned i, k = 0;

	in->reach = 0;
	if (in->n > in->cap)
		return;
	for (i = 0; i < in->n; i++) {
		if (in->failed && i + 1 == in->n) {
			in->fail_off = in->r[i].off;
			break;
		}
		if (in->r[i].off + 8 > in->reach)
			in->reach = in->r[i].off + 8;
		if (in->r[i].need)
			in->r[k++] = in->r[i];
	}
	in->n = k;
}

/* rules_walk, every read noted in in (if not NULL), unpacked. */
static int walk(rules_find_fn *find, void *arg,
		const struct ltr_stack_regs *regs, const unsigned char *copy,
		size_t len, struct stack_frame *frames, unsigned max,
		enum stack_end *end, struct rules_inputs *in)
{
	uint64_t val[NREGS];
	bool known[NREGS] = { true, true, true, true, true, true, true };
	int from[NREGS - 1] = { -1, -1, -1, -1, -1, -1 }; /* note_use */
	int at[NREGS - 1];
	uint64_t pc = regs->rip, lookup = regs->rip - 1;
	unsigned n = 0;
	int i;

	first_regs(regs, val);
	if (in) {
		in->absolute = false;
		in->regs = 0;
		in->n = 0;
		in->failed = false;
	}
	for (;;) {
		static const struct rule none = { .kind = RULE_NONE };
		const struct rule *r = &none;
		uint64_t cfa, ra, rel, saved[NREGS - 1];
		struct rule_cache *rc = find(arg, lookup, &rel);

		if (n && !rc) {
			*end = STACK_END_ASTRAY;
			return (int)n;
		}
		frames[n].pc = pc;
		frames[n].lookup = lookup;
		frames[n].obj = NULL;
		frames[n].sp = val[R_RSP];
		frames[n].cfa = 0;
		if (++n == max) {
			*end = STACK_END_LIMIT;
			return (int)n;
		}
		if (rc)
			r = rule_at(rc, rel);
		if (r->kind == RULE_COMPLEX)
			return -1;
		if (r->kind == RULE_NONE) {
			*end = STACK_END_NO_CFI;
			return (int)n;
		}
		if (r->kind == RULE_OUTERMOST) {
			if (in && in->hint)
				in->hint(in->hint_arg, pc, LTR_HINT_OUTERMOST, 0);
			*end = STACK_END_START;
			return (int)n;
		}
		if (!known[r->cfa_reg]) {
			*end = STACK_END_UNKNOWN;
			return (int)n;
		}
		if (in && r->cfa_reg != R_RSP) {
			in->absolute = true;
			note_use(in, from[r->cfa_reg], r->cfa_reg,
				 val[r->cfa_reg]);
		}
		cfa = val[r->cfa_reg] + (uint64_t)r->cfa_off;
		/* Each caller's frame lies above its callee's: else garbage. */
		if (cfa <= val[R_RSP]) {
			*end = STACK_END_ASTRAY;
			return (int)n;
		}
		frames[n - 1].cfa = cfa;
		if (!read_word(in, copy, regs->sp, len,
			       cfa + (uint64_t)r->ra_off, &ra, true))
			goto outside;
		for (i = 0; i < NREGS - 1; i++) {
			at[i] = in ? (int)in->n : 0;
			if (r->how[i] == REG_AT &&
			    !read_word(in, copy, regs->sp, len,
				       cfa + (uint64_t)r->off[i], &saved[i],
				       false))
				goto outside;
		}
		for (i = 0; i < NREGS - 1; i++) {
			if (r->how[i] == REG_AT) {
				val[i] = saved[i];
				from[i] = at[i];
			} else if (r->how[i] == REG_UNDEF) {
				known[i] = false;
			}
		}
		if (in && in->hint && sp_framed(r))
			in->hint(in->hint_arg, pc, LTR_HINT_SP,
				 (uint64_t)r->cfa_off);
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

/*
 * Would the walk's reads of frame r's saved registers, at cfa, fall
 * inside the copy at sp?  (Below it, the walk would end there.)
 */
static bool saved_inside(const struct rule *r, uint64_t cfa, uint64_t sp)
{
	int i;

	if (!r->any_at)
		return true;
	/* The lowest address, if none wraps (offsets below 0: sp_framed). */
	if (r->at_low < 0 && cfa >= (uint64_t)-r->at_low)
		return cfa + (uint64_t)r->at_low >= sp;
	for (i = 0; i < NREGS - 1; i++)
		if (r->how[i] == REG_AT && cfa + (uint64_t)r->off[i] < sp)
			return false;
	return true;
}

int rules_follow(rules_find_fn *find, void *arg,
		 const struct ltr_stack_regs *regs, const unsigned char *words,
		 size_t k, struct stack_frame *frames, unsigned max,
		 enum stack_end *end)
{
	uint64_t frame_sp = regs->sp + 8, pc = regs->rip, lookup = pc - 1;
	uint64_t cfa, rel;
	struct ltr_stack_word w;
	const struct rule *r;
	unsigned n = 0;
	size_t i = 0;

	/* As walk() goes, a frame at a time; -1 where it would not. */
	for (;;) {
		struct rule_cache *rc = find(arg, lookup, &rel);

		if (n && !rc) {
			*end = STACK_END_ASTRAY;
			return i == k ? (int)n : -1;
		}
		frames[n] = (struct stack_frame){ .pc = pc, .lookup = lookup,
						  .sp = frame_sp };
		if (++n == max) {
			*end = STACK_END_LIMIT;
			return i == k ? (int)n : -1;
		}
		if (!rc)
			return -1;
		r = rule_at(rc, rel);
		if (r->kind == RULE_OUTERMOST) {
			*end = STACK_END_START;
			return i == k ? (int)n : -1;
		}
		if (r->kind != RULE_SIMPLE || !sp_framed(r) || i == k)
			return -1;
		memcpy(&w, words + i++ * sizeof(w), sizeof(w));
		cfa = frame_sp + (uint64_t)r->cfa_off;
		if (w.off != cfa - 8 - regs->sp || !saved_inside(r, cfa, regs->sp))
			return -1;
		frames[n - 1].cfa = cfa;
		frame_sp = cfa;
		if (!w.val) {
			*end = STACK_END_START;
			return i == k ? (int)n : -1;
		}
		pc = w.val;
		lookup = pc - 1;
	}
}

int rules_walk(rules_find_fn *find, void *arg,
	       const struct ltr_stack_regs *regs, const unsigned char *copy,
	       size_t len, struct stack_frame *frames, unsigned max,
	       enum stack_end *end, struct rules_inputs *in)
{
	int n = walk(find, arg, regs, copy, len, frames, max, end, in);

	if (in)
		inputs_pack(in);
	return n;
}
