/* SPDX-License-Identifier: GPL-2.0-or-later */
/* debuginfo.h: where -k looks for an object's separate debug file. */
#ifndef LTRUSS_DEBUGINFO_H
#define LTRUSS_DEBUGINFO_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>

/*
 * Ask the debuginfod servers of DEBUGINFOD_URLS too (--debuginfod), or
 * never: then DEBUGINFOD_URLS is taken out of ltruss's own environment.
 * Called once the traced program's environment is built.
 */
void debuginfo_setup(bool debuginfod);

/* Are the debuginfod servers asked (--debuginfod)? */
bool debuginfo_servers(void);

/* Done with the servers' client, if one was made. */
void debuginfo_done(void);

/* libdwfl's find_elf: every object is reported with its descriptor. */
int debuginfo_find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp);

/*
 * libdwfl's find_debuginfo: a descriptor of mod's debug file (or of its
 * DWARF's alternate file), opened as fd_open_regular() opens files, from
 * the fixed places of the GNU convention only; or -1.
 */
int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   Dwarf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name);

/*
 * mod's DWARF, safe to read: NULL when it names an alternate file
 * (dwz) that was not found, which libdw would look for itself, with a
 * plain open() of a name the file gives.
 */
Dwarf *debuginfo_dwarf(Dwfl_Module *mod);

#endif
