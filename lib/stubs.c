/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stubs.c: one stub per traced target address.
 *
 * Stub i (lib/arch/x86_64/trampoline.S) carries index i into the common
 * entry; the session's funcs[i] says where the real function is and what it
 * is called.  Keying stubs by target address keeps function-pointer identity
 * stable: every binding and every patched slot for one function gets the
 * same stub, so &f == dlsym(h, "f") still holds in the program.  Bindings
 * can happen on several threads at once (lazy binding takes no loader lock),
 * so allocation takes a small spinlock; the hot path only reads funcs[i].
 */
#include <string.h>

#include "interposer.h"

#define HASH_SIZE (2 * LTR_NSTUBS) /* a power of two */
#define STUB_SIZE 16

static uint32_t hash_index[HASH_SIZE]; /* stub index + 1; 0 = empty */
static int lock;

/*
 * Functions that look at their own return address or never return the
 * ordinary way: traced on entry only, their return is never hijacked.
 */
static const char *const entry_only[] = {
	"dlopen", "dlmopen", "dlsym", "dlvsym", "vfork", "clone", "clone3",
	"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "getcontext",
	"swapcontext", "setcontext", "makecontext", "longjmp", "_longjmp",
	"siglongjmp", "__longjmp_chk", "exit", "_exit", "_Exit", "quick_exit",
	"abort", "pthread_exit", "__libc_start_main", "__cxa_throw",
	"__cxa_rethrow", "_Unwind_Resume", "execve", "execv", "execvp",
	"execvpe", "execl", "execlp", "execle", "fexecve", "posix_spawn",
	"posix_spawnp",
};

static void spin_lock(void)
{
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void spin_unlock(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

/* The hash bucket for addr. */
static uint32_t hash_of(uintptr_t addr)
{
	return (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> 40) &
	       (HASH_SIZE - 1);
}

/* Is name one of the entry-only functions? */
static bool is_entry_only(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(entry_only) / sizeof(entry_only[0]); i++)
		if (ltr_strcmp(name, entry_only[i]) == 0)
			return true;
	return false;
}

bool ltr_is_stub(uintptr_t addr)
{
	return addr >= (uintptr_t)ltr_stubs && addr < (uintptr_t)ltr_stubs_end;
}

uintptr_t ltr_stub_for(uintptr_t addr, const char *name,
		       const struct ltr_object *obj)
{
	struct ltr_session *s = ltr_session;
	uint32_t h = hash_of(addr), idx;
	struct ltr_func *fn;

	if (ltr_is_stub(addr))
		return addr;
	spin_lock();
	for (; hash_index[h]; h = (h + 1) & (HASH_SIZE - 1)) {
		idx = hash_index[h] - 1;
		if (s->funcs[idx].addr == addr) {
			spin_unlock();
			return (uintptr_t)ltr_stubs + STUB_SIZE * idx;
		}
	}
	idx = s->nfuncs;
	if (idx >= LTR_NSTUBS || idx >= LTR_MAX_FUNCS) {
		__atomic_fetch_add(&s->stubs_exhausted, 1, __ATOMIC_RELAXED);
		spin_unlock();
		return 0;
	}
	fn = &s->funcs[idx];
	fn->addr = addr;
	fn->name = ltr_session_string(name);
	fn->lib = obj->name_off;
	fn->flags = ltr_no_hijack || is_entry_only(name) ? LTR_FN_ENTRY_ONLY : 0;
	__atomic_store_n(&s->nfuncs, idx + 1, __ATOMIC_RELEASE);
	hash_index[h] = idx + 1;
	spin_unlock();
	return (uintptr_t)ltr_stubs + STUB_SIZE * idx;
}

/*
 * Forget the targets of an unloaded object: a library loaded later at the
 * same address gets stubs of its own.  Only the address index changes:
 * funcs[].addr stays, because la_objclose also runs at exit, while other
 * threads may still be calling through these stubs.
 */
void ltr_stubs_forget(uintptr_t start, uintptr_t end)
{
	struct ltr_session *s = ltr_session;
	uint32_t h, idx;

	spin_lock();
	memset(hash_index, 0, sizeof(hash_index));
	for (idx = 0; idx < s->nfuncs; idx++) {
		struct ltr_func *fn = &s->funcs[idx];

		if (fn->addr >= start && fn->addr < end)
			fn->flags |= LTR_FN_FORGOTTEN;
		if (fn->flags & LTR_FN_FORGOTTEN)
			continue;
		for (h = hash_of(fn->addr); hash_index[h];
		     h = (h + 1) & (HASH_SIZE - 1))
			;
		hash_index[h] = idx + 1;
	}
	spin_unlock();
}
