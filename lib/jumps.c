/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jumps.c: the second return of setjmp, made by longjmp.
 *
 * setjmp, _setjmp, sigsetjmp and __sigsetjmp save their caller's context,
 * so they are traced on entry only (their return is never hijacked).  Their
 * first return is 0; a later longjmp(env, val) makes the setjmp that filled
 * env return again, with val (1 for 0), and that is the event users look
 * for.  Each thread remembers the buffers of the last few setjmps it
 * showed; the longjmp family is hooked (lib/hooks.c binds the names), and
 * a longjmp to a remembered buffer marks that setjmp's return as pending.
 * The frames the jump skips are dropped as usual on the thread's next
 * traced call or return, where the stack pointer tells which are dead;
 * then, if the thread is back at the setjmp's level, its return is
 * reported ("<... libc:_setjmp resumed> = 5").  Nothing here touches the
 * shadow stack: a stale buffer can at worst cost the line, never a frame.
 */
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

typedef void (*longjmp_fn)(void *, int);

#define REAL(h) ((longjmp_fn)ltr_hook_real[h])

void ltr_setjmp_seen(struct ltr_tstate *ts, uint32_t fn, uint64_t env)
{
	struct ltr_jmp *j = NULL;
	uint32_t i;

	for (i = 0; i < LTR_JMPS && !j; i++)
		if (ts->jmps[i].env == env)
			j = &ts->jmps[i];
	if (!j)
		j = &ts->jmps[ts->jmp_next++ % LTR_JMPS];
	j->env = env;
	j->fn = fn;
	j->depth = ts->depth;
	j->t0 = ltr_rdtsc();
}

void ltr_setjmp_forget(struct ltr_tstate *ts)
{
	uint32_t i;

	for (i = 0; i < LTR_JMPS; i++)
		ts->jmps[i].env = 0;
	ts->jmp_next = 0;
	ts->jmp_pending = 0;
}

void ltr_setjmp_returns(struct ltr_tstate *ts)
{
	const struct ltr_jmp *j = &ts->jmps[(ts->jmp_pending - 1) % LTR_JMPS];

	ts->jmp_pending = 0;
	if (ts->depth == j->depth && !ltr_forked() &&
	    (ltr_flags & ts->flag_mask & LTR_F_TRACE))
		ltr_event_returns_again(ts, j->fn, j->depth, j->t0,
					ts->jmp_value, ts->jmp_tsc);
}

/* A longjmp to env with val (hook h): report it if selected, mark the setjmp. */
static void longjmp_seen(enum ltr_hook h, void *env, int val)
{
	struct ltr_tstate *ts = ltr_tls_self;
	uint32_t i;

	ltr_hook_note(h, (uint64_t)env, (uint64_t)val, 0);
	if (!ts || ts->busy || ltr_forked())
		return;
	for (i = 0; i < LTR_JMPS; i++) {
		if (ts->jmps[i].env != (uint64_t)env)
			continue;
		ts->jmp_value = (uint64_t)(val ? val : 1);
		ts->jmp_tsc = ltr_rdtsc();
		ts->jmp_pending = i + 1;
		return;
	}
}

void ltr_hook_longjmp(void *env, int val)
{
	longjmp_seen(LTR_H_LONGJMP, env, val);
	REAL(LTR_H_LONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook__longjmp(void *env, int val)
{
	longjmp_seen(LTR_H__LONGJMP, env, val);
	REAL(LTR_H__LONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook_siglongjmp(void *env, int val)
{
	longjmp_seen(LTR_H_SIGLONGJMP, env, val);
	REAL(LTR_H_SIGLONGJMP)(env, val);
	__builtin_unreachable();
}

void ltr_hook_longjmp_chk(void *env, int val)
{
	longjmp_seen(LTR_H_LONGJMP_CHK, env, val);
	REAL(LTR_H_LONGJMP_CHK)(env, val);
	__builtin_unreachable();
}
