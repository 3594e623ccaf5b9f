/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symbolize.h: addresses in traced processes as "function+0xoffset". */
#ifndef LTRUSS_SYMBOLIZE_H
#define LTRUSS_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"

/*
 * addr in process pid as "func+0x1c" (from .symtab, so also functions the
 * object does not export), else "file+0xoffset", else "0xaddr", into buf.
 */
const char *symbolize(int pid, uint64_t addr, char *buf, size_t size);

/* The same, by the objects loaded at TSC reading when (a call's caller). */
const char *symbolize_at(int pid, uint64_t addr, uint64_t when, char *buf,
			 size_t size);

/*
 * The function of the ELF file at path holding virtual address off: its
 * name as in the symbol table (printable), and *delta, off's distance
 * from its start; NULL if no function holds off.
 */
const char *symbolize_file(const char *path, uint64_t off, uint64_t *delta);

/* Free the symbol tables read so far. */
void symbolize_done(void);

#endif
