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

/*
 * Unwind the copy of [regs->sp, regs->sp + len) into at most max frames
 * (pc and lookup; obj left NULL), the rules of each pc from find(arg);
 * returns how many, and in *end why they end, or -1 when a frame's rules
 * are more than constants (a signal frame, an expression): then libdw
 * must unwind it.
 */
int rules_walk(rules_find_fn *find, void *arg,
	       const struct ltr_stack_regs *regs, const unsigned char *copy,
	       size_t len, struct stack_frame *frames, unsigned max,
	       enum stack_end *end);

#endif
