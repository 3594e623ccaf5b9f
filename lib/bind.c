/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bind.c: where a binding of a function leads: a hook, a stub, or the
 * function itself.
 *
 * A function is bound in many ways: a lazy or -z now PLT slot and a dlsym
 * result, which the loader offers to la_symbind64 (audit.c), and a -fno-plt
 * GOT slot, a function pointer a PIE takes (GLOB_DAT) or one in data, which
 * got-patch.c patches itself.  Both ask ltr_bind, so that every address of
 * a function an object can see leads to the same place, whichever way it
 * was bound: a hook whenever the interposer must see the function (the
 * unwinder, fork, spawn and exec, credentials, signals, longjmp, dladdr:
 * hooks.c), selected or not; else the stub of a selected call (of the
 * copy past the patch of a function patched at its entry: entry-patch.c,
 * so that the call counts once); else the function.
 */
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "process.h"

uintptr_t ltr_bind(const struct ltr_object *ref, const struct ltr_object *def,
		   const char *name, uintptr_t addr)
{
	const struct ltr_rule *rule;
	uintptr_t target, copy;
	bool selected, hooks = def->flags & LTR_OBJ_HOOKS;
	uint32_t hash;

	/* An untraced child still leaves the session if it changes credentials. */
	if (ltr_forked())
		return hooks && (target = ltr_hook_for(name, ltr_name_hash(name),
						       addr, false, def, true))
			       ? target : addr;
	rule = ltr_select_call(ref, def, name);
	selected = rule != NULL;
	if (!hooks && !selected)
		return addr;
	/* Hashed once, for the hooks', the stubs' and the captures' indexes. */
	hash = ltr_name_hash(name);
	if (hooks &&
	    (target = ltr_hook_for(name, hash, addr, selected, def, false)) != 0)
		return target;
	if (!selected)
		return addr;
	/* Patched at its entry: the stub leads past it, so it counts once. */
	copy = ltr_entry_copy(addr);
	/*
	 * The rule that selected the call shapes a new stub (its depth, -k's
	 * copy), and is the one the stub would look up, saving that walk
	 * over the rules (40 000 of jq's instructions), unless the call is
	 * the library's to itself: only '::' rules select those, and its
	 * stub takes what the last rule for any caller says.
	 */
	target = ltr_stub_for(copy ? copy : addr, name, hash, def,
			      ref != def ? rule : NULL);
	return target ? target : addr;
}
