/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * copystack.c: coroutines that share one stack area, as copying coroutine
 * libraries do.  A coroutine that yields is switched out by swapcontext;
 * the scheduler then saves its live stack bytes to a heap buffer, copies
 * the next coroutine's bytes in (or starts it afresh on the same area) and
 * switches to it.  Each coroutine yields from inside traced calls, so its
 * return slots hold the trampoline while its bytes are away and are
 * overwritten by the others' until they are copied back.
 * Usage: stk-copystack [COROUTINES] (3 by default, at most 4096).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "../behaviour/libbhv.h"

#define AREA (128 * 1024)
#define MARGIN 1024 /* saved below the yield's frame: swapcontext, red zone */
#define COROS 4096
#define ROUNDS 40

struct co {
	ucontext_t ctx;
	char *sp;       /* lowest byte in use when switched out */
	char *saved;    /* its bytes [sp, area end) while switched out */
	long base, value;
	int started, done;
};

static char area[AREA] __attribute__((aligned(64)));
static struct co co[COROS];
static ucontext_t sched;
static struct co *cur;

/* Byte by byte, uninstrumented: the bytes are another stack's frames. */
__attribute__((no_sanitize_address, noinline)) static void
copy(volatile char *dst, const volatile char *src, size_t n)
{
	while (n--)
		*dst++ = *src++;
}

/* From inside a coroutine: hand value to the scheduler, wait to resume. */
static __attribute__((noinline)) long yield(long value)
{
	volatile char here;

	cur->value = value;
	cur->sp = (char *)((uintptr_t)&here - MARGIN);
	swapcontext(&cur->ctx, &sched);
	return cur->base;
}

/* bhv_apply's callback: suspend the coroutine inside the traced call. */
static long yield_inside(long x)
{
	return yield(x * 10) + x;
}

/* A generator: yields twice a round, from inside traced calls. */
static void generator(void)
{
	struct co *c = cur;
	long i, sum = 0;

	for (i = 0; i < ROUNDS; i++) {
		sum = bhv_add3(sum, yield(c->base + i), 1);
		sum += bhv_apply(yield_inside, c->base + i);
	}
	printf("generator %ld: sum %ld\n", c->base, sum);
	c->done = 1;
	c->value = -1;
}

/* Switch to c on the shared area until it yields or ends; its value. */
static long resume(struct co *c)
{
	cur = c;
	if (!c->started) {
		c->started = 1;
		getcontext(&c->ctx);
		c->ctx.uc_stack.ss_sp = area;
		c->ctx.uc_stack.ss_size = AREA;
		c->ctx.uc_link = &sched;
		makecontext(&c->ctx, generator, 0);
	} else {
		copy(c->sp, c->saved, (size_t)(area + AREA - c->sp));
	}
	swapcontext(&sched, &c->ctx);
	if (!c->done)
		copy(c->saved, c->sp, (size_t)(area + AREA - c->sp));
	return c->value;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long total = 0, v;
	int i, live;

	if (n < 1 || n > COROS)
		return 2;
	live = n;
	for (i = 0; i < n; i++) {
		co[i].base = 1000 * (i + 1);
		co[i].saved = malloc(AREA);
	}
	while (live) {
		for (i = 0; i < n; i++) {
			if (co[i].done)
				continue;
			v = resume(&co[i]);
			if (co[i].done)
				live--;
			else
				total = bhv_add3(total, v, 1);
		}
	}
	printf("total %ld\n", total);
	return 0;
}
