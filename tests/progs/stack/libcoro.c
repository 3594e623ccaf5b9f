/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libcoro.c: resume and yield through swapcontext, as coroutine libraries do. */
#include <stdlib.h>
#include <ucontext.h>

#include "libcoro.h"

struct coro {
	ucontext_t ctx, caller;
	coro_fn fn;
	long arg, value;
	int done;
};

static struct coro *current;

/* The coroutine's first frame: run its function, then end. */
static void trampoline(void)
{
	struct coro *c = current;

	c->fn(c->arg);
	c->done = 1;
	c->value = -1;
	swapcontext(&c->ctx, &c->caller);
}

struct coro *coro_new(coro_fn fn, long arg, void *stack, size_t size)
{
	struct coro *c = calloc(1, sizeof(*c));

	getcontext(&c->ctx);
	c->ctx.uc_stack.ss_sp = stack;
	c->ctx.uc_stack.ss_size = size;
	c->ctx.uc_link = NULL;
	makecontext(&c->ctx, trampoline, 0);
	c->fn = fn;
	c->arg = arg;
	return c;
}

long coro_resume(struct coro *c)
{
	struct coro *prev = current;

	current = c;
	swapcontext(&c->caller, &c->ctx);
	current = prev;
	return c->value;
}

long coro_yield(long value)
{
	struct coro *c = current;

	c->value = value;
	swapcontext(&c->ctx, &c->caller);
	return c->arg;
}

int coro_done(const struct coro *c)
{
	return c->done;
}
