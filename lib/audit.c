/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audit.c: the rtld-audit entry points, the only symbols libltruss.so exports.
 *
 * ltruss loads this object with LD_AUDIT.  Why the audit interface: the
 * loader itself reports every object (la_objopen, also for dlopen) and
 * offers every PLT binding and every dlsym result to la_symbind64 before it
 * is used, after it has resolved search order, symbol versions and IFUNCs.
 * Returning a stub address there redirects exactly the selected functions
 * and nothing else.  Measured on glibc 2.36: no cost on untraced calls, and
 * it works with lazy binding, -z now, .plt.sec and dlsym.  la_pltenter and
 * la_pltexit are never defined: they cost ~290 ns on every PLT call.  What
 * la_symbind64 misses, GLOB_DAT slots (-fno-plt), got-patch.c patches once
 * the objects are relocated, only from the entry points the loader calls
 * with its lock held (see got-patch.c for why).
 */
#include <link.h>

#include "capture.h"
#include "frames.h"
#include "hooks.h"
#include "interposer.h"
#include "lock.h"
#include "objects.h"
#include "process.h"

#define EXPORT __attribute__((visibility("default")))

/* Objects whose GLOB_DAT slots still wait for patching. */
static bool pending_patch;
static int patch_lock;
static bool patch_at_start, patch_incomplete, started;

EXPORT unsigned int la_version(unsigned int version);
EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid,
			       uintptr_t *cookie);
EXPORT unsigned int la_objclose(uintptr_t *cookie);
EXPORT void la_preinit(uintptr_t *cookie);
EXPORT void la_activity(uintptr_t *cookie, unsigned int flag);
EXPORT uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx,
			      uintptr_t *refcook, uintptr_t *defcook,
			      unsigned int *flags, const char *symname);

unsigned int la_version(unsigned int version)
{
	if (version < 1)
		return 0;
	/* Both sets of names every binding looks into, made once here. */
	ltr_hooks_init();
	ltr_entry_only_init();
	ltr_attach();
	if (ltr_session)
		ltr_process_register(true);
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

/* Objects whose functions the unwinder hooks need to see. */
static bool defines_hooks(const struct ltr_object *obj)
{
	const char *n = obj->short_name;

	return ltr_strcmp(n, "libgcc_s") == 0 ||
	       ltr_strcmp(n, "libstdc++") == 0 || ltr_strcmp(n, "libc") == 0;
}

unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	struct ltr_object *obj;
	unsigned int flags = LA_FLG_BINDFROM;

	/* A forked child without -f is untraced: it never writes the session. */
	if (!ltr_session || ltr_forked())
		return 0;
	obj = ltr_object_add(map, lmid);
	if (!obj)
		return 0;
	*cookie = (uintptr_t)obj;
	if (defines_hooks(obj) || ltr_tcl_object(obj))
		obj->flags |= LTR_OBJ_HOOKS;
	ltr_unwind_check_object(obj);
	ltr_py_object(obj);
	ltr_entry_patch(obj, started);
	if (obj->flags & (LTR_OBJ_TO | LTR_OBJ_HOOKS))
		flags |= LA_FLG_BINDTO;
	if (started)
		ltr_got_prebind(obj);
	pending_patch = true;
	return flags;
}


unsigned int la_objclose(uintptr_t *cookie)
{
	struct ltr_object *obj = (struct ltr_object *)*cookie;

	if (!ltr_session || !obj || ltr_forked())
		return 0;
	if (obj->flags & LTR_OBJ_MAIN) {
		/* Only at exit does the program itself close: end its calls. */
		ltr_frames_end_thread(LTR_END_EXITED);
		return 0;
	}
	ltr_object_remove(obj);
	ltr_unwind_forget(obj);
	ltr_stack_hints_forget(obj);
	ltr_stubs_forget(obj->start, obj->end);
	return 0;
}

/* One object of a patching pass. */
static void patch_one(struct ltr_object *obj)
{
	if (!ltr_got_patch(obj, patch_at_start))
		patch_incomplete = true;
}

/*
 * Patch the GLOB_DAT slots of every object not patched yet.  Callers hold
 * the loader's lock; the pass's own lock keeps out a pass nested in it (a
 * signal handler's dlsym), which leaves the work to the next event.
 */
static void patch_all(bool at_start)
{
	if (!ltr_trylock(&patch_lock))
		return;
	patch_at_start = at_start;
	patch_incomplete = false;
	ltr_object_each(patch_one);
	pending_patch = patch_incomplete;
	ltr_unlock(&patch_lock);
}

void ltr_patch_after_fork(void)
{
	ltr_unlock(&patch_lock);
}

void la_preinit(uintptr_t *cookie)
{
	if (!ltr_session)
		return;
	patch_all(true);
	ltr_process_started();
	ltr_process_watch_exit();
	ltr_exec_watch_fork();
	ltr_errno_init();
	ltr_fault_copy_init();
	started = true;
}

/*
 * Before the program starts, the loader looks up libc's malloc family in
 * the program's scope for its own use, once each, and reports that as a
 * dlsym made by the program: those are not the program's calls.  Any
 * other dlsym before la_preinit (which comes after the program's own
 * constructors) is the program's, from .preinit_array or a constructor.
 */
static bool loader_lookup(const char *name)
{
	static const char *const names[] = { "calloc", "free", "malloc",
					     "realloc" };
	static unsigned seen;
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (ltr_strcmp(name, names[i]) != 0)
			continue;
		if (seen & (1u << i))
			return false;
		seen |= 1u << i;
		return true;
	}
	return false;
}

/*
 * A dlopen begins (LA_ACT_ADD, under the loader's lock): the objects of
 * earlier ones are relocated by now, or gone, so they can be patched.
 */
void la_activity(uintptr_t *cookie, unsigned int flag)
{
	(void)cookie;
	if (ltr_session && started && flag == LA_ACT_ADD && pending_patch &&
	    !ltr_forked())
		patch_all(false);
}

uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
		       uintptr_t *defcook, unsigned int *flags,
		       const char *symname)
{
	struct ltr_object *ref = (struct ltr_object *)*refcook;
	struct ltr_object *def = (struct ltr_object *)*defcook;
	uintptr_t addr = sym->st_value;
	unsigned type = ELF64_ST_TYPE(sym->st_info);

	if (!ltr_session || !ref || !def)
		return addr;
	/*
	 * Objects from dlopen wait for their GOT patching until a dlsym
	 * result (dlsym holds the loader's lock), or the next dlopen.  Lazy
	 * bindings run without that lock: they never patch.
	 */
	if (unlikely(pending_patch) && started && (*flags & LA_SYMB_DLSYM) &&
	    !ltr_forked())
		patch_all(false);
	if (type != STT_FUNC && type != STT_GNU_IFUNC)
		return addr;
	if (!started && (*flags & LA_SYMB_DLSYM) &&
	    (ref->flags & LTR_OBJ_MAIN) && loader_lookup(symname))
		return addr;
	return ltr_bind(ref, def, symname, addr);
}
