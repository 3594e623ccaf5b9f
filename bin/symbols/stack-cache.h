/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack-cache.h: walks of stack copies kept, for a repeated stack. */
#ifndef LTRUSS_STACK_CACHE_H
#define LTRUSS_STACK_CACHE_H

#include "stack.h"
#include "stack-rules.h"

/*
 * What a walk is kept by: the hash of its copy's stack pointer (words
 * NULL), or of a sparse copy's span and words (LTR_BLOBF_SPARSE), then
 * given to any copy of the same words, at any stack pointer.
 */
struct stackcache_key {
	uint64_t hash;
	const void *words; /* words_len bytes */
	size_t words_len;
};

/*
 * The frames of a walk of pid's copy (regs, [regs->sp, regs->sp + len))
 * into at most max frames that was kept by key, with objects map objs;
 * how many into frames (if not NULL), why they end in *end, the walk's
 * serial in *serial; -1 if none was.  (With key->words, copy is not
 * read.)
 */
int stackcache_find(const struct stack_objects *objs, int pid,
		    const struct stackcache_key *key,
		    const struct ltr_stack_regs *regs,
		    const unsigned char *copy, size_t len, unsigned max,
		    struct stack_frame *frames, enum stack_end *end,
		    uint64_t *serial);

/*
 * Keep the walk of the same arguments that found frames[n] and end from
 * in; returns its serial (a number no other walk kept has, or will
 * have, in this run), 0 if it was not kept.
 */
uint64_t stackcache_add(const struct stack_objects *objs, int pid,
			const struct stackcache_key *key,
			const struct ltr_stack_regs *regs, unsigned max,
			const struct rules_inputs *in,
			const struct stack_frame *frames, unsigned n,
			enum stack_end end);

/* Are walks kept (not LTRUSS_NO_STACK_CACHE, for the tests and the bench)? */
bool stackcache_on(void);

/* Forget every walk. */
void stackcache_done(void);

#endif
