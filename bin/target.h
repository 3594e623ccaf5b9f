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

#endif
