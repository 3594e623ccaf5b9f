/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbolize.c: name the code an address is in (--caller).
 *
 * The interposer records every object it sees loaded (pid, address range,
 * load bias, file) in the session, so addresses can be named after the
 * process has gone.  Each file's function symbols are read once with
 * libelf, from .symtab when the file has one (static functions too) and
 * .dynsym otherwise, and kept sorted by address.
 *
 * The paths come from the session, which traced processes can write: a
 * path is opened only if it names a regular file of an ELF header's size
 * at least, without blocking (a FIFO), without taking a terminal, and
 * only if what was opened is what was checked; its name and its symbols'
 * names are printed escaped.
 */
#include "config.h"

#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-id.h"
#include "catalog.h"
#include "error.h"
#include "fd-util.h"
#include "format.h"
#include "objmap.h"
#include "session.h"
#include "strmap.h"
#include "symbolize.h"
#include "xmalloc.h"

struct symbol {
	uint64_t addr, size;
	char *name;
};

/* The function symbols of one file. */
struct symfile {
	struct symbol *syms;
	size_t n;
};

/* path: struct symfile; a trace file may name thousands of objects. */
static struct strmap files;

static int symbol_order(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append the function symbols of section scn to f. */
static void read_section(struct symfile *f, Elf *elf, Elf_Scn *scn,
			 const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, count = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	struct symbol *grown;
	char printable[1024];

	if (!data || !count)
		return;
	grown = xrealloc(f->syms, (f->n + count) * sizeof(*f->syms));
	f->syms = grown;
	for (i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || !sym.st_value ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		f->syms[f->n].addr = sym.st_value;
		f->syms[f->n].size = sym.st_size;
		f->syms[f->n].name = xstrdup(check_name(printable,
							sizeof(printable), name));
		f->n++;
	}
}

/* The symbols of path, read on first use. */
static struct symfile *symfile_of(const char *path)
{
	struct symfile *f, **fp;
	Elf_Scn *scn = NULL, *dynsym = NULL;
	GElf_Shdr sh, dynsh;
	bool have_symtab = false;
	Elf *elf;
	int fd;

	fp = (struct symfile **)strmap_slot(&files, path);
	if (*fp)
		return *fp;
	f = *fp = xcalloc(1, sizeof(*f));
	build_id_check(path);
	elf = fd_elf_open(path, &fd);
	if (!elf)
		return f;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			read_section(f, elf, scn, &sh);
			have_symtab = true;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsh = sh;
		}
	}
	if (!have_symtab && dynsym)
		read_section(f, elf, dynsym, &dynsh);
	fd_elf_close(elf, fd);
	/* No symbols (a file that is not ELF): no array, and qsort wants one. */
	if (f->n)
		qsort(f->syms, f->n, sizeof(*f->syms), symbol_order);
	return f;
}

const char *symbolize_file(const char *path, uint64_t off, uint64_t *delta)
{
	const struct symfile *f = symfile_of(path);
	const struct symbol *best = NULL;
	size_t lo, hi;

	/* The last symbol at or below off. */
	for (lo = 0, hi = f->n; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (f->syms[mid].addr <= off) {
			best = &f->syms[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (!best || (off >= best->addr + best->size && best->size != 0))
		return NULL;
	*delta = off - best->addr;
	return best->name;
}

const char *symbolize(int pid, uint64_t addr, char *buf, size_t size)
{
	return symbolize_at(pid, addr, UINT64_MAX, buf, size);
}

const char *symbolize_at(int pid, uint64_t addr, uint64_t when, char *buf,
			 size_t size)
{
	const struct stack_object *o = objmap_at(objmap_sync_at(when), pid,
						 addr);
	const char *path, *base, *name;
	char printable[1024];
	uint64_t off, delta;

	path = o ? o->path : NULL;
	if (!path || !*path) {
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	off = addr - o->bias;
	name = symbolize_file(path, off, &delta);
	if (name) {
		snprintf(buf, size, "%s+0x%llx", format_func_display(name),
			 (unsigned long long)delta);
		return buf;
	}
	base = strrchr(path, '/');
	snprintf(buf, size, "%s+0x%llx",
		 check_name(printable, sizeof(printable), base ? base + 1 : path),
		 (unsigned long long)off);
	return buf;
}

/* Free a struct symfile. */
static void symfile_free(void *p)
{
	struct symfile *f = p;
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->syms[i].name);
	free(f->syms);
	free(f);
}

void symbolize_done(void)
{
	strmap_clear(&files, symfile_free);
}
