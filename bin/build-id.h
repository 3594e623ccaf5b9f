/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build-id.h: the GNU build ID of an ELF file, to tell later that a file is the one that ran. */
#ifndef LTRUSS_BUILD_ID_H
#define LTRUSS_BUILD_ID_H

#include <stddef.h>

#define BUILD_ID_MAX 64

/* The build ID of the ELF file at path into id (at most BUILD_ID_MAX bytes); its length, 0 if none. */
size_t build_id_read(const char *path, unsigned char *id);

/* Forget the build IDs read. */
void build_id_done(void);

#endif
