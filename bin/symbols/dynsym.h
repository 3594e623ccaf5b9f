/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dynsym.h: the dynamic symbols of one ELF file, with their versions. */
#ifndef LTRUSS_DYNSYM_H
#define LTRUSS_DYNSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One .dynsym entry; the strings point into the mapped file. */
struct dynsym {
	const char *name;
	const char *version; /* its version name, or NULL if unversioned */
	uint64_t value;      /* st_value: file-relative address */
	uint16_t verndx;     /* .gnu.version index, without the hidden bit */
	unsigned char type;  /* STT_* */
	bool defined;        /* defined here and visible to other objects */
	bool hidden;         /* a non-default version: sym@VER, not sym@@VER */
	bool bound;          /* has a JUMP_SLOT or GLOB_DAT relocation */
};

struct dynsym_file {
	const char *soname;  /* DT_SONAME, or NULL */
	bool versioned;      /* has a .gnu.version table */
	bool verdefs;        /* defines versions (.gnu.version_d) */
	struct dynsym *syms; /* every entry in table order, 0 the null one */
	size_t nsyms;
	size_t *defs;        /* indexes of the defined entries, sorted by name */
	size_t ndefs;
	void *elf;           /* private: the open file */
	int fd;
};

/*
 * Read path's dynamic symbols into f.  Returns NULL, or a static message
 * saying why the file cannot be read (errno may tell more).
 */
const char *dynsym_read(const char *path, struct dynsym_file *f);

/* The first entry of f's defs named name (an index into defs), or ndefs. */
size_t dynsym_find(const struct dynsym_file *f, const char *name);

/* Release what dynsym_read took; the strings die with it. */
void dynsym_free(struct dynsym_file *f);

#endif
