/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hooks.c: functions the interposer must see, whatever the selection.
 *
 * The unwinder's entry points and pthread_exit (lib/unwind.c) must put the
 * real return addresses back before anything walks the stack; _exit,
 * _Exit and, with -f, the wait family (lib/process.c) tell how processes
 * end; the exec family and, with -f, posix_spawn, system and popen
 * (lib/exec.c) carry the session into the next program; the longjmp
 * family (lib/returns.c) tells when a setjmp returns again.  la_symbind64
 * binds these names to the hooks, which call the real function.  When the
 * selection names one of them too, it is reported on entry (it cannot be
 * traced on return: the hook is in the way), or, for system and popen,
 * traced whole through its stub.
 */
#include "interposer.h"

void *ltr_hook_real[LTR_H_COUNT];

/* Function indexes (+1) of the hooked functions the selection names. */
static uint32_t traced_fn[LTR_H_COUNT];

static const struct {
	const char *name;
	void *hook;
	bool follow_only; /* only with -f */
	bool returns;     /* selected, it is traced whole: the hook calls its stub */
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
	[LTR_H_EXECVE] = { "execve", ltr_hook_execve, false },
	[LTR_H_EXECV] = { "execv", ltr_hook_execv, false },
	[LTR_H_EXECVP] = { "execvp", ltr_hook_execvp, false },
	[LTR_H_EXECVPE] = { "execvpe", ltr_hook_execvpe, false },
	[LTR_H_EXECL] = { "execl", ltr_hook_execl, false },
	[LTR_H_EXECLP] = { "execlp", ltr_hook_execlp, false },
	[LTR_H_EXECLE] = { "execle", ltr_hook_execle, false },
	[LTR_H_FEXECVE] = { "fexecve", ltr_hook_fexecve, false },
	[LTR_H_EXECVEAT] = { "execveat", ltr_hook_execveat, false },
	[LTR_H_SPAWN] = { "posix_spawn", ltr_hook_posix_spawn, true },
	[LTR_H_SPAWNP] = { "posix_spawnp", ltr_hook_posix_spawnp, true },
	[LTR_H_SYSTEM] = { "system", ltr_hook_system, true, true },
	[LTR_H_POPEN] = { "popen", ltr_hook_popen, true, true },
	[LTR_H_LONGJMP] = { "longjmp", ltr_hook_longjmp, false },
	[LTR_H__LONGJMP] = { "_longjmp", ltr_hook__longjmp, false },
	[LTR_H_SIGLONGJMP] = { "siglongjmp", ltr_hook_siglongjmp, false },
	[LTR_H_LONGJMP_CHK] = { "__longjmp_chk", ltr_hook_longjmp_chk, false },
};

void ltr_hook_note(enum ltr_hook h, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint32_t fn = __atomic_load_n(&traced_fn[h], __ATOMIC_ACQUIRE);

	if (fn)
		ltr_note_entry(fn - 1, a0, a1, a2);
}

/*
 * A hooked function that returns (system, popen) is traced whole when
 * selected: the hook calls it through its stub, which records its entry
 * and its return.  Once one caller selects it, the hook traces it for all.
 */
static void bind_through_stub(size_t i, const char *name, uintptr_t real,
			      bool selected, const struct ltr_object *def)
{
	uintptr_t stub = selected ? ltr_stub_for(real, name, def) : 0;

	if (stub)
		__atomic_store_n(&ltr_hook_real[i], (void *)stub,
				 __ATOMIC_RELEASE);
	else if (!ltr_is_stub((uintptr_t)__atomic_load_n(&ltr_hook_real[i],
							__ATOMIC_ACQUIRE)))
		__atomic_store_n(&ltr_hook_real[i], (void *)real,
				 __ATOMIC_RELEASE);
}

uintptr_t ltr_hook_for(const char *name, uintptr_t real, bool selected,
		       const struct ltr_object *def)
{
	size_t i;

	if (name[0] != '_' && name[0] != 'p' && name[0] != 'w' &&
	    name[0] != 'e' && name[0] != 'f' && name[0] != 's' &&
	    name[0] != 'l')
		return 0;
	for (i = 0; i < LTR_H_COUNT; i++) {
		if (ltr_strcmp(name, hooks[i].name) != 0)
			continue;
		if (hooks[i].follow_only && !(ltr_flags & LTR_F_FOLLOW))
			return 0;
		if (hooks[i].returns) {
			bind_through_stub(i, name, real, selected, def);
			return (uintptr_t)hooks[i].hook;
		}
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
