/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libcoro.h: a tiny ucontext coroutine library, for tracing across stack switches. */
#ifndef LTRUSS_LIBCORO_H
#define LTRUSS_LIBCORO_H

#include <stddef.h>

struct coro;
typedef void (*coro_fn)(long arg);

/* A coroutine running fn(arg) on the stack [stack, stack + size). */
struct coro *coro_new(coro_fn fn, long arg, void *stack, size_t size);
/* Run c until it yields (returns the value) or ends (returns -1). */
long coro_resume(struct coro *c);
/* From inside a coroutine: give value to its resumer, wait to be resumed. */
long coro_yield(long value);
/* Has c ended? */
int coro_done(const struct coro *c);

#endif
