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
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "fd-util.h"
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

/* Order functions by address only. */
static int vaddr_cmp(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
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

/* A GOT slot, and the name of the function it is bound to. */
struct slot {
	uint64_t slot;
	const char *name;
};

/* Order GOT slots by address. */
static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * The GOT slots of im that its relocations bind to a function it defines
 * itself, from every SHT_RELA section against dynscn; sorted, in *n.
 */
static struct slot *own_slots(const struct image *im, Elf_Scn *dynscn,
			      size_t *n)
{
	Elf_Scn *scn = NULL;
	struct slot *v = NULL;
	size_t cap = 0, i, dynidx = elf_ndxscn(dynscn);
	GElf_Shdr sh, dynsh;
	Elf_Data *d, *syms = elf_getdata(dynscn, NULL);

	*n = 0;
	if (!syms || !gelf_getshdr(dynscn, &dynsh))
		return NULL;
	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    sh.sh_link != dynidx || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			const char *name;
			unsigned type;

			if (!gelf_getrela(d, (int)i, &r))
				continue;
			type = (unsigned)GELF_R_TYPE(r.r_info);
			if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) ||
			    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF ||
			    !(name = elf_strptr(im->elf, dynsh.sh_link, sym.st_name)))
				continue;
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[(*n)++] = (struct slot){ r.r_offset, name };
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), slot_cmp);
	return v;
}

/* The GOT slot the PLT entry of n bytes at vaddr jumps through (jmp *slot(%rip)), or 0. */
static uint64_t plt_slot(const uint8_t *bytes, uint64_t n, uint64_t vaddr)
{
	uint64_t off = 0;
	ZydisDecodedInstruction in;

	while (off < n && image_decode(bytes + off, n - off, &in)) {
		if (in.meta.category == ZYDIS_CATEGORY_UNCOND_BR &&
		    (in.attributes & ZYDIS_ATTRIB_HAS_MODRM) &&
		    in.raw.modrm.mod == 0 && in.raw.modrm.rm == 5)
			return rel_target(&in, vaddr + off);
		off += in.length;
	}
	return 0;
}

/*
 * The PLT entries of im that jump to a function of its own (a library's
 * call to its exported function that the loader binds back to it): each
 * entry of .plt, .plt.sec and .plt.got whose jmp *slot(%rip) reads a slot
 * of own_slots().  The scan counts the calls that land on them.
 */
static void plts_read(struct image *im, Elf_Scn *dynscn)
{
	size_t nslots, shstrndx, cap = 0;
	struct slot *slots = own_slots(im, dynscn, &nslots);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;

	if (!nslots || elf_getshdrstrndx(im->elf, &shstrndx) != 0) {
		free(slots);
		return;
	}
	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		const char *name;
		uint64_t size, at;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(name = elf_strptr(im->elf, shstrndx, sh.sh_name)) ||
		    strncmp(name, ".plt", 4) != 0 ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		size = sh.sh_entsize ? sh.sh_entsize : 16;
		for (at = 0; at + size <= d->d_size; at += size) {
			struct slot key = {
				plt_slot((const uint8_t *)d->d_buf + at, size,
					 sh.sh_addr + at),
				NULL
			};
			const struct slot *hit = bsearch(&key, slots, nslots,
							 sizeof(*slots), slot_cmp);

			if (!hit)
				continue;
			if (im->nplts == cap) {
				cap = cap ? 2 * cap : 16;
				im->plts = xrealloc(im->plts, cap * sizeof(*im->plts));
			}
			im->plts[im->nplts++] = (struct fn){ sh.sh_addr + at, size,
							     hit->name, false };
		}
	}
	free(slots);
	if (im->nplts)
		qsort(im->plts, im->nplts, sizeof(*im->plts), vaddr_cmp);
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
	if (dynscn)
		plts_read(im, dynscn);
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

/* The PLT entry of im at vaddr, or NULL. */
static const struct fn *plt_at(const struct image *im, uint64_t vaddr)
{
	const struct fn key = { .vaddr = vaddr };

	return im->nplts ? bsearch(&key, im->plts, im->nplts, sizeof(*im->plts),
				   vaddr_cmp)
			 : NULL;
}

/*
 * Keep a branch decoded at from if it matters to a plan: one that lands
 * inside a function's first bytes, or a jmp of the function's own back
 * to its entry; count those that land on an entry, or on a PLT entry of
 * the object's own functions (image_hints).
 */
static void branch_keep(struct image *im, uint64_t target, uint64_t from,
			bool call, size_t *cap, size_t *hcap)
{
	const struct fn *f = entry_holding(im, target);
	struct patch_scan *sc = &im->scan;

	if (!f && !plt_at(im, target))
		return;
	if (!f || target == f->vaddr) {
		if (sc->nhits == *hcap) {
			*hcap = *hcap ? 2 * *hcap : 1024;
			sc->hits = xrealloc(sc->hits, *hcap * sizeof(*sc->hits));
		}
		sc->hits[sc->nhits++] = (struct patch_hits){ target, 1 };
		if (!f || call || from < f->vaddr || from >= f->vaddr + f->size)
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
bool image_scan(struct image *im, uint64_t *budget)
{
	size_t cap = 0, hcap = 0, i;
	uint64_t code = 0;

	if (patch_cache_load(im->path, &im->scan))
		return true;
	for (i = 0; i < im->ntexts; i++)
		code += im->texts[i].size;
	if (budget && code > *budget)
		return false;
	if (budget)
		*budget -= code;
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
	return true;
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

size_t image_calls_to(const struct image *im, const struct fn *f)
{
	size_t i, n = entry_hits(im, f->vaddr);

	for (i = 0; i < im->nplts; i++)
		if (strcmp(im->plts[i].name, f->name) == 0)
			n += entry_hits(im, im->plts[i].vaddr);
	return n;
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

/*
 * Is the object of im a program rather than a library?  Recorded objects
 * do not say which one a process ran: a fixed-address executable is one,
 * and so is a position-independent one, flagged PIE by its linker or,
 * from linkers that do not flag it, asking for an interpreter without a
 * soname of its own (libc.so.6 asks for one too, but has a soname).
 */
static bool image_is_program(const struct image *im, bool pie)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t i, n;

	if (!gelf_getehdr(im->elf, &eh))
		return false;
	if (eh.e_type == ET_EXEC || pie)
		return true;
	if (im->names.soname || elf_getphdrnum(im->elf, &n) != 0)
		return false;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(im->elf, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	return false;
}

/* Open path into im; false (and a warning unless IMAGE_QUIET) if it cannot be read. */
bool image_open(struct image *im, const char *path, unsigned how)
{
	size_t len;
	const char *sn;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool pie = false;

	memset(im, 0, sizeof(*im));
	im->path = path;
	/* A path a traced program named: never a FIFO or a device */
	errno = 0;
	im->fd = fd_open_regular(path);
	if (im->fd < 0 || !(im->elf = elf_begin(im->fd, ELF_C_READ_MMAP, NULL))) {
		const char *why = im->fd >= 0 ? elf_errmsg(-1) :
				  errno ? strerror(errno) : "it is no regular file";

		if (!(how & IMAGE_QUIET))
			warning_msg("cannot read '%s' to patch its functions: %s",
				    path, why);
		if (im->fd >= 0)
			close(im->fd);
		return false;
	}
	im->names.path = path;
	while ((scn = elf_nextscn(im->elf, scn)) != NULL) {
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			if (!gelf_getdyn(d, (int)i, &dyn))
				continue;
			if (dyn.d_tag == DT_SONAME)
				im->names.soname = elf_strptr(im->elf, sh.sh_link,
							      dyn.d_un.d_val);
			else if (dyn.d_tag == DT_FLAGS_1)
				pie = (dyn.d_un.d_val & DF_1_PIE) != 0;
		}
	}
	im->names.main = (how & IMAGE_MAIN) ||
			 ((how & IMAGE_GUESS) && image_is_program(im, pie));
	sn = sel_short_name(im->names.soname, path, im->names.main, &len);
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
	free(im->plts);
	elf_end(im->elf);
	close(im->fd);
}
