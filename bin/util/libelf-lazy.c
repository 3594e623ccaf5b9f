/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libelf-lazy.c: the libelf functions --list and symbols call, loaded at the first (lazylib.c). */
#include "config.h"

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>

#include "lazylib.h"

static struct lazylib libelf = { LIBELF_SONAME,
				 "reading symbols (--list, -k, --caller, function pointers)",
				 "libelf1", NULL };

LAZYLIB_FN(libelf, Elf *, elf_begin, (int fd, Elf_Cmd cmd, Elf *ref),
	   (fd, cmd, ref))
LAZYLIB_FN(libelf, int, elf_end, (Elf *elf), (elf))
LAZYLIB_FN(libelf, const char *, elf_errmsg, (int error), (error))
LAZYLIB_FN(libelf, Elf_Data *, elf_getdata, (Elf_Scn *scn, Elf_Data *data),
	   (scn, data))
LAZYLIB_FN(libelf, int, elf_getshdrstrndx, (Elf *elf, size_t *dst),
	   (elf, dst))
LAZYLIB_FN(libelf, int, elf_getphdrnum, (Elf *elf, size_t *dst),
	   (elf, dst))
LAZYLIB_FN(libelf, Elf_Kind, elf_kind, (Elf *elf), (elf))
LAZYLIB_FN(libelf, size_t, elf_ndxscn, (Elf_Scn *scn), (scn))
LAZYLIB_FN(libelf, Elf_Scn *, elf_nextscn, (Elf *elf, Elf_Scn *scn),
	   (elf, scn))
LAZYLIB_FN(libelf, char *, elf_strptr,
	   (Elf *elf, size_t index, size_t offset), (elf, index, offset))
LAZYLIB_FN(libelf, unsigned int, elf_version, (unsigned int version),
	   (version))
LAZYLIB_FN(libelf, GElf_Dyn *, gelf_getdyn,
	   (Elf_Data *data, int ndx, GElf_Dyn *dst), (data, ndx, dst))
LAZYLIB_FN(libelf, GElf_Ehdr *, gelf_getehdr, (Elf *elf, GElf_Ehdr *dest),
	   (elf, dest))
LAZYLIB_FN(libelf, size_t, gelf_getnote,
	   (Elf_Data *data, size_t offset, GElf_Nhdr *result,
	    size_t *name_offset, size_t *desc_offset),
	   (data, offset, result, name_offset, desc_offset))
LAZYLIB_FN(libelf, GElf_Phdr *, gelf_getphdr,
	   (Elf *elf, int ndx, GElf_Phdr *dst), (elf, ndx, dst))
LAZYLIB_FN(libelf, GElf_Rela *, gelf_getrela,
	   (Elf_Data *data, int ndx, GElf_Rela *dst), (data, ndx, dst))
LAZYLIB_FN(libelf, GElf_Shdr *, gelf_getshdr, (Elf_Scn *scn, GElf_Shdr *dst),
	   (scn, dst))
LAZYLIB_FN(libelf, GElf_Sym *, gelf_getsym,
	   (Elf_Data *data, int ndx, GElf_Sym *dst), (data, ndx, dst))
LAZYLIB_FN(libelf, GElf_Verdaux *, gelf_getverdaux,
	   (Elf_Data *data, int offset, GElf_Verdaux *dst),
	   (data, offset, dst))
LAZYLIB_FN(libelf, GElf_Verdef *, gelf_getverdef,
	   (Elf_Data *data, int offset, GElf_Verdef *dst), (data, offset, dst))
LAZYLIB_FN(libelf, GElf_Vernaux *, gelf_getvernaux,
	   (Elf_Data *data, int offset, GElf_Vernaux *dst),
	   (data, offset, dst))
LAZYLIB_FN(libelf, GElf_Verneed *, gelf_getverneed,
	   (Elf_Data *data, int offset, GElf_Verneed *dst),
	   (data, offset, dst))
LAZYLIB_FN(libelf, GElf_Versym *, gelf_getversym,
	   (Elf_Data *data, int ndx, GElf_Versym *dst), (data, ndx, dst))
