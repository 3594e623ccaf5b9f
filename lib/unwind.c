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
 *  - _Unwind_ForcedUnwind (cancellation): restore;
 *  - pthread_exit: the thread ends, so its calls in progress are reported
 *    as ended ("= ? <pthread_exit>") and dropped, then restored;
 *  - _Unwind_Backtrace: restore, walk, re-hijack.
 * These functions are bound to the hooks below whatever the selection;
 * when the selection names one of them too, it is reported on entry.
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

/* Function indexes (+1) of the hooked functions the selection names. */
enum { H_RAISE, H_RETHROW, H_FORCED, H_BACKTRACE, H_BEGIN_CATCH,
       H_PTHREAD_EXIT, H_COUNT };
static uint32_t traced_fn[H_COUNT];

/* Report hook h's call if the selection names it. */
static void note(int h, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint32_t fn = __atomic_load_n(&traced_fn[h], __ATOMIC_ACQUIRE);

	if (fn)
		ltr_note_entry(fn - 1, a0, a1, a2);
}

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
	note(H_RAISE, (uint64_t)exc, 0, 0);
	ltr_frames_restore();
	return real_raise(exc);
}

static int hook_rethrow(void *exc)
{
	note(H_RETHROW, (uint64_t)exc, 0, 0);
	ltr_frames_restore();
	return real_rethrow(exc);
}

static int hook_forced(void *exc, void *stop, void *arg)
{
	note(H_FORCED, (uint64_t)exc, (uint64_t)stop, (uint64_t)arg);
	ltr_frames_restore();
	return real_forced(exc, stop, arg);
}

static int hook_backtrace(void *trace, void *arg)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) + 16;
	int ret;

	note(H_BACKTRACE, (uint64_t)trace, (uint64_t)arg, 0);
	ltr_frames_restore();
	ret = real_backtrace(trace, arg);
	ltr_frames_rehijack(sp - 8);
	return ret;
}

/* The handler's frame begins just above our return address. */
static void *hook_begin_catch(void *exc)
{
	uintptr_t handler_sp = (uintptr_t)__builtin_frame_address(0) + 16;
	void *ret;

	note(H_BEGIN_CATCH, (uint64_t)exc, 0, 0);
	ret = real_begin_catch(exc);

	ltr_frames_rehijack(handler_sp - 8);
	return ret;
}

static void hook_pthread_exit(void *ret)
{
	note(H_PTHREAD_EXIT, (uint64_t)ret, 0, 0);
	ltr_frames_restore();
	ltr_frames_end_thread(LTR_END_PTHREAD_EXIT);
	real_pthread_exit(ret);
	__builtin_unreachable();
}

uintptr_t ltr_hook_for(const char *name, uintptr_t real, bool selected,
		       const struct ltr_object *def)
{
	static const struct {
		const char *name;
		void *real;
		void *hook;
	} hooks[H_COUNT] = {
		[H_RAISE] = { "_Unwind_RaiseException", &real_raise, hook_raise },
		[H_RETHROW] = { "_Unwind_Resume_or_Rethrow", &real_rethrow,
				hook_rethrow },
		[H_FORCED] = { "_Unwind_ForcedUnwind", &real_forced, hook_forced },
		[H_BACKTRACE] = { "_Unwind_Backtrace", &real_backtrace,
				  hook_backtrace },
		[H_BEGIN_CATCH] = { "__cxa_begin_catch", &real_begin_catch,
				    hook_begin_catch },
		[H_PTHREAD_EXIT] = { "pthread_exit", &real_pthread_exit,
				     hook_pthread_exit },
	};
	size_t i;

	if (name[0] != '_' && name[0] != 'p')
		return 0;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		if (ltr_strcmp(name, hooks[i].name) == 0) {
			__atomic_store_n((uintptr_t *)hooks[i].real, real,
					 __ATOMIC_RELEASE);
			/* Its stub, never bound, gives it a name and counters. */
			if (selected && !traced_fn[i]) {
				uintptr_t stub = ltr_stub_for(real, name, def);

				if (stub)
					__atomic_store_n(&traced_fn[i],
						(uint32_t)((stub - (uintptr_t)ltr_stubs) / 16) + 1,
						__ATOMIC_RELEASE);
			}
			return (uintptr_t)hooks[i].hook;
		}
	}
	return 0;
}
