/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dynamic.c: a loaded object's dynamic data (symbols, strings, hash tables,
 * RELA relocations), every table checked against the object's segments.
 *
 * Nothing in an ELF object says where .dynsym ends: the section headers
 * are not loaded, and section order is up to the linker.  bfd and mold put
 * .dynstr right after .dynsym, but lld puts .gnu.version, .gnu.version_r
 * and .gnu.hash between them, gold puts .dynstr first, and patchelf (run
 * by auditwheel, conda and delocate on every vendored library) moves
 * .dynstr, .dynsym and the hash tables to new pages wherever they fit.
 * The loader itself counts symbols from the hash tables, and so do we:
 * DT_HASH holds the count (nchain); DT_GNU_HASH holds the first hashed
 * index and, per bucket, the first index of a chain whose last entry has
 * its low bit set, so the highest bucket's chain ends at the last symbol.
 *
 * And nothing read from an object is trusted to lie where it says: every
 * table must lie inside one of the object's PT_LOAD segments, a string
 * table must end with a NUL (so every name that starts in it ends in it),
 * and a name's offset must fall inside DT_STRSZ.  A table that does not
 * is treated as absent: the interposer loses sight of some symbols of a
 * damaged object, never reads outside what the loader mapped.
 */
#include <elf.h>

#include "interposer.h"

/* The end of obj's readable PT_LOAD segment that holds addr, or 0. */
static uintptr_t segment_end(const struct ltr_object *obj, uintptr_t addr)
{
	const ElfW(Phdr) *ph = ltr_object_segment(obj, addr);

	return ph && (ph->p_flags & PF_R) ? obj->bias + ph->p_vaddr + ph->p_memsz : 0;
}

bool ltr_object_holds(const struct ltr_object *obj, uintptr_t addr,
		      size_t size)
{
	uintptr_t end = segment_end(obj, addr);

	return end && size <= end - addr;
}

/* A pointer of map's dynamic section: the loader relocates d_ptr in place, except in read-only ones. */
static uintptr_t dyn_ptr(const struct link_map *map, uintptr_t v)
{
	return v < map->l_addr ? v + map->l_addr : v;
}

/* The number of symbols DT_HASH at hash counts (nchain), or 0. */
static size_t sysv_count(const struct ltr_object *obj, uintptr_t hash)
{
	if (!hash || hash % 4 || !ltr_object_holds(obj, hash, 2 * sizeof(uint32_t)))
		return 0;
	return ((const uint32_t *)hash)[1];
}

/*
 * The number of symbols DT_GNU_HASH at hash covers, or 0: one past the end
 * of the chain of the highest bucket; the first hashed index if no bucket
 * has a chain (only unhashed, undefined symbols).
 */
static size_t gnu_count(const struct ltr_object *obj, uintptr_t hash)
{
	const uint32_t *h = (const uint32_t *)hash, *buckets;
	uintptr_t chain, end;
	uint32_t nbuckets, symoffset, i, top = 0;

	if (!hash || hash % 4 || !ltr_object_holds(obj, hash, 4 * sizeof(uint32_t)))
		return 0;
	nbuckets = h[0];
	symoffset = h[1];
	/* Header, then h[2] bloom words of ElfW(Addr), then the buckets. */
	buckets = (const uint32_t *)(hash + 4 * sizeof(uint32_t) +
				     (uintptr_t)h[2] * sizeof(ElfW(Addr)));
	if (!ltr_object_holds(obj, (uintptr_t)buckets,
			      (size_t)nbuckets * sizeof(uint32_t)))
		return 0;
	for (i = 0; i < nbuckets; i++)
		if (buckets[i] > top)
			top = buckets[i];
	if (top == 0)
		return symoffset;
	if (top < symoffset)
		return 0;
	/* The chain entry of symbol k (k >= symoffset) follows the buckets. */
	chain = (uintptr_t)(buckets + nbuckets);
	end = segment_end(obj, chain);
	for (i = top; i != UINT32_MAX; i++) {
		uintptr_t at = chain + ((uintptr_t)(i - symoffset)) * sizeof(uint32_t);

		if (!end || at >= end || end - at < sizeof(uint32_t))
			return 0;
		if (*(const uint32_t *)at & 1)
			return (size_t)i + 1;
	}
	return 0;
}

bool ltr_dynamic_read(const struct ltr_object *obj, struct ltr_dynamic *t)
{
	const struct link_map *map = obj->map;
	const ElfW(Dyn) *d;
	uintptr_t syms = 0, strtab = 0, hash = 0, gnu_hash = 0, rela = 0;
	size_t syment = sizeof(ElfW(Sym));

	*t = (struct ltr_dynamic){ .relaent = sizeof(ElfW(Rela)) };
	for (d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB:
			syms = dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_SYMENT:
			syment = d->d_un.d_val;
			break;
		case DT_STRTAB:
			strtab = dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_STRSZ:
			t->strsz = d->d_un.d_val;
			break;
		case DT_HASH:
			hash = dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_GNU_HASH:
			gnu_hash = dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_SONAME:
			t->soname = d->d_un.d_val;
			t->have_soname = true;
			break;
		case DT_RELA:
			rela = dyn_ptr(map, d->d_un.d_ptr);
			break;
		case DT_RELASZ:
			t->relasz = d->d_un.d_val;
			break;
		case DT_RELAENT:
			t->relaent = d->d_un.d_val;
			break;
		case DT_TEXTREL:
			t->textrel = true;
			break;
		case DT_FLAGS:
			t->textrel = t->textrel || (d->d_un.d_val & DF_TEXTREL);
			break;
		}
	}
	if (strtab && t->strsz && ltr_object_holds(obj, strtab, t->strsz) &&
	    ((const char *)strtab)[t->strsz - 1] == '\0')
		t->strtab = (const char *)strtab;
	else
		t->strsz = 0;
	t->nsyms = hash ? sysv_count(obj, hash) : gnu_count(obj, gnu_hash);
	if (syms && syms % 8 == 0 && syment == sizeof(ElfW(Sym)) && t->nsyms &&
	    t->nsyms < ((size_t)1 << 32) &&
	    ltr_object_holds(obj, syms, t->nsyms * sizeof(ElfW(Sym))))
		t->syms = (const ElfW(Sym) *)syms;
	else
		t->nsyms = 0;
	if (rela && rela % 8 == 0 && t->relaent >= sizeof(ElfW(Rela)) &&
	    ltr_object_holds(obj, rela, t->relasz))
		t->rela = (ElfW(Rela) *)rela;
	else
		t->relasz = 0;
	return t->syms && t->strtab;
}

const char *ltr_dynamic_str(const struct ltr_dynamic *t, size_t off)
{
	return off < t->strsz ? t->strtab + off : NULL;
}

const ElfW(Sym) *ltr_dynamic_sym(const struct ltr_dynamic *t, size_t i)
{
	return i < t->nsyms ? &t->syms[i] : NULL;
}

const ElfW(Sym) *ltr_dynamic_find(const struct ltr_object *obj,
				  const char *name, int type)
{
	struct ltr_dynamic t;
	const ElfW(Sym) *sym;
	const char *s;
	size_t i;

	if (!ltr_dynamic_read(obj, &t))
		return NULL;
	for (i = 0; (sym = ltr_dynamic_sym(&t, i)) != NULL; i++) {
		bool fits = type == LTR_SYM_UNDEF ?
				    sym->st_shndx == SHN_UNDEF :
				    sym->st_shndx != SHN_UNDEF && sym->st_value &&
					    (int)ELF64_ST_TYPE(sym->st_info) == type;

		if (fits && (s = ltr_dynamic_str(&t, sym->st_name)) != NULL &&
		    ltr_strcmp(s, name) == 0)
			return sym;
	}
	return NULL;
}
