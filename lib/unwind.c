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
 *    exception unwound and re-hijacks the rest, before anything else;
 *  - _Unwind_ForcedUnwind (cancellation): restore;
 *  - pthread_exit: the thread ends, so its calls in progress are reported
 *    as ended ("= ? <pthread_exit>") and dropped, then restored;
 *  - _Unwind_Backtrace: restore, walk, re-hijack.
 * lib/hooks.c binds these functions to the hooks below.
 */
#include "interposer.h"

typedef int (*raise_fn)(void *exc);
typedef int (*forced_fn)(void *exc, void *stop, void *arg);
typedef int (*backtrace_fn)(void *trace, void *arg);
typedef void *(*begin_catch_fn)(void *exc);
typedef void (*pthread_exit_fn)(void *ret);

#define REAL(h, type) ((type)ltr_hook_real[h])

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

int ltr_hook_raise(void *exc)
{
	ltr_hook_note(LTR_H_RAISE, (uint64_t)exc, 0, 0);
	ltr_frames_restore();
	return REAL(LTR_H_RAISE, raise_fn)(exc);
}

int ltr_hook_rethrow(void *exc)
{
	ltr_hook_note(LTR_H_RETHROW, (uint64_t)exc, 0, 0);
	ltr_frames_restore();
	return REAL(LTR_H_RETHROW, raise_fn)(exc);
}

int ltr_hook_forced(void *exc, void *stop, void *arg)
{
	ltr_hook_note(LTR_H_FORCED, (uint64_t)exc, (uint64_t)stop,
		      (uint64_t)arg);
	ltr_frames_restore();
	return REAL(LTR_H_FORCED, forced_fn)(exc, stop, arg);
}

int ltr_hook_backtrace(void *trace, void *arg)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) + 16;
	int ret;

	ltr_hook_note(LTR_H_BACKTRACE, (uint64_t)trace, (uint64_t)arg, 0);
	ltr_frames_restore();
	ret = REAL(LTR_H_BACKTRACE, backtrace_fn)(trace, arg);
	ltr_frames_rehijack(sp - 8);
	return ret;
}

/*
 * The handler's frame begins just above our return address.  The frames
 * the exception unwound end before the catch is reported, so that it
 * shows at the catcher's depth, not inside a call it unwound.
 */
void *ltr_hook_begin_catch(void *exc)
{
	uintptr_t handler_sp = (uintptr_t)__builtin_frame_address(0) + 16;

	ltr_frames_rehijack(handler_sp - 8);
	ltr_hook_note(LTR_H_BEGIN_CATCH, (uint64_t)exc, 0, 0);
	return REAL(LTR_H_BEGIN_CATCH, begin_catch_fn)(exc);
}

void ltr_hook_pthread_exit(void *ret)
{
	ltr_hook_note(LTR_H_PTHREAD_EXIT, (uint64_t)ret, 0, 0);
	ltr_frames_restore();
	ltr_frames_end_thread(LTR_END_PTHREAD_EXIT);
	REAL(LTR_H_PTHREAD_EXIT, pthread_exit_fn)(ret);
	__builtin_unreachable();
}
