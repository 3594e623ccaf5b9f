/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack-rules.h: unwind a stack copy with call-frame rules cached per pc. */
#ifndef LTRUSS_STACK_RULES_H
#define LTRUSS_STACK_RULES_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>

#include "lib/session.h"
#include "stack.h"

struct rule_cache;

/*
 * An empty cache of the rules of one file's code, by address in the
 * file; module(arg) gives the file's libdw module (loaded at its ELF
 * addresses, bias 0), or NULL, when the rules of a new pc are needed.
 */
struct rule_cache *rules_new(Dwfl_Module *(*module)(void *arg), void *arg);
void rules_free(struct rule_cache *rc);

/* Has the code at address pc of rc's file (NULL: none) unwind information? */
bool rules_have_cfi(struct rule_cache *rc, uint64_t pc);

/*
 * Where the code at address pc of the stack's process lies: the rules of
 * its file, and in *rel the address in the file; NULL if in no file known.
 */
typedef struct rule_cache *rules_find_fn(void *arg, uint64_t pc,
					 uint64_t *rel);

/* A word a walk read from the copy: at regs->sp + off, and its value. */
struct rules_read {
	uint64_t off, val;
	bool need; /* the frames depend on val (else only on the read's place) */
};

/*
 * What a walk's frames depend on, besides its pc, its stack pointer and
 * the rules: the registers whose value it used as they came (a mask of
 * the callee-saved ones, and their values); that its reads of the copy
 * fell inside it, up to reach bytes above the stack pointer, and the
 * last perhaps outside (failed, at fail_off); and the value of the words
 * a frame used (return addresses, saved registers a CFA was computed
 * from; a saved register only restored is read, its value never used).
 * The same inputs give the same frames: stack-cache.c keeps walks by them.
 * A walk that computed no CFA from a register but the stack pointer
 * (!absolute) read the copy only at offsets from the stack pointer: the
 * same words at the same offsets of a copy at another stack pointer give
 * the same frames, each that much higher or lower.
 */
struct rules_inputs {
	bool absolute; /* a CFA was computed from a register's value */
	uint8_t regs;
	uint64_t reg[6];
	uint64_t reach;       /* 0: no read fell inside */
	bool failed;
	uint64_t fail_off;
	unsigned n, cap;      /* n > cap: more reads than r holds */
	struct rules_read *r; /* the words whose value matters (cap, from the caller) */
	/*
	 * If not NULL, told how each frame the walk followed lies, when the
	 * interposer can follow it too (stack-hints.h): LTR_HINT_* kind,
	 * its CFA at its stack pointer plus off.
	 */
	void (*hint)(void *arg, uint64_t pc, unsigned kind, uint64_t off);
	void *hint_arg;
};

/*
 * Unwind the copy of [regs->sp, regs->sp + len) into at most max frames
 * (pc and lookup; obj left NULL), the rules of each pc from find(arg);
 * returns how many, and in *end why they end, or -1 when a frame's rules
 * are more than constants (a signal frame, an expression): then libdw
 * must unwind it.  What it read goes into *in, unless in is NULL.
 */
int rules_walk(rules_find_fn *find, void *arg,
	       const struct ltr_stack_regs *regs, const unsigned char *copy,
	       size_t len, struct stack_frame *frames, unsigned max,
	       enum stack_end *end, struct rules_inputs *in);

/*
 * The frames rules_walk finds in the sparse copy (LTR_BLOBF_SPARSE) of
 * k words (struct ltr_stack_word each) at regs: read off its words, when
 * every frame the walk follows is one the interposer follows (its CFA
 * the stack pointer plus a constant, its return address the word below:
 * the words are then their return addresses, in order, and nothing else
 * the walk reads changes its frames), checked frame by frame against the
 * rules; -1 when one is not, or the words are not those (then walk it).
 */
int rules_follow(rules_find_fn *find, void *arg,
		 const struct ltr_stack_regs *regs, const unsigned char *words,
		 size_t k, struct stack_frame *frames, unsigned max,
		 enum stack_end *end);

/*
 * Would a walk of this copy (regs, [regs->sp, regs->sp + len)) read what
 * in says, and so find the same frames, given the same pc and sp?
 */
bool rules_same_inputs(const struct rules_inputs *in,
		       const struct ltr_stack_regs *regs,
		       const unsigned char *copy, size_t len);

#endif
