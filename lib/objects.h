/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * objects.h: the objects loaded, their symbols, and which calls of them are
 * traced and through what: selection, binding, stubs, GOT patching.
 * (lib/interposer.h says what every internal declaration shares.)
 */
#ifndef LTR_LIB_OBJECTS_H
#define LTR_LIB_OBJECTS_H

#include "interposer.h"

/* ---- objects (objects.c) ----------------------------------------------- */

#define LTR_OBJ_MAIN 0x1u     /* the program itself */
#define LTR_OBJ_FROM 0x2u     /* calls from it are traced (--from) */
#define LTR_OBJ_TO 0x4u       /* some rule may select functions in it */
#define LTR_OBJ_PATCHED 0x8u  /* its GLOB_DAT slots were patched */
#define LTR_OBJ_NONPIE 0x10u  /* the program, linked at a fixed address */
#define LTR_OBJ_HOOKS 0x20u   /* defines functions lib/unwind.c hooks */

/*
 * A loaded object's dynamic data (lib/dynamic.c), each table checked to lie
 * inside its PT_LOAD segments, or left out (NULL, size 0).
 */
struct ltr_dynamic {
	const ElfW(Sym) *syms; /* nsyms entries, counted from its hash table */
	size_t nsyms;
	const char *strtab;    /* strsz bytes, the last a NUL */
	size_t strsz;
	size_t soname;         /* DT_SONAME's offset in strtab, if have_soname */
	bool have_soname;
	bool textrel;          /* it has text relocations */
	ElfW(Rela) *rela;      /* DT_RELA: relasz bytes, entries of relaent */
	size_t relasz, relaent;
	uintptr_t gnu_hash;    /* DT_GNU_HASH, if it hashes some symbol; or 0 */
	size_t nunhashed;      /* the symbols below it are unhashed: every undefined one */
};

/* A loaded object, registered in la_objopen. */
struct ltr_object {
	struct link_map *map;
	Lmid_t lmid;           /* its namespace */
	const char *path;      /* l_name, or the program's path */
	const char *soname;    /* DT_SONAME, or NULL */
	const char *short_name; /* "libc", "a.out", whole (common/select.c) */
	uint32_t name_off;     /* short_name in the session strings */
	uint32_t flags;        /* LTR_OBJ_* */
	uint32_t patch_passes; /* GOT patching passes that left slots unresolved */
	uintptr_t start, end;  /* the address range of its segments */
	uintptr_t bias;        /* load bias */
	uintptr_t relro_start, relro_end;
	const ElfW(Phdr) *phdr; /* its program headers (NULL: none found) */
	size_t phnum;
	struct ltr_dynamic dyn; /* its dynamic data, read once (ltr_dynamic_load) */
	bool dyn_ok;            /* dyn has symbols and strings */
	struct ltr_object *next;
};

/* Register the object of map (la_objopen); returns it, or NULL. */
struct ltr_object *ltr_object_add(struct link_map *map, Lmid_t lmid);

/* Forget an object (la_objclose). */
void ltr_object_remove(struct ltr_object *obj);

/* The object whose segments contain addr, or NULL. */
struct ltr_object *ltr_object_at(uintptr_t addr);

/* Visit every registered object. */
void ltr_object_each(void (*fn)(struct ltr_object *obj));

/* The PT_LOAD program header of obj whose segment holds addr, or NULL. */
const ElfW(Phdr) *ltr_object_segment(const struct ltr_object *obj,
				     uintptr_t addr);

/* Is the program a non-PIE executable? */
bool ltr_object_main_nonpie(void);

/* The object of the program's own libc (base namespace), or NULL. */
struct ltr_object *ltr_object_libc(void);

/* The function name of the program's libc, or NULL. */
void *ltr_libc_function(const char *name);

/* The variable name of the program's libc (its copy in the program if any), or NULL. */
void *ltr_libc_data(const char *name);

/* Read obj's dynamic section, once, when it is added (its segments known). */
void ltr_dynamic_load(struct ltr_object *obj);

/* obj's dynamic data into t; false if it has no symbols and strings to look up. */
bool ltr_dynamic_read(const struct ltr_object *obj, struct ltr_dynamic *t);

/* The string at offset off of t's string table, or NULL past its end. */
const char *ltr_dynamic_str(const struct ltr_dynamic *t, size_t off);

/* Symbol i of t, or NULL past its end. */
const ElfW(Sym) *ltr_dynamic_sym(const struct ltr_dynamic *t, size_t i);

/*
 * The first symbol of obj named name: defined (a value, not SHN_UNDEF) and
 * of type type (STT_FUNC, STT_OBJECT), or undefined for LTR_SYM_UNDEF; NULL
 * if none.
 */
#define LTR_SYM_UNDEF (-1)
const ElfW(Sym) *ltr_dynamic_find(const struct ltr_object *obj,
				  const char *name, int type);

/* Do [addr, addr + size) lie inside one readable PT_LOAD segment of obj? */
bool ltr_object_holds(const struct ltr_object *obj, uintptr_t addr, size_t size);

/* ---- selection (select.c, with common/select.c) ------------------------ */

/* Does any rule possibly select functions of obj?  Is obj a --from object? */
bool ltr_select_lib(const struct ltr_object *obj);
bool ltr_select_from(const struct ltr_object *obj);

/*
 * Is the call from caller to function name in callee selected?  The rule
 * that selects it, or NULL.  From another object than callee, that is
 * ltr_select_rule()'s (the last that matches decides, and includes).
 */
const struct ltr_rule *ltr_select_call(const struct ltr_object *caller,
				       const struct ltr_object *callee,
				       const char *name);

/*
 * The shipped capture of name (of ltr_name_hash hash) from ltruss's
 * compiled table (a copy in this process), or NULL; *number: its capture
 * index (lib/shipped.c).
 */
const struct ltr_capture *ltr_shipped_find(const char *name, uint32_t hash,
					   int32_t *number);

/* Captures in the shipped table: the session's own come after them. */
uint32_t ltr_shipped_count(void);

/*
 * The last rule selecting name in callee (its depth limit, its flags), or
 * NULL: whatever the caller, since the stub a rule shapes serves them all.
 */
const struct ltr_rule *ltr_select_rule(const struct ltr_object *callee,
				       const char *name);

/* Could a '::' rule select functions of obj (no --from: lib/select.c)? */
bool ltr_select_inner(const struct ltr_object *obj);

/* ---- binding (bind.c) -------------------------------------------------- */

/*
 * Where a binding from ref of function name, at addr in def, must lead: a
 * hook, the stub of a selected call, or addr itself.  The one decision of
 * la_symbind64 and of GOT patching.
 */
uintptr_t ltr_bind(const struct ltr_object *ref, const struct ltr_object *def,
		   const char *name, uintptr_t addr);

/* ---- stubs (stubs.c) --------------------------------------------------- */

/* Where stub i leads, in this process. */
struct ltr_target {
	uint64_t addr;      /* the real function */
	uint32_t fn;        /* its entry in the session's funcs[] */
	uint16_t flags;     /* LTR_FN_* */
	uint16_t forgotten; /* its object was unloaded: not for new bindings */
	uint32_t depth;     /* shown at most this deep (its rule's depth); 0 = any */
	uint32_t name_hash; /* ltr_name_hash of the name it was bound by */
	uint32_t hpos;      /* its entry in the stubs' hash index */
	const struct ltr_capture *cap; /* what to copy at a call; NULL: nothing */
};

extern struct ltr_target ltr_targets[LTR_NSTUBS];

/* The stub index of a stub address. */
uint32_t ltr_stub_index(uintptr_t stub);

/* Index the functions traced on entry only by name: once, at la_version. */
void ltr_entry_only_init(void);

/* In a forked child: release the locks the parent's other threads held. */
void ltr_stubs_after_fork(void);

/*
 * The stub for target addr (name, of ltr_name_hash hash, in obj);
 * registers it; 0 if none is left.  rule: ltr_select_rule(obj, name)
 * when the caller has it at hand (ltr_bind), else NULL: a new stub then
 * looks it up.
 */
uintptr_t ltr_stub_for(uintptr_t addr, const char *name, uint32_t hash,
		       const struct ltr_object *obj,
		       const struct ltr_rule *rule);

/* Forget the targets in [start, end) for new bindings: their object was unloaded. */
void ltr_stubs_forget(uintptr_t start, uintptr_t end);

/* Is addr one of our stubs? */
bool ltr_is_stub(uintptr_t addr);

/* ---- GLOB_DAT patching (got-patch.c) ----------------------------------- */

/*
 * Point the GLOB_DAT slots and data pointers of obj where ltr_bind says
 * (hooks, stubs of selected functions).
 * at_start: the loader has relocated everything (la_preinit).  Returns
 * false while obj is not relocated yet, so that a later pass retries it.
 */
bool ltr_got_patch(struct ltr_object *obj, bool at_start);

/* Before obj is relocated: have its GLOB_DAT slots offered to la_symbind64. */
void ltr_got_prebind(struct ltr_object *obj);

/* In a forked child: release the patching lock another thread held. */
void ltr_patch_after_fork(void);

/* ---- entry patching (entry-patch.c) ------------------------------------ */

/*
 * Apply ltruss's entry patching plans for obj (la_objopen, before its code
 * runs); late: opened after the start (dlopen), ask ltruss to plan it first.
 */
void ltr_entry_patch(struct ltr_object *obj, bool late);

/* The copy that runs the function at addr (a symbol's value) past its patch, or 0 if unpatched. */
uintptr_t ltr_entry_copy(uintptr_t addr);

/* Does a patched function's call returning to ret come from the dynamic loader? */
static inline bool ltr_entry_from_loader(uintptr_t ret)
{
	extern uintptr_t ltr_loader_start, ltr_loader_end;

	return ret >= ltr_loader_start && ret < ltr_loader_end;
}

/* The function (its jmp's address) whose copy is at copy, or 0: not a copy. */
uintptr_t ltr_entry_original(uintptr_t copy);

#endif
