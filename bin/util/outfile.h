/* SPDX-License-Identifier: GPL-2.0-or-later */
/* outfile.h: open the files ltruss writes, refusing another user's symbolic links in shared directories. */
#ifndef LTRUSS_OUTFILE_H
#define LTRUSS_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

/*
 * file created (mode, less the umask) or truncated, for writing, close
 * on exec; -1 and errno when it cannot be.  Dies, naming option, when a
 * symbolic link on the way is one the kernel's protected_symlinks rule
 * would not follow (outfile.c).
 */
int outfile_open(const char *file, mode_t mode, const char *option);

/* outfile_open() as a stream (0666), or die saying which option named file. */
FILE *outfile_stream(const char *file, const char *option);

#endif
