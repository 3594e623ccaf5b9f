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
 * But DT_GNU_HASH says nothing of the undefined symbols before the first
 * hashed one when none is hashed (bfd then writes 1 as the first hashed
 * index of a program that exports nothing): the symbols the relocations
 * name count too.
 *
 * A name is looked up as the loader looks it up, through DT_GNU_HASH when
 * the object has one (libc's ~3 000 symbols were compared one by one, a
 * few times in every traced process: ~65 000 instructions a lookup): its
 * defined symbols are all hashed, its undefined ones all come before the
 * first hashed one.
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
#include "objects.h"

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

/* The buckets of DT_GNU_HASH at hash, its header and buckets checked to lie in obj; NULL if not. */
static const uint32_t *gnu_buckets(const struct ltr_object *obj, uintptr_t hash)
{
	const uint32_t *h = (const uint32_t *)hash, *buckets;

	if (!hash || hash % 4 || !ltr_object_holds(obj, hash, 4 * sizeof(uint32_t)))
		return NULL;
	/* Header, then h[2] bloom words of ElfW(Addr), then the buckets. */
	buckets = (const uint32_t *)(hash + 4 * sizeof(uint32_t) +
				     (uintptr_t)h[2] * sizeof(ElfW(Addr)));
	if (!ltr_object_holds(obj, (uintptr_t)buckets,
			      (size_t)h[0] * sizeof(uint32_t)))
		return NULL;
	return buckets;
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

	if (!(buckets = gnu_buckets(obj, hash)))
		return 0;
	nbuckets = h[0];
	symoffset = h[1];
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

/*
 * Does DT_GNU_HASH at hash hash some symbol (a bucket has a chain), with a
 * bloom filter the loader can use, all inside obj?  Then names can be
 * looked up through it (gnu_find).
 */
static bool gnu_usable(const struct ltr_object *obj, uintptr_t hash)
{
	const uint32_t *h = (const uint32_t *)hash, *buckets;
	uint32_t i;

	if (!(buckets = gnu_buckets(obj, hash)) || !h[2] ||
	    (h[2] & (h[2] - 1)) ||
	    !ltr_object_holds(obj, hash + 4 * sizeof(uint32_t),
			      (size_t)h[2] * sizeof(ElfW(Addr))))
		return false;
	for (i = 0; i < h[0]; i++)
		if (buckets[i])
			return true;
	return false;
}

/* One past the highest symbol index the RELA table at rela (size bytes, ent each) names, or 0. */
static size_t reloc_count(const struct ltr_object *obj, uintptr_t rela,
			  size_t size, size_t ent)
{
	size_t i, n = 0;

	if (!rela || rela % 8 || ent < sizeof(ElfW(Rela)) ||
	    !ltr_object_holds(obj, rela, size))
		return 0;
	for (i = 0; i < size / ent; i++) {
		const ElfW(Rela) *r = (const ElfW(Rela) *)(rela + i * ent);

		if (ELF64_R_SYM(r->r_info) >= n)
			n = (size_t)ELF64_R_SYM(r->r_info) + 1;
	}
	return n;
}

/* The larger of a and b. */
static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The dynamic tags read, and whether each holds an address (relocated by dyn_ptr). */
enum { T_SYMTAB, T_SYMENT, T_STRTAB, T_STRSZ, T_HASH, T_GNU_HASH, T_SONAME,
       T_RELA, T_RELASZ, T_RELAENT, T_TEXTREL, T_FLAGS, T_JMPREL,
       T_PLTRELSZ, T_PLTREL, T_COUNT };
static const struct {
	ElfW(Sxword) tag;
	bool ptr;
} tags[T_COUNT] = {
	[T_SYMTAB] = { DT_SYMTAB, true },     [T_SYMENT] = { DT_SYMENT, false },
	[T_STRTAB] = { DT_STRTAB, true },     [T_STRSZ] = { DT_STRSZ, false },
	[T_HASH] = { DT_HASH, true },         [T_GNU_HASH] = { DT_GNU_HASH, true },
	[T_SONAME] = { DT_SONAME, false },    [T_RELA] = { DT_RELA, true },
	[T_RELASZ] = { DT_RELASZ, false },    [T_RELAENT] = { DT_RELAENT, false },
	[T_TEXTREL] = { DT_TEXTREL, false },  [T_FLAGS] = { DT_FLAGS, false },
	[T_JMPREL] = { DT_JMPREL, true },     [T_PLTRELSZ] = { DT_PLTRELSZ, false },
	[T_PLTREL] = { DT_PLTREL, false },
};

/*
 * Read obj's dynamic section into t; false if it has no symbols and
 * strings.  Once an object, at la_objopen: what it reads (the loader has
 * relocated the section's addresses by then, or dyn_ptr does) never
 * changes while the object is loaded, and every lookup used to read it
 * again, hash tables and relocations counted (libc: ~4 000 instructions).
 */
static bool dynamic_scan(const struct ltr_object *obj, struct ltr_dynamic *t)
{
	const struct link_map *map = obj->map;
	const ElfW(Dyn) *d;
	uintptr_t v[T_COUNT] = { [T_SYMENT] = sizeof(ElfW(Sym)),
				 [T_RELAENT] = sizeof(ElfW(Rela)) };
	bool seen[T_COUNT] = { false };
	size_t k;

	for (d = map->l_ld; d && d->d_tag != DT_NULL; d++)
		for (k = 0; k < T_COUNT; k++)
			if (d->d_tag == tags[k].tag) {
				v[k] = tags[k].ptr ? dyn_ptr(map, d->d_un.d_ptr) :
						     d->d_un.d_val;
				seen[k] = true;
			}
	*t = (struct ltr_dynamic){
		.soname = v[T_SONAME],
		.have_soname = seen[T_SONAME],
		.textrel = seen[T_TEXTREL] || (v[T_FLAGS] & DF_TEXTREL),
		.relaent = v[T_RELAENT],
	};
	if (v[T_STRTAB] && v[T_STRSZ] &&
	    ltr_object_holds(obj, v[T_STRTAB], v[T_STRSZ]) &&
	    ((const char *)v[T_STRTAB])[v[T_STRSZ] - 1] == '\0') {
		t->strtab = (const char *)v[T_STRTAB];
		t->strsz = v[T_STRSZ];
	}
	t->nsyms = v[T_HASH] ? sysv_count(obj, v[T_HASH]) :
			       gnu_count(obj, v[T_GNU_HASH]);
	t->nsyms = max_size(t->nsyms, reloc_count(obj, v[T_RELA], v[T_RELASZ],
						  t->relaent));
	if (v[T_PLTREL] == DT_RELA)
		t->nsyms = max_size(t->nsyms,
				    reloc_count(obj, v[T_JMPREL], v[T_PLTRELSZ],
						sizeof(ElfW(Rela))));
	if (v[T_SYMTAB] && v[T_SYMTAB] % 8 == 0 &&
	    v[T_SYMENT] == sizeof(ElfW(Sym)) && t->nsyms &&
	    t->nsyms < ((size_t)1 << 32) &&
	    ltr_object_holds(obj, v[T_SYMTAB], t->nsyms * sizeof(ElfW(Sym))))
		t->syms = (const ElfW(Sym) *)v[T_SYMTAB];
	else
		t->nsyms = 0;
	t->nunhashed = t->nsyms;
	if (t->nsyms && gnu_usable(obj, v[T_GNU_HASH]) &&
	    ((const uint32_t *)v[T_GNU_HASH])[1] <= t->nsyms) {
		t->gnu_hash = v[T_GNU_HASH];
		t->nunhashed = ((const uint32_t *)t->gnu_hash)[1];
	}
	if (v[T_RELA] && v[T_RELA] % 8 == 0 &&
	    t->relaent >= sizeof(ElfW(Rela)) &&
	    ltr_object_holds(obj, v[T_RELA], v[T_RELASZ])) {
		t->rela = (ElfW(Rela) *)v[T_RELA];
		t->relasz = v[T_RELASZ];
	}
	return t->syms && t->strtab;
}

void ltr_dynamic_load(struct ltr_object *obj)
{
	obj->dyn_ok = dynamic_scan(obj, &obj->dyn);
}

bool ltr_dynamic_read(const struct ltr_object *obj, struct ltr_dynamic *t)
{
	*t = obj->dyn;
	return obj->dyn_ok;
}

const char *ltr_dynamic_str(const struct ltr_dynamic *t, size_t off)
{
	return off < t->strsz ? t->strtab + off : NULL;
}

const ElfW(Sym) *ltr_dynamic_sym(const struct ltr_dynamic *t, size_t i)
{
	return i < t->nsyms ? &t->syms[i] : NULL;
}

/* Is sym of t named name, and of type (LTR_SYM_UNDEF: undefined)? */
static bool sym_is(const struct ltr_dynamic *t, const ElfW(Sym) *sym,
		  const char *name, int type)
{
	bool fits = type == LTR_SYM_UNDEF ?
			    sym->st_shndx == SHN_UNDEF :
			    sym->st_shndx != SHN_UNDEF && sym->st_value &&
				    (int)ELF64_ST_TYPE(sym->st_info) == type;
	const char *s;

	return fits && (s = ltr_dynamic_str(t, sym->st_name)) != NULL &&
	       ltr_strcmp(s, name) == 0;
}

/*
 * The first defined symbol name of type in t, through its DT_GNU_HASH
 * (the loader's dl_new_hash, bloom filter, bucket and chain), every word
 * read checked to lie in obj; NULL if none.
 */
static const ElfW(Sym) *gnu_find(const struct ltr_object *obj,
				 const struct ltr_dynamic *t,
				 const char *name, int type)
{
	const uint32_t *h = (const uint32_t *)t->gnu_hash, *buckets;
	const ElfW(Addr) *bloom;
	uint32_t nbuckets = h[0], symoffset = h[1], nbloom = h[2],
		 shift = h[3], hash = 5381, i;
	const unsigned char *c;
	uintptr_t chain, end;
	ElfW(Addr) word;

	for (c = (const unsigned char *)name; *c; c++)
		hash = hash * 33 + *c;
	bloom = (const ElfW(Addr) *)(t->gnu_hash + 4 * sizeof(uint32_t));
	word = bloom[(hash / 64) & (nbloom - 1)];
	if (!((word >> (hash % 64)) & (word >> ((hash >> (shift % 32)) % 64)) & 1))
		return NULL;
	buckets = (const uint32_t *)(bloom + nbloom);
	chain = (uintptr_t)(buckets + nbuckets);
	end = segment_end(obj, chain);
	for (i = buckets[hash % nbuckets]; i >= symoffset && i < t->nsyms; i++) {
		uintptr_t at = chain + (uintptr_t)(i - symoffset) * sizeof(uint32_t);
		uint32_t h2;

		if (!end || at >= end || end - at < sizeof(uint32_t))
			return NULL;
		h2 = *(const uint32_t *)at;
		if ((h2 | 1) == (hash | 1) && sym_is(t, &t->syms[i], name, type))
			return &t->syms[i];
		if (h2 & 1)
			break;
	}
	return NULL;
}

const ElfW(Sym) *ltr_dynamic_find(const struct ltr_object *obj,
				  const char *name, int type)
{
	struct ltr_dynamic t;
	const ElfW(Sym) *sym;
	size_t i, n;

	if (!ltr_dynamic_read(obj, &t))
		return NULL;
	if (t.gnu_hash && type != LTR_SYM_UNDEF)
		return gnu_find(obj, &t, name, type);
	/* Undefined symbols: all before the first hashed one. */
	n = type == LTR_SYM_UNDEF ? t.nunhashed : t.nsyms;
	for (i = 0; i < n && (sym = ltr_dynamic_sym(&t, i)) != NULL; i++)
		if (sym_is(&t, sym, name, type))
			return sym;
	return NULL;
}
