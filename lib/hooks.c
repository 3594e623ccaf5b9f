/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hooks.c: functions the interposer must see, whatever the selection.
 *
 * The unwinder's entry points and pthread_exit (lib/unwind.c) must put the
 * real return addresses back before anything walks the stack; _exit,
 * _Exit and, with -f, the wait family (lib/process.c) tell how processes
 * end; dladdr and dladdr1 (lib/dladdr.c) see through stubs.  la_symbind64 binds these names to the hooks, which call the real
 * function.  When the selection names one of them too, it is reported on
 * entry (it cannot be traced on return: the hook is in the way).
 */
#include "interposer.h"

void *ltr_hook_real[LTR_H_COUNT];

/* Function indexes (+1) of the hooked functions the selection names. */
static uint32_t traced_fn[LTR_H_COUNT];

static const struct {
	const char *name;
	void *hook;
	bool follow_only; /* only with -f */
} hooks[LTR_H_COUNT] = {
	[LTR_H_RAISE] = { "_Unwind_RaiseException", ltr_hook_raise, false },
	[LTR_H_RETHROW] = { "_Unwind_Resume_or_Rethrow", ltr_hook_rethrow,
			    false },
	[LTR_H_FORCED] = { "_Unwind_ForcedUnwind", ltr_hook_forced, false },
	[LTR_H_BACKTRACE] = { "_Unwind_Backtrace", ltr_hook_backtrace, false },
	[LTR_H_BEGIN_CATCH] = { "__cxa_begin_catch", ltr_hook_begin_catch,
				false },
	[LTR_H_PTHREAD_EXIT] = { "pthread_exit", ltr_hook_pthread_exit, false },
	[LTR_H_EXIT_] = { "_exit", ltr_hook_exit_, false },
	[LTR_H_EXIT] = { "_Exit", ltr_hook_Exit, false },
	[LTR_H_WAIT] = { "wait", ltr_hook_wait, true },
	[LTR_H_WAITPID] = { "waitpid", ltr_hook_waitpid, true },
	[LTR_H_WAIT3] = { "wait3", ltr_hook_wait3, true },
	[LTR_H_WAIT4] = { "wait4", ltr_hook_wait4, true },
	[LTR_H_WAITID] = { "waitid", ltr_hook_waitid, true },
	[LTR_H_DLADDR] = { "dladdr", ltr_hook_dladdr, false },
	[LTR_H_DLADDR1] = { "dladdr1", ltr_hook_dladdr1, false },
};

void ltr_hook_note(enum ltr_hook h, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint32_t fn = __atomic_load_n(&traced_fn[h], __ATOMIC_ACQUIRE);

	if (fn)
		ltr_note_entry(fn - 1, a0, a1, a2);
}

uintptr_t ltr_hook_for(const char *name, uintptr_t real, bool selected,
		       const struct ltr_object *def)
{
	size_t i;

	if (name[0] != '_' && name[0] != 'p' && name[0] != 'w' &&
	    name[0] != 'd')
		return 0;
	for (i = 0; i < LTR_H_COUNT; i++) {
		if (ltr_strcmp(name, hooks[i].name) != 0)
			continue;
		if (hooks[i].follow_only && !(ltr_flags & LTR_F_FOLLOW))
			return 0;
		__atomic_store_n(&ltr_hook_real[i], (void *)real,
				 __ATOMIC_RELEASE);
		/* Its stub, never bound, gives it a name and counters. */
		if (selected && !traced_fn[i]) {
			uintptr_t stub = ltr_stub_for(real, name, def);

			if (stub)
				__atomic_store_n(&traced_fn[i],
					ltr_targets[ltr_stub_index(stub)].fn + 1,
					__ATOMIC_RELEASE);
		}
		return (uintptr_t)hooks[i].hook;
	}
	return 0;
}
