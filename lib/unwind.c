/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unwind.c: keep C++ exceptions, pthread_exit and backtraces working.
 *
 * A hijacked return address points into ltr_return_tramp, where the unwinder
 * finds no frame to continue with (the trampoline marks the end of the
 * stack).  So before anything walks the stack we put the real return
 * addresses back (the frames are "restored"), and afterwards we hijack the
 * frames that are still live again:
 *  - _Unwind_RaiseException, _Unwind_Resume_or_Rethrow (throw, rethrow):
 *    restore; __cxa_begin_catch (the handler runs) drops the frames the
 *    exception unwound and re-hijacks the rest;
 *  - _Unwind_ForcedUnwind and pthread_exit (the thread ends): restore;
 *  - _Unwind_Backtrace: restore, walk, re-hijack.
 * These functions are bound to the hooks below whatever the selection.
 */
#include "interposer.h"

typedef int (*raise_fn)(void *exc);
typedef int (*forced_fn)(void *exc, void *stop, void *arg);
typedef int (*backtrace_fn)(void *trace, void *arg);
typedef void *(*begin_catch_fn)(void *exc);
typedef void (*pthread_exit_fn)(void *ret);

static raise_fn real_raise, real_rethrow;
static forced_fn real_forced;
static backtrace_fn real_backtrace;
static begin_catch_fn real_begin_catch;
static pthread_exit_fn real_pthread_exit;

void ltr_frames_restore(void)
{
	struct ltr_tstate *ts = ltr_thread_self();
	uint32_t i;

	if (!ts)
		return;
	for (i = 0; i < ts->depth; i++) {
		struct ltr_frame *fr = &ts->frames[i];

		if (!(fr->flags & LTR_FR_RESTORED) &&
		    *fr->slot == (uint64_t)ltr_return_tramp) {
			*fr->slot = fr->ret;
			fr->flags |= LTR_FR_RESTORED;
		}
	}
}

void ltr_frames_rehijack(uintptr_t sp)
{
	struct ltr_tstate *ts = ltr_thread_self();
	uint32_t i;

	if (!ts)
		return;
	ts->busy++;
	ltr_frames_drop_dead(ts, sp, true);
	ts->busy--;
	for (i = 0; i < ts->depth; i++) {
		struct ltr_frame *fr = &ts->frames[i];

		if ((fr->flags & LTR_FR_RESTORED) && *fr->slot == fr->ret) {
			*fr->slot = (uint64_t)ltr_return_tramp;
			fr->flags &= ~LTR_FR_RESTORED;
		}
	}
}

static int hook_raise(void *exc)
{
	ltr_frames_restore();
	return real_raise(exc);
}

static int hook_rethrow(void *exc)
{
	ltr_frames_restore();
	return real_rethrow(exc);
}

static int hook_forced(void *exc, void *stop, void *arg)
{
	ltr_frames_restore();
	return real_forced(exc, stop, arg);
}

static int hook_backtrace(void *trace, void *arg)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) + 16;
	int ret;

	ltr_frames_restore();
	ret = real_backtrace(trace, arg);
	ltr_frames_rehijack(sp - 8);
	return ret;
}

/* The handler's frame begins just above our return address. */
static void *hook_begin_catch(void *exc)
{
	uintptr_t handler_sp = (uintptr_t)__builtin_frame_address(0) + 16;
	void *ret = real_begin_catch(exc);

	ltr_frames_rehijack(handler_sp - 8);
	return ret;
}

static void hook_pthread_exit(void *ret)
{
	ltr_frames_restore();
	real_pthread_exit(ret);
	__builtin_unreachable();
}

uintptr_t ltr_hook_for(const char *name, uintptr_t real)
{
	static const struct {
		const char *name;
		void *real;
		void *hook;
	} hooks[] = {
		{ "_Unwind_RaiseException", &real_raise, hook_raise },
		{ "_Unwind_Resume_or_Rethrow", &real_rethrow, hook_rethrow },
		{ "_Unwind_ForcedUnwind", &real_forced, hook_forced },
		{ "_Unwind_Backtrace", &real_backtrace, hook_backtrace },
		{ "__cxa_begin_catch", &real_begin_catch, hook_begin_catch },
		{ "pthread_exit", &real_pthread_exit, hook_pthread_exit },
	};
	size_t i;

	if (name[0] != '_' && name[0] != 'p')
		return 0;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		if (ltr_strcmp(name, hooks[i].name) == 0) {
			__atomic_store_n((uintptr_t *)hooks[i].real, real,
					 __ATOMIC_RELEASE);
			return (uintptr_t)hooks[i].hook;
		}
	}
	return 0;
}
