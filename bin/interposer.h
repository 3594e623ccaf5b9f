/* SPDX-License-Identifier: GPL-2.0-or-later */
/* interposer.h: check the interposer before the start, explain a refusal after. */
#ifndef LTRUSS_BIN_INTERPOSER_H
#define LTRUSS_BIN_INTERPOSER_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Die (exit 2, nothing run) unless the interposer ltruss will name in
 * LD_AUDIT exists, is readable and is an x86_64 ELF shared object.
 */
void interposer_check(void);

/*
 * Say that process pid (program path) ran without the interposer ever
 * attaching, with the loader's reason when it gives one, or the lack of
 * address space (enomem: the interposer said so in the session): an error
 * when nothing at all was traced (the caller then exits 2), else a warning.
 */
void interposer_untraced(pid_t pid, const char *path, bool nothing_traced,
			 bool enomem);

#endif
