/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * got-patch.c: redirect the address slots that name selected or hooked
 * functions.
 *
 * Code built with -fno-plt (all Rust code) calls through GOT slots filled
 * by GLOB_DAT relocations, and so does a PIE taking a function's address; a
 * table of function pointers in data is filled by R_X86_64_64 relocations.
 * The loader never offers those to la_symbind64.  Once an object is
 * relocated we walk its RELA table and point each such slot where its PLT
 * binding and its dlsym result lead, as the same ltr_bind (lib/bind.c)
 * decides: a hook (the unwinder, exec, spawn...: in every object, selected
 * or not), else the function's stub.  So every address of a function the
 * object can see is the same (a destructor table compared with the
 * function's address in code still matches), calls through any of them
 * are traced, and none bypasses a hook.  (dladdr is told the real function
 * of a stub: lib/dladdr.c.)  RELRO pages are made writable just for the
 * write.  A slot holding a non-PIE program's canonical PLT entry is left
 * alone: calls through it already reach the stub or hook via that PLT
 * entry, and patching it would count them twice.
 *
 * When is an object relocated, and when is it safe to patch it?  The
 * loader relocates and unloads objects under its own lock, and a pass
 * that reads an object's RELA table or opens one of its RELRO pages while
 * another thread relocates or unmaps that object faults, or makes a page
 * read-only under the loader's feet.  So passes run only where the loader
 * holds that lock for us: la_preinit (the program and its libraries, all
 * relocated), la_activity's LA_ACT_ADD (a dlopen begins: every object of
 * earlier ones is relocated or gone), and a dlsym result (dlsym takes the
 * lock, and every object is a BINDFROM object, so every dlsym the program
 * makes reaches la_symbind64).  Lazy bindings, which run without the
 * lock, never patch.  Most dlopen'd objects need no pass at all: their
 * GLOB_DAT relocations are offered to la_symbind64 by the loader itself
 * (ltr_got_prebind, below), before their constructors run.  An object with RELRO is patched once its RELRO is
 * read-only, as /proc/self/maps tells (read with raw system calls: the audit namespace's
 * stdio and malloc locks may be held forever in a forked child); slots
 * still zero are left for the next pass.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "arch/x86_64/cpu.h"
#include "hooks.h"
#include "interposer.h"
#include "objects.h"
#include "sys.h"

#define MAX_PASSES 64 /* give up on slots that never get a value */

#define PAGE_SIZE 4096ul

/* Does the non-PIE program define name at addr for real (not a PLT entry)? */
static bool canonical_plt(const struct ltr_object *def, uintptr_t addr)
{
	struct ltr_dynamic t;
	const ElfW(Sym) *sym;
	size_t i;

	if (!(def->flags & LTR_OBJ_NONPIE))
		return false;
	if (!ltr_dynamic_read(def, &t))
		return true; /* cannot tell: leave the slot alone */
	for (i = 0; (sym = ltr_dynamic_sym(&t, i)) != NULL; i++)
		if (sym->st_value == addr)
			return sym->st_shndx == SHN_UNDEF;
	return true;
}

/* Is the page at addr writable, as /proc/self/maps says?  1 yes, 0 no, -1 cannot tell. */
static int page_writable(uintptr_t addr)
{
	struct ltr_mapping m;

	return ltr_maps_find(addr, &m) ? m.writable : -1;
}

/*
 * Is the page at addr writable?  Asked at start only (la_preinit: one
 * thread, every object relocated, nobody else writes there): the word at
 * addr is written back over itself by process_vm_writev(2), which honours
 * the page's protection and fails with EFAULT where a plain write would
 * fault.  One system call where reading /proc/self/maps took four and
 * the kernel's naming of every mapping, at each start.  1 yes, 0 no, -1
 * cannot tell (then as page_writable).
 */
static int page_writable_at_start(uintptr_t addr)
{
	uint64_t word;
	struct iovec local = { &word, sizeof(word) };
	struct iovec remote = { (void *)addr, sizeof(word) };
	long n;

	if (!ltr_sys_ok(SYS_process_vm_writev) || !ltr_sys_ok(SYS_getpid))
		return page_writable(addr);
	word = __atomic_load_n((const uint64_t *)addr, __ATOMIC_RELAXED);
	n = ltr_syscall6(SYS_process_vm_writev,
			 ltr_syscall3(SYS_getpid, 0, 0, 0), (long)&local, 1,
			 (long)&remote, 1, 0);
	if (n == (long)sizeof(word))
		return 1;
	return n == -EFAULT ? 0 : page_writable(addr);
}

/* Has the loader finished relocating obj (its RELRO is read-only)? */
static bool relocated(const struct ltr_object *obj)
{
	if (obj->relro_end <= obj->relro_start)
		return true; /* no RELRO: zero slots are simply retried */
	return page_writable(obj->relro_start) == 0;
}

/*
 * Write value into slot.  A RELRO page is opened for the writes of one
 * pass (one mprotect for all its slots there, not two a slot: jq's start
 * made six) and made read-only again by page_close only if it was
 * read-only: *locked caches, for one object and pass, whether its RELRO
 * is (-1: not asked yet); *open, the page opened (0: none).
 */
static void slot_write(const struct ltr_object *obj, uint64_t *slot,
		       uintptr_t value, int *locked, uintptr_t *open)
{
	uintptr_t page = (uintptr_t)slot & ~(PAGE_SIZE - 1);
	bool relro = (uintptr_t)slot >= obj->relro_start &&
		     (uintptr_t)slot < obj->relro_end;

	/* -1: at start (ltr_got_patch), when nothing else writes the page. */
	if (relro && *locked < 0)
		*locked = page_writable_at_start(obj->relro_start) != 1;
	relro = relro && *locked;
	if (relro && page != *open) {
		if (*open)
			ltr_mprotect((void *)*open, PAGE_SIZE, PROT_READ);
		*open = 0;
		if (ltr_mprotect((void *)page, PAGE_SIZE, PROT_READ | PROT_WRITE)) {
			ltr_warn("warning", "cannot patch a read-only GOT slot; some calls stay untraced");
			return;
		}
		*open = page;
	}
	__atomic_store_n(slot, value, __ATOMIC_RELEASE);
}

/* Make the RELRO page slot_write opened read-only again. */
static void page_close(uintptr_t open)
{
	if (open)
		ltr_mprotect((void *)open, PAGE_SIZE, PROT_READ);
}

/* Read obj's dynamic section into t; false if it has no RELA table to walk. */
static bool relas_of(const struct ltr_object *obj, struct ltr_dynamic *t)
{
	return ltr_dynamic_read(obj, t) && t->rela && t->relasz;
}

bool ltr_got_patch(struct ltr_object *obj, bool at_start)
{
	const struct link_map *map = obj->map;
	struct ltr_dynamic t;
	size_t i;
	bool complete = true;
	int locked = at_start ? -1 : 1; /* relocated(): RELRO read-only */
	uintptr_t open = 0;

	if (obj->flags & LTR_OBJ_PATCHED)
		return true;
	if (!at_start && !relocated(obj))
		return false;
	if (!relas_of(obj, &t)) {
		obj->flags |= LTR_OBJ_PATCHED;
		return true;
	}
	for (i = 0; i < t.relasz / t.relaent; i++) {
		const ElfW(Rela) *r = (const void *)((const char *)t.rela + i * t.relaent);
		const ElfW(Sym) *sym;
		const char *name;
		struct ltr_object *def;
		uint64_t *slot;
		uintptr_t value, target;
		unsigned type;

		/*
		 * A GOT slot, or a pointer in data to the function itself
		 * (not in an object with text relocations: the pointer may
		 * be in code, read-only again by now).
		 */
		if (ELF64_R_TYPE(r->r_info) != R_X86_64_GLOB_DAT &&
		    (ELF64_R_TYPE(r->r_info) != R_X86_64_64 || r->r_addend ||
		     t.textrel))
			continue;
		sym = ltr_dynamic_sym(&t, ELF64_R_SYM(r->r_info));
		if (!sym || !(name = ltr_dynamic_str(&t, sym->st_name)))
			continue;
		type = ELF64_ST_TYPE(sym->st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		slot = (uint64_t *)(map->l_addr + r->r_offset);
		if (!ltr_object_holds(obj, (uintptr_t)slot, sizeof(*slot)))
			continue;
		value = *slot;
		if (!value)
			complete = false;
		if (!value || ltr_is_stub(value) || ltr_is_hook(value))
			continue;
		def = ltr_object_at(value);
		if (!def || (def->flags & LTR_OBJ_MAIN && canonical_plt(def, value)))
			continue;
		target = ltr_bind(obj, def, name, value);
		if (target != value)
			slot_write(obj, slot, target, &locked, &open);
	}
	page_close(open);
	if (complete || at_start || ++obj->patch_passes >= MAX_PASSES)
		obj->flags |= LTR_OBJ_PATCHED;
	return obj->flags & LTR_OBJ_PATCHED;
}

/* The protection of obj's segment that holds addr (PROT_READ if none does). */
static int segment_prot(const struct ltr_object *obj, uintptr_t addr)
{
	const ElfW(Phdr) *ph = ltr_object_segment(obj, addr);

	if (!ph)
		return PROT_READ;
	return (ph->p_flags & PF_R ? PROT_READ : 0) |
	       (ph->p_flags & PF_W ? PROT_WRITE : 0) |
	       (ph->p_flags & PF_X ? PROT_EXEC : 0);
}

/*
 * Before a dlopen'd object is relocated (la_objopen): turn the GLOB_DAT
 * relocations of its functions into JUMP_SLOT ones.  The loader resolves
 * both the same way and writes the same slot, but offers a JUMP_SLOT it
 * binds at once to la_symbind64 (glibc 2.35+), which returns the stub or
 * the hook: the slot is theirs from the start, before the object's
 * constructors run, under the loader's lock, also with LD_BIND_NOW.  Not
 * for a non-PIE program's process (a JUMP_SLOT lookup skips its canonical
 * PLT entries, which GLOB_DAT slots must hold) nor objects with text
 * relocations; those keep the patching passes.  The table is a private
 * mapping of the file: the write makes a copy of its pages.
 */
void ltr_got_prebind(struct ltr_object *obj)
{
	struct ltr_dynamic t;
	uintptr_t lo, hi;
	size_t i;
	int prot;

	if (ltr_object_main_nonpie())
		return;
	if (!relas_of(obj, &t) || t.textrel || t.relaent != sizeof(ElfW(Rela)))
		return;
	lo = (uintptr_t)t.rela & ~(PAGE_SIZE - 1);
	hi = ((uintptr_t)t.rela + t.relasz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	prot = segment_prot(obj, (uintptr_t)t.rela);
	if (ltr_mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE))
		return;
	for (i = 0; i < t.relasz / t.relaent; i++) {
		ElfW(Rela) *r = &t.rela[i];
		const ElfW(Sym) *sym = ltr_dynamic_sym(&t, ELF64_R_SYM(r->r_info));
		unsigned type;

		if (ELF64_R_TYPE(r->r_info) != R_X86_64_GLOB_DAT || !sym)
			continue;
		type = ELF64_ST_TYPE(sym->st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		r->r_info = ELF64_R_INFO(ELF64_R_SYM(r->r_info),
					 R_X86_64_JUMP_SLOT);
	}
	ltr_mprotect((void *)lo, hi - lo, prot);
}
