/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patch-image.c: an object as entry patching reads it: its executable
 * sections, its function symbols (.symtab, else .dynsym), and what a
 * decoding of the whole with Zydis finds that matters to a plan (the
 * direct branches into some function's first bytes, the branches onto
 * each entry), cached by build ID (patch-cache.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "patch-image.h"
#include "xmalloc.h"

static ZydisDecoder decoder;

void image_decoder_init(void)
{
	ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
}

bool image_decode(const uint8_t *bytes, size_t n, ZydisDecodedInstruction *in)
{
	ZydisDecoderContext ctx;

	return ZYAN_SUCCESS(
		ZydisDecoderDecodeInstruction(&decoder, &ctx, bytes, n, in));
}

/* Order functions by address, then name (aliases stay together). */
static int fn_cmp(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Order branches by target. */
static int branch_cmp(const void *a, const void *b)
{
	const struct patch_branch *x = a, *y = b;

	return x->target < y->target ? -1 : x->target > y->target;
}

/* The bytes of the object at vaddr, and how many follow in its section; NULL if none. */
const uint8_t *text_at(const struct image *im, uint64_t vaddr,
			      uint64_t *avail)
{
	size_t i;

	for (i = 0; i < im->ntexts; i++) {
		const struct text *t = &im->texts[i];

		if (vaddr >= t->addr && vaddr < t->addr + t->size) {
			*avail = t->addr + t->size - vaddr;
			return t->data + (vaddr - t->addr);
		}
	}
	return NULL;
}

/* Read the executable sections and the function symbols of im. */
bool image_read(struct image *im)
{
	Elf_Scn *scn = NULL, *symscn = NULL, *dynscn = NULL;
	GElf_Shdr sh, symsh;
	size_t cap = 0, i, n;
	GElf_Ehdr eh;
	Elf_Data *d;

	if (gelf_getehdr(im->elf, &eh))
		im->entry = eh.e_entry;
	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			symscn = scn;
		else if (sh.sh_type == SHT_DYNSYM)
			dynscn = scn;
		else if (sh.sh_type == SHT_PROGBITS &&
			 (sh.sh_flags & SHF_EXECINSTR) &&
			 (d = elf_getdata(scn, NULL)) != NULL && d->d_buf) {
			im->texts = xrealloc(im->texts, (im->ntexts + 1) *
							       sizeof(*im->texts));
			im->texts[im->ntexts++] = (struct text){
				sh.sh_addr, d->d_size, d->d_buf
			};
		}
	}
	im->stripped = !symscn;
	if (!symscn)
		symscn = dynscn;
	if (!symscn || !gelf_getshdr(symscn, &symsh) ||
	    !(d = elf_getdata(symscn, NULL)))
		return false;
	n = symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) {
			im->resolvers = xrealloc(im->resolvers,
						 (im->nresolvers + 1) *
							 sizeof(*im->resolvers));
			im->resolvers[im->nresolvers++] = sym.st_value;
			continue;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
			continue;
		name = elf_strptr(im->elf, symsh.sh_link, sym.st_name);
		/* A .cold part is no entry: never called, only jumped to. */
		if (!name || !*name || strstr(name, ".cold"))
			continue;
		if (im->nfns == cap) {
			cap = cap ? 2 * cap : 256;
			im->fns = xrealloc(im->fns, cap * sizeof(*im->fns));
		}
		im->fns[im->nfns++] = (struct fn){ sym.st_value, sym.st_size,
						   name, false };
	}
	/* None (a program that exports nothing, stripped): no array to sort. */
	if (im->nfns)
		qsort(im->fns, im->nfns, sizeof(*im->fns), fn_cmp);
	return true;
}

/* The target of a relative branch or RIP-relative operand, decoded at vaddr. */
uint64_t rel_target(const ZydisDecodedInstruction *in, uint64_t vaddr)
{
	int64_t off = in->raw.imm[0].is_relative ? in->raw.imm[0].value.s :
						   in->raw.disp.value;

	return vaddr + in->length + (uint64_t)off;
}

/* The function of im whose first bytes (endbr64 and the jmp's) hold vaddr, or NULL. */
static const struct fn *entry_holding(const struct image *im, uint64_t vaddr)
{
	size_t lo = 0, hi = im->nfns;

	while (lo < hi) { /* the last function at or below vaddr */
		size_t mid = lo + (hi - lo) / 2;

		if (im->fns[mid].vaddr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || vaddr >= im->fns[lo - 1].vaddr + 4 + LTR_PATCH_ORIG)
		return NULL;
	return &im->fns[lo - 1];
}

/*
 * Keep a branch decoded at from if it matters to a plan: one that lands
 * inside a function's first bytes, or a jmp of the function's own back
 * to its entry; count those that land on an entry.
 */
static void branch_keep(struct image *im, uint64_t target, uint64_t from,
			bool call, size_t *cap, size_t *hcap)
{
	const struct fn *f = entry_holding(im, target);
	struct patch_scan *sc = &im->scan;

	if (!f)
		return;
	if (target == f->vaddr) {
		if (sc->nhits == *hcap) {
			*hcap = *hcap ? 2 * *hcap : 1024;
			sc->hits = xrealloc(sc->hits, *hcap * sizeof(*sc->hits));
		}
		sc->hits[sc->nhits++] = (struct patch_hits){ target, 1 };
		if (call || from < f->vaddr || from >= f->vaddr + f->size)
			return;
	}
	if (sc->nbranches == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		sc->branches = xrealloc(sc->branches, *cap * sizeof(*sc->branches));
	}
	sc->branches[sc->nbranches++] = (struct patch_branch){ target, from, call };
}

/* Order hits by address. */
static int hits_cmp(const void *a, const void *b)
{
	const struct patch_hits *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* Fold the hits of one address into one entry with their count. */
static void hits_fold(struct patch_scan *sc)
{
	size_t i, n = 0;

	if (sc->nhits)
		qsort(sc->hits, sc->nhits, sizeof(*sc->hits), hits_cmp);
	for (i = 0; i < sc->nhits; i++) {
		if (n && sc->hits[n - 1].vaddr == sc->hits[i].vaddr)
			sc->hits[n - 1].n += sc->hits[i].n;
		else
			sc->hits[n++] = sc->hits[i];
	}
	sc->nhits = n;
}

/*
 * Decode every executable section of im, keeping the direct branches
 * (jmp, jcc, call) that matter to a plan (branch_keep); or read them from
 * the cache, by build ID.  Undecodable bytes (data, padding) are stepped
 * over one at a time.
 */
void image_scan(struct image *im)
{
	size_t cap = 0, hcap = 0, i;

	if (patch_cache_load(im->path, &im->scan))
		return;
	for (i = 0; i < im->ntexts; i++) {
		const struct text *t = &im->texts[i];
		uint64_t off = 0;

		while (off < t->size) {
			ZydisDecodedInstruction in;

			if (!image_decode(t->data + off, t->size - off, &in)) {
				off++;
				continue;
			}
			if (in.raw.imm[0].is_relative)
				branch_keep(im, rel_target(&in, t->addr + off),
					    t->addr + off,
					    in.meta.category == ZYDIS_CATEGORY_CALL,
					    &cap, &hcap);
			off += in.length;
		}
	}
	if (im->scan.nbranches)
		qsort(im->scan.branches, im->scan.nbranches,
		      sizeof(*im->scan.branches), branch_cmp);
	hits_fold(&im->scan);
	patch_cache_save(im->path, &im->scan);
}

/* How many direct branches of im land on vaddr's entry. */
size_t entry_hits(const struct image *im, uint64_t vaddr)
{
	const struct patch_hits key = { vaddr, 0 }, *h;

	h = im->scan.nhits ? bsearch(&key, im->scan.hits, im->scan.nhits,
				     sizeof(*im->scan.hits), hits_cmp)
			   : NULL;
	return h ? h->n : 0;
}

/* The first branch of im whose target is at or above vaddr (an index). */
size_t branch_from(const struct image *im, uint64_t vaddr)
{
	size_t lo = 0, hi = im->scan.nbranches;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->scan.branches[mid].target < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Open path into im; false (and a warning) if it cannot be read. */
bool image_open(struct image *im, const char *path, bool main)
{
	size_t len;
	const char *sn;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(im, 0, sizeof(*im));
	im->path = path;
	im->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (im->fd < 0 || !(im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL))) {
		warning_msg("cannot read '%s' to patch its functions: %s", path,
			    im->fd < 0 ? strerror(errno) : elf_errmsg(-1));
		if (im->fd >= 0)
			close(im->fd);
		return false;
	}
	im->names.main = main;
	im->names.path = path;
	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			if (gelf_getdyn(d, (int)i, &dyn) && dyn.d_tag == DT_SONAME)
				im->names.soname = elf_strptr(im->elf, sh.sh_link,
							      dyn.d_un.d_val);
		}
	}
	sn = sel_short_name(im->names.soname, path, main, &len);
	if (len >= sizeof(im->short_name))
		len = sizeof(im->short_name) - 1;
	memcpy(im->short_name, sn, len);
	im->names.short_name = im->short_name;
	return true;
}

/* Release what image_open and image_read took. */
void image_close(struct image *im)
{
	free(im->texts);
	free(im->fns);
	free(im->scan.branches);
	free(im->scan.hits);
	free(im->resolvers);
	elf_end(im->elf);
	close(im->fd);
}
