/* SPDX-License-Identifier: GPL-2.0-or-later */
/* target.h: find the command to trace and check that it can be traced. */
#ifndef LTRUSS_TARGET_H
#define LTRUSS_TARGET_H

/*
 * Resolve name through PATH as execvp would, and check that the program
 * (or a script's interpreter) is a dynamically linked x86_64 ELF that the
 * loader will let the interposer into.  Returns the path to execute (malloc'd);
 * on any problem prints one error line and exits 2.
 */
char *target_resolve(const char *name);

/* What target_locate found, each string malloc'd. */
struct target {
	char *path;   /* what to execute, as target_resolve returns it */
	char *elf;    /* the ELF file the kernel loads: path or its interpreter */
	char *loader; /* that file's dynamic loader (PT_INTERP) */
};

/* Like target_resolve, and also name the ELF file and its loader. */
void target_locate(const char *name, struct target *t);

#endif
