/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build-id.h: the GNU build ID of an ELF file, to tell later that a file is the one that ran. */
#ifndef LTRUSS_BUILD_ID_H
#define LTRUSS_BUILD_ID_H

#include <stddef.h>

#define BUILD_ID_MAX 64

/*
 * The build ID of the ELF file at path into id (at most BUILD_ID_MAX
 * bytes): its length, 0 if none; *soname its DT_SONAME or NULL, valid
 * until path is looked up again or build_id_done().
 */
size_t build_id_read(const char *path, unsigned char *id, const char **soname);

/* The file at path is expected to have build ID id (n bytes): it is the one that ran (--read). */
void build_id_expect(const char *path, const unsigned char *id, size_t n);

/*
 * About to read names or call-frame information from the file at path:
 * warn once if it is not the file that ran (gone, or its build ID is not
 * any of the IDs expected).
 */
void build_id_check(const char *path);

/* Forget the build IDs read and expected, and the sonames read. */
void build_id_done(void);

#endif
