/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * got-patch.c: redirect GLOB_DAT slots that name selected functions.
 *
 * Code built with -fno-plt calls through GOT slots filled by GLOB_DAT
 * relocations, and so does a PIE taking a function's address; the loader
 * never offers those bindings to la_symbind64.  Once an object is relocated
 * we walk its RELA table and point each such slot at the function's stub,
 * the same stub its PLT binding gets.  RELRO pages are made writable just
 * for the write.  A slot holding a non-PIE program's canonical PLT entry is
 * left alone: calls through it already reach the stub via that PLT entry,
 * and patching it would count them twice.
 *
 * When is an object relocated?  For the program and its libraries, at
 * la_preinit.  For dlopen, no audit call comes between relocation and the
 * constructors (LA_ACT_CONSISTENT comes before relocation), so objects stay
 * pending and every later audit event (a binding, a dlsym) retries them.
 * An object with RELRO is relocated once the loader has made its RELRO
 * read-only; patching earlier would re-protect a page the loader is still
 * writing.  /proc/self/maps tells (a read-only look: writing a probe value
 * could race a loader write on another thread).  Slots still zero (not yet
 * relocated) are left for the next pass.
 */
#include <elf.h>
#include <stdio.h>
#include <sys/mman.h>

#include "interposer.h"

#define MAX_PASSES 64 /* give up on slots that never get a value */

#define PAGE_SIZE 4096ul

/* Does the non-PIE program define name at addr for real (not a PLT entry)? */
static bool canonical_plt(const struct ltr_object *def, uintptr_t addr)
{
	const ElfW(Sym) *sym, *end;
	const char *strtab;

	if (!(def->flags & LTR_OBJ_NONPIE))
		return false;
	if (!ltr_dynsym(def->map, &sym, &end, &strtab))
		return true; /* cannot tell: leave the slot alone */
	for (; sym < end; sym++)
		if (sym->st_value == addr)
			return sym->st_shndx == SHN_UNDEF;
	return true;
}

/* Write value into slot, opening a RELRO page for the time of the write. */
static void slot_write(const struct ltr_object *obj, uint64_t *slot,
		       uintptr_t value)
{
	uintptr_t page = (uintptr_t)slot & ~(PAGE_SIZE - 1);
	bool relro = (uintptr_t)slot >= obj->relro_start &&
		     (uintptr_t)slot < obj->relro_end;

	if (relro && mprotect((void *)page, PAGE_SIZE, PROT_READ | PROT_WRITE)) {
		ltr_warn("warning", "cannot patch a read-only GOT slot; some calls stay untraced");
		return;
	}
	__atomic_store_n(slot, value, __ATOMIC_RELEASE);
	if (relro)
		mprotect((void *)page, PAGE_SIZE, PROT_READ);
}

/* Has the loader finished relocating obj (its RELRO is read-only)? */
static bool relocated(const struct ltr_object *obj)
{
	unsigned long lo, hi;
	char line[512], perms[8];
	bool done = false;
	FILE *maps;

	if (obj->relro_end <= obj->relro_start)
		return true; /* no RELRO: zero slots are simply retried */
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return false;
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
		    obj->relro_start >= lo && obj->relro_start < hi) {
			done = perms[1] == '-';
			break;
		}
	}
	fclose(maps);
	return done;
}

bool ltr_got_patch(struct ltr_object *obj, bool at_start)
{
	const struct link_map *map = obj->map;
	const ElfW(Rela) *rela = NULL;
	const ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	size_t relasz = 0, relaent = sizeof(ElfW(Rela)), i;
	const ElfW(Dyn) *d;

	bool complete = true;

	if (!(obj->flags & LTR_OBJ_FROM) || (obj->flags & LTR_OBJ_PATCHED))
		return true;
	if (!at_start && !relocated(obj))
		return false;
	for (d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_RELA:
			rela = (const ElfW(Rela) *)ltr_dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_RELASZ:
			relasz = d->d_un.d_val;
			break;
		case DT_RELAENT:
			relaent = d->d_un.d_val;
			break;
		case DT_SYMTAB:
			symtab = (const ElfW(Sym) *)ltr_dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_STRTAB:
			strtab = (const char *)ltr_dyn_ptr(map, d->d_un.d_ptr);
			break;
		}
	}
	if (!rela || !symtab || !strtab || relaent < sizeof(ElfW(Rela))) {
		obj->flags |= LTR_OBJ_PATCHED;
		return true;
	}
	for (i = 0; i < relasz / relaent; i++) {
		const ElfW(Rela) *r = (const void *)((const char *)rela + i * relaent);
		const ElfW(Sym) *sym;
		struct ltr_object *def;
		uint64_t *slot;
		uintptr_t value, stub;
		unsigned type;

		if (ELF64_R_TYPE(r->r_info) != R_X86_64_GLOB_DAT)
			continue;
		sym = &symtab[ELF64_R_SYM(r->r_info)];
		type = ELF64_ST_TYPE(sym->st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		slot = (uint64_t *)(map->l_addr + r->r_offset);
		value = *slot;
		if (!value)
			complete = false;
		if (!value || ltr_is_stub(value))
			continue;
		def = ltr_object_at(value);
		if (!def || !ltr_select_call(obj, def, strtab + sym->st_name))
			continue;
		if (def->flags & LTR_OBJ_MAIN && canonical_plt(def, value))
			continue;
		stub = ltr_stub_for(value, strtab + sym->st_name, def);
		if (stub)
			slot_write(obj, slot, stub);
	}
	if (complete || at_start || ++obj->patch_passes >= MAX_PASSES)
		obj->flags |= LTR_OBJ_PATCHED;
	return obj->flags & LTR_OBJ_PATCHED;
}
