/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack-rules.h: unwind a stack copy with call-frame rules cached per pc. */
#ifndef LTRUSS_STACK_RULES_H
#define LTRUSS_STACK_RULES_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>

#include "../lib/session.h"
#include "stack.h"

struct rule_cache;

/* An empty cache of rules, for one process layout. */
struct rule_cache *rules_new(void);
void rules_free(struct rule_cache *rc);

/* Has the code at pc call-frame information in dwfl's modules? */
bool rules_have_cfi(struct rule_cache *rc, Dwfl *dwfl, uint64_t pc);

/* Is pc in one of dwfl's modules (an object the process had mapped)? */
bool rules_in_object(struct rule_cache *rc, Dwfl *dwfl, uint64_t pc);

/*
 * Unwind the copy of [regs->sp, regs->sp + len) into at most max frames
 * (pc and lookup; obj left NULL); returns how many, and in *end why they
 * end, or -1 when a frame's rules are more than constants (a signal
 * frame, an expression): then libdw must unwind it.
 */
int rules_walk(struct rule_cache *rc, Dwfl *dwfl,
	       const struct ltr_stack_regs *regs, const unsigned char *copy,
	       size_t len, struct stack_frame *frames, unsigned max,
	       enum stack_end *end);

#endif
