/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unwind.c: keep C++ exceptions, pthread_exit and backtraces working.
 *
 * A hijacked return address points to a return trampoline, where the unwinder
 * finds no frame to continue with (the trampoline marks the end of the
 * stack).  So before anything walks the stack we put the real return
 * addresses back (the frames are "restored"), and afterwards we hijack the
 * frames that are still live again:
 *  - _Unwind_RaiseException, _Unwind_Resume_or_Rethrow (throw, rethrow):
 *    restore; __cxa_begin_catch (the handler runs) drops the frames the
 *    exception unwound and re-hijacks the rest, before anything else;
 *  - _Unwind_ForcedUnwind (cancellation): restore;
 *  - pthread_cancel: restore the target's frames (below);
 *  - pthread_exit: the thread ends, so its calls in progress are reported
 *    as ended ("= ? <pthread_exit>") and dropped, then restored;
 *  - _Unwind_Backtrace, and glibc's backtrace(): restore, walk, re-hijack.
 * lib/hooks.c binds these functions to the hooks below.
 *
 * Why hooks, and not one of the two other ways.  Unwind information for
 * the trampoline that leads to the real caller would serve every unwinder,
 * static ones too; but the real return address is on the thread's shadow
 * stack, and a CFI expression can only read registers and memory at
 * addresses computed from them: no thread-local storage.  It would take a
 * trampoline per live frame of the whole process, each with its own CFI
 * reading its own global slot, allocated across threads on every call.
 * Hijacking only the innermost live frame (two more stores a call) does
 * not help either: a throw passes through that frame first, inside the
 * traced call.  So the unwinders glibc and libstdc++ reach through the
 * loader are hooked; those it reaches privately are hooked one level up
 * (backtrace, pthread_cancel); a program with its own static unwinder is
 * traced on entry only, and so are the calls a library with its own
 * unwinder may walk through (ltr_unwind_check_object, below).
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"

typedef int (*raise_fn)(void *exc);
typedef int (*forced_fn)(void *exc, void *stop, void *arg);
typedef int (*backtrace_fn)(void *trace, void *arg);
typedef int (*glibc_backtrace_fn)(void **buf, int size);
typedef void *(*begin_catch_fn)(void *exc);
typedef void (*pthread_exit_fn)(void *ret);
typedef int (*pthread_cancel_fn)(uintptr_t thread);

#define REAL(h, type) ((type)ltr_hook_real[h])

void ltr_frames_restore(uintptr_t sp)
{
	struct ltr_tstate *ts = ltr_thread_self();

	if (ts)
		ltr_frames_restore_of(ts, sp);
}

void ltr_frames_restore_of(struct ltr_tstate *ts, uintptr_t sp)
{
	uint32_t i;
	uint64_t v;

	/*
	 * Only the frames of the stack the unwinder walks (above sp); the
	 * slots of other stacks are read through the kernel first, as their
	 * stacks may be gone.
	 */
	for (i = 0; i < ts->depth; i++) {
		struct ltr_frame *fr = &ts->frames[i];

		if (!(fr->flags & LTR_FR_RESTORED) && (uintptr_t)fr->slot > sp &&
		    ltr_read_word(ts->pid, (uintptr_t)fr->slot, &v) == 0 &&
		    v == ltr_tramp_of(fr->rec)) {
			*fr->slot = fr->ret;
			fr->flags |= LTR_FR_RESTORED;
		}
	}
}

void ltr_frames_rehijack(uintptr_t sp)
{
	struct ltr_tstate *ts = ltr_thread_self();
	uintptr_t busy;
	uint32_t i;

	if (!ts)
		return;
	busy = ts->busy;
	ts->busy = (uintptr_t)&busy;
	ltr_frames_drop_dead(ts, sp, true);
	ts->busy = busy;
	for (i = 0; i < ts->depth; i++) {
		struct ltr_frame *fr = &ts->frames[i];

		if ((fr->flags & LTR_FR_RESTORED) && *fr->slot == fr->ret) {
			*fr->slot = ltr_tramp_of(fr->rec);
			fr->flags &= ~LTR_FR_RESTORED;
		}
	}
}

int ltr_hook_raise(void *exc)
{
	ltr_hook_note(LTR_H_RAISE, (uint64_t)exc, 0, 0);
	ltr_frames_restore((uintptr_t)__builtin_frame_address(0));
	return REAL(LTR_H_RAISE, raise_fn)(exc);
}

int ltr_hook_rethrow(void *exc)
{
	ltr_hook_note(LTR_H_RETHROW, (uint64_t)exc, 0, 0);
	ltr_frames_restore((uintptr_t)__builtin_frame_address(0));
	return REAL(LTR_H_RETHROW, raise_fn)(exc);
}

int ltr_hook_forced(void *exc, void *stop, void *arg)
{
	ltr_hook_note(LTR_H_FORCED, (uint64_t)exc, (uint64_t)stop,
		      (uint64_t)arg);
	ltr_frames_restore((uintptr_t)__builtin_frame_address(0));
	return REAL(LTR_H_FORCED, forced_fn)(exc, stop, arg);
}

int ltr_hook_backtrace(void *trace, void *arg)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) + 16;
	int ret;

	ltr_hook_note(LTR_H_BACKTRACE, (uint64_t)trace, (uint64_t)arg, 0);
	ltr_frames_restore(sp);
	ret = REAL(LTR_H_BACKTRACE, backtrace_fn)(trace, arg);
	ltr_frames_rehijack(sp - 8);
	return ret;
}

#define BACKTRACE_MAX 256 /* frames walked into our own buffer */

/*
 * glibc's backtrace() reaches libgcc's _Unwind_Backtrace through its own
 * private dlsym, which the loader does not show to auditors: it is hooked
 * itself.  The walk starts in this hook, one frame too many: it is asked
 * for one more frame, into a buffer of ours, and the first is left out.
 */
int ltr_hook_glibc_backtrace(void **buf, int size)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) + 16;
	struct ltr_scratch mem; /* off the stack: crash handlers call this */
	void **frames;
	int n, i;

	ltr_hook_note(LTR_H_GLIBC_BACKTRACE, (uint64_t)buf, (uint64_t)size, 0);
	if (size <= 0)
		return 0;
	if (size > BACKTRACE_MAX - 1)
		size = BACKTRACE_MAX - 1;
	frames = ltr_scratch_take(&mem, BACKTRACE_MAX * sizeof(void *));
	if (!frames)
		return 0;
	ltr_frames_restore(sp);
	n = REAL(LTR_H_GLIBC_BACKTRACE, glibc_backtrace_fn)(frames, size + 1);
	ltr_frames_rehijack(sp - 8);
	for (i = 1; i < n; i++)
		buf[i - 1] = frames[i];
	ltr_scratch_give(&mem);
	return n > 0 ? n - 1 : 0;
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

/*
 * pthread_cancel: glibc unwinds the cancelled thread through libgcc's
 * _Unwind_ForcedUnwind, reached by its private dlsym, which auditors never
 * see, and from the thread's own signal handler.  So the canceller puts
 * back the real return addresses of the target's frames before it sends
 * the cancellation: the target is most often blocked at a cancellation
 * point inside a traced call.  Its returns are then not traced; a traced
 * call it makes before it acts on the cancellation is hijacked again, and
 * the unwind still ends there (in BUGS).
 */
int ltr_hook_pthread_cancel(uintptr_t thread)
{
	struct ltr_tstate *ts = ltr_thread_of(thread);

	ltr_hook_note(LTR_H_PTHREAD_CANCEL, thread, 0, 0);
	if (ts && ts != ltr_tls_self)
		ltr_frames_restore_of(ts, 0);
	else if (ts)
		ltr_frames_restore((uintptr_t)__builtin_frame_address(0));
	return REAL(LTR_H_PTHREAD_CANCEL, pthread_cancel_fn)(thread);
}

void ltr_hook_pthread_exit(void *ret)
{
	ltr_hook_note(LTR_H_PTHREAD_EXIT, (uint64_t)ret, 0, 0);
	ltr_frames_restore((uintptr_t)__builtin_frame_address(0));
	ltr_frames_end_thread(LTR_END_PTHREAD_EXIT);
	REAL(LTR_H_PTHREAD_EXIT, pthread_exit_fn)(ret);
	__builtin_unreachable();
}

/* Read len bytes at off of fd into buf: true if all came. */
static bool read_at(long fd, void *buf, size_t len, uint64_t off)
{
	return ltr_syscall6(SYS_pread64, fd, (long)buf, (long)len, (long)off,
			    0, 0) == (long)len;
}

/* Has the ELF file path a section named name (short, NUL-terminated)? */
static bool has_section(const char *path, const char *name)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) sh, names;
	char got[32];
	size_t len = ltr_strlen(name) + 1;
	long fd = ltr_syscall3(SYS_open, (long)path, O_RDONLY | O_CLOEXEC, 0);
	bool found = false;
	unsigned i;

	if (fd < 0)
		return false;
	if (len <= sizeof(got) && read_at(fd, &eh, sizeof(eh), 0) &&
	    eh.e_shentsize == sizeof(sh) && eh.e_shstrndx < eh.e_shnum &&
	    read_at(fd, &names, sizeof(names),
		    eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(sh))) {
		for (i = 0; i < eh.e_shnum && !found; i++)
			found = read_at(fd, &sh, sizeof(sh),
					eh.e_shoff + (uint64_t)i * sizeof(sh)) &&
				read_at(fd, got, len, names.sh_offset + sh.sh_name) &&
				got[len - 1] == '\0' && ltr_strcmp(got, name) == 0;
	}
	ltr_syscall3(SYS_close, fd, 0, 0);
	return found;
}

/* Does obj's dynamic symbol table import (leave undefined) name? */
static bool imports(const struct ltr_object *obj, const char *name)
{
	return ltr_dynamic_find(obj, name, LTR_SYM_UNDEF) != NULL;
}

/*
 * Objects with their own unwinder.  A program or a library linked with
 * -static-libgcc or -static-libstdc++ unwinds with its own copy of libgcc's
 * unwinder, which the loader never binds: none of the hooks above runs, and
 * an exception it throws through a hijacked frame ends the program
 * (std::terminate).  Such an object has landing pads (.gcc_except_table)
 * but does not import _Unwind_Resume, which every landing pad calls, and
 * looks up unwind tables itself (has_own_unwinder).
 *  - The program: returns can be hijacked nowhere (its unwinder may walk
 *    any frame of any thread), so every call is traced on entry only, as
 *    under a CET shadow stack.
 *  - A library (linked at start or dlopened): its unwinder walks the frames
 *    from its throw up to its catch.  Those on the way that a traced call
 *    made are calls whose return address is in the library (a throw from
 *    a callback passes the frame of the call that led to it) or whose
 *    callee is (a throw out of an exported function passes the call into
 *    it).  So those calls are traced on entry only (ltr_unwind_at_risk, a
 *    range check made only while such a library is loaded), and every
 *    other call keeps its return.  The limit: a traced call between two
 *    other objects that the exception passes is seen from neither end (the
 *    library calls a third one, which makes a traced call that calls the
 *    library back, and the callback throws; or the library throws out of
 *    a function that a third object called inside a traced call): in BUGS.
 */
#define OWN_MAX 32 /* libraries with their own unwinder tracked by range */

/* The address ranges of the libraries with their own unwinder. */
static struct {
	uintptr_t start, end;
} own[OWN_MAX];

uint32_t ltr_own_unwinders;
/* The entries of own[] ever used. */
static uint32_t own_used;
/* More than OWN_MAX of them were loaded: every call is at risk, for good. */
static bool own_overflow;

/*
 * Has obj its own unwinder, from libgcc linked into it?  That unwinder
 * finds unwind tables through the loader (_dl_find_object, or
 * dl_iterate_phdr before glibc 2.35): libc has landing pads and its own
 * _Unwind_Resume too, but forwards it to libgcc_s.
 */
static bool has_own_unwinder(const struct ltr_object *obj)
{
	return !imports(obj, "_Unwind_Resume") &&
	       (imports(obj, "_dl_find_object") ||
		imports(obj, "dl_iterate_phdr")) &&
	       has_section(obj->path[0] ? obj->path : "/proc/self/exe",
			   ".gcc_except_table");
}

/* Track obj's range as that of a library with its own unwinder. */
static void own_add(const struct ltr_object *obj)
{
	uint32_t i;

	for (i = 0; i < OWN_MAX; i++) {
		if (!__atomic_load_n(&own[i].end, __ATOMIC_RELAXED)) {
			__atomic_store_n(&own[i].start, obj->start,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&own[i].end, obj->end, __ATOMIC_RELEASE);
			if (i >= own_used)
				__atomic_store_n(&own_used, i + 1,
						 __ATOMIC_RELEASE);
			break;
		}
	}
	if (i == OWN_MAX)
		__atomic_store_n(&own_overflow, true, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ltr_own_unwinders, 1, __ATOMIC_RELEASE);
}

#define WARNED_MAX 64 /* paths warned about, remembered */

/*
 * Was path warned about before (a plugin loaded again after dlclose)?
 * Remembers it.  Runs under the loader's lock, as la_objopen does.
 */
static bool warned_before(const char *path)
{
	static uint64_t warned[WARNED_MAX];
	static uint32_t n;
	uint64_t h = 14695981039346656037ull; /* FNV-1a */
	uint32_t i;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211ull;
	for (i = 0; i < n; i++)
		if (warned[i] == h)
			return true;
	if (n < WARNED_MAX)
		warned[n++] = h;
	return false;
}

#define OWN_WARNING " has its own C++ runtime (-static-libstdc++ or -static-libgcc), whose exceptions cannot pass a traced return: calls into it and from it are traced on entry only, without return values or times"

void ltr_unwind_check_object(const struct ltr_object *obj)
{
	char what[480]; /* ltr_warn's line holds 512 with its prefix */
	size_t n;

	if (!has_own_unwinder(obj))
		return;
	if (obj->flags & LTR_OBJ_MAIN) {
		__atomic_store_n(&ltr_no_hijack, true, __ATOMIC_RELAXED);
		ltr_warn("warning", "the program has its own C++ runtime (-static-libstdc++ or -static-libgcc), whose exceptions cannot pass a traced return: calls are traced on entry only, without return values or times");
		return;
	}
	own_add(obj);
	if (warned_before(obj->path))
		return;
	/* The object's path, cut if need be, then what it means. */
	ltr_strlcpy(what, obj->path, sizeof(what) - sizeof(OWN_WARNING));
	n = ltr_strlen(what);
	ltr_strlcpy(what + n, OWN_WARNING, sizeof(what) - n);
	ltr_warn("warning", what);
}

void ltr_unwind_forget(const struct ltr_object *obj)
{
	uint32_t i;

	for (i = 0; i < OWN_MAX; i++) {
		if (__atomic_load_n(&own[i].end, __ATOMIC_RELAXED) == obj->end &&
		    own[i].start == obj->start) {
			__atomic_store_n(&own[i].end, 0, __ATOMIC_RELAXED);
			__atomic_fetch_sub(&ltr_own_unwinders, 1,
					   __ATOMIC_RELAXED);
			return;
		}
	}
}

bool ltr_unwind_at_risk(uintptr_t callee, uintptr_t ret)
{
	uint32_t i, n = __atomic_load_n(&own_used, __ATOMIC_ACQUIRE);
	uintptr_t start, end;

	if (__atomic_load_n(&own_overflow, __ATOMIC_RELAXED))
		return true;
	/* A patched function runs from its copy: where is it really? */
	start = ltr_entry_original(callee);
	if (start)
		callee = start;
	for (i = 0; i < n; i++) {
		end = __atomic_load_n(&own[i].end, __ATOMIC_ACQUIRE);
		start = __atomic_load_n(&own[i].start, __ATOMIC_RELAXED);
		if ((callee >= start && callee < end) ||
		    (ret >= start && ret < end))
			return true;
	}
	return false;
}
