/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dynsym.c: read the dynamic symbols of an ELF file with libelf (--list).
 *
 * What the loader binds is in .dynsym: each entry is defined or undefined,
 * and .gnu.version gives it a version index.  Indexes name a version
 * defined here (.gnu.version_d: "GLIBC_2.2.5", the hidden bit set for
 * sym@VER rather than the default sym@@VER) or one required from another
 * file (.gnu.version_r).  Index 0 is local, 1 the unversioned base.  The
 * JUMP_SLOT and GLOB_DAT relocations say which entries the file really
 * binds at run time: the calls the interposer can see.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynsym.h"
#include "error.h"
#include "xmalloc.h"

/* Version names by index, as the version sections define them. */
struct vernames {
	const char **name;
	size_t n;
};

/* Name version index ndx (hidden bit cleared). */
static void vernames_set(struct vernames *v, size_t ndx, const char *name)
{
	if (ndx >= v->n) {
		size_t n = ndx + 16;
		const char **grown = xrealloc(v->name, n * sizeof(*grown));

		memset(grown + v->n, 0, (n - v->n) * sizeof(*grown));
		v->name = grown;
		v->n = n;
	}
	v->name[ndx] = name;
}

/* Record the versions a .gnu.version_d section defines. */
static void read_verdef(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			struct vernames *v)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, i;
	GElf_Verdef vd;
	GElf_Verdaux va;

	for (i = 0; data && i < sh->sh_info; i++) {
		if (!gelf_getverdef(data, (int)off, &vd))
			return;
		if (vd.vd_cnt &&
		    gelf_getverdaux(data, (int)(off + vd.vd_aux), &va))
			vernames_set(v, vd.vd_ndx & 0x7fff,
				     elf_strptr(elf, sh->sh_link, va.vda_name));
		if (!vd.vd_next)
			return;
		off += vd.vd_next;
	}
}

/* Record the versions a .gnu.version_r section requires of other files. */
static void read_verneed(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 struct vernames *v)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, i, j;
	GElf_Verneed vn;
	GElf_Vernaux va;

	for (i = 0; data && i < sh->sh_info; i++) {
		size_t aux;

		if (!gelf_getverneed(data, (int)off, &vn))
			return;
		aux = off + vn.vn_aux;
		for (j = 0; j < vn.vn_cnt; j++) {
			if (!gelf_getvernaux(data, (int)aux, &va))
				break;
			vernames_set(v, va.vna_other & 0x7fff,
				     elf_strptr(elf, sh->sh_link, va.vna_name));
			if (!va.vna_next)
				break;
			aux += va.vna_next;
		}
		if (!vn.vn_next)
			return;
		off += vn.vn_next;
	}
}

/* Set f->soname from the DT_SONAME entry of a SHT_DYNAMIC section. */
static void read_soname(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			struct dynsym_file *f)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Dyn d;

	for (i = 0; data && i < n; i++) {
		if (!gelf_getdyn(data, (int)i, &d) || d.d_tag == DT_NULL)
			return;
		if (d.d_tag == DT_SONAME)
			f->soname = elf_strptr(elf, sh->sh_link, d.d_un.d_val);
	}
}

/* Mark the entries a SHT_RELA section binds through a GOT slot. */
static void read_relocs(Elf_Scn *scn, const GElf_Shdr *sh,
			struct dynsym_file *f)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Rela r;

	for (i = 0; data && i < n; i++) {
		size_t sym;

		if (!gelf_getrela(data, (int)i, &r))
			return;
		sym = GELF_R_SYM(r.r_info);
		if ((GELF_R_TYPE(r.r_info) == R_X86_64_JUMP_SLOT ||
		     GELF_R_TYPE(r.r_info) == R_X86_64_GLOB_DAT) &&
		    sym < f->nsyms)
			f->syms[sym].bound = true;
	}
}

/* Is sym a definition other objects can bind to (as the loader checks)? */
static bool is_definition(const GElf_Sym *sym)
{
	unsigned vis = GELF_ST_VISIBILITY(sym->st_other);

	if (sym->st_shndx == SHN_UNDEF ||
	    GELF_ST_BIND(sym->st_info) == STB_LOCAL ||
	    (vis != STV_DEFAULT && vis != STV_PROTECTED))
		return false;
	return sym->st_value != 0 || sym->st_shndx == SHN_ABS ||
	       GELF_ST_TYPE(sym->st_info) == STT_TLS;
}

/* Fill f->syms from the .dynsym section and its version table. */
static void read_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 Elf_Data *versym, const struct vernames *v,
			 struct dynsym_file *f)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	f->syms = xcalloc(n, sizeof(*f->syms));
	for (i = 0; data && i < n; i++) {
		struct dynsym *d = &f->syms[f->nsyms];
		GElf_Versym ver = 0;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		f->nsyms++;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		d->name = name ? name : "";
		d->value = sym.st_value;
		d->type = GELF_ST_TYPE(sym.st_info);
		d->defined = i > 0 && *d->name && is_definition(&sym);
		if (versym && gelf_getversym(versym, (int)i, &ver)) {
			d->verndx = ver & 0x7fff;
			d->hidden = (ver & 0x8000) != 0;
			if (d->verndx >= 2 && d->verndx < v->n)
				d->version = v->name[d->verndx];
		}
	}
}

static const struct dynsym_file *sort_file;

/* Order definitions by name, then by table position. */
static int def_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_file->syms[x].name, sort_file->syms[y].name);

	return c ? c : (x > y) - (x < y);
}

/* Index f's definitions by name. */
static void index_definitions(struct dynsym_file *f)
{
	size_t i;

	f->defs = xmalloc(f->nsyms * sizeof(*f->defs));
	for (i = 0; i < f->nsyms; i++)
		if (f->syms[i].defined)
			f->defs[f->ndefs++] = i;
	sort_file = f;
	qsort(f->defs, f->ndefs, sizeof(*f->defs), def_order);
	sort_file = NULL;
}

const char *dynsym_read(const char *path, struct dynsym_file *f)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	Elf_Data *versym = NULL;
	struct vernames v = { NULL, 0 };
	GElf_Shdr sh, symsh = { 0 };
	Elf *elf;

	memset(f, 0, sizeof(*f));
	if (elf_version(EV_CURRENT) == EV_NONE)
		error_msg_and_die("libelf is unusable: %s", elf_errmsg(-1));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return strerror(errno);
	elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	f->elf = elf;
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return "not an ELF file";
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			symscn = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_GNU_versym) {
			versym = elf_getdata(scn, NULL);
		} else if (sh.sh_type == SHT_GNU_verdef) {
			read_verdef(elf, scn, &sh, &v);
			f->verdefs = true;
		} else if (sh.sh_type == SHT_GNU_verneed) {
			read_verneed(elf, scn, &sh, &v);
		} else if (sh.sh_type == SHT_DYNAMIC) {
			read_soname(elf, scn, &sh, f);
		}
	}
	if (!symscn) {
		free(v.name);
		return "no .dynsym section (were its section headers stripped?)";
	}
	f->versioned = versym != NULL;
	read_symbols(elf, symscn, &symsh, versym, &v, f);
	free(v.name);
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA &&
		    sh.sh_link == elf_ndxscn(symscn))
			read_relocs(scn, &sh, f);
	index_definitions(f);
	return NULL;
}

size_t dynsym_find(const struct dynsym_file *f, const char *name)
{
	size_t lo = 0, hi = f->ndefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(f->syms[f->defs[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void dynsym_free(struct dynsym_file *f)
{
	free(f->syms);
	free(f->defs);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
