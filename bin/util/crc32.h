/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crc32.h: the CRC-32C that trace file blocks carry. */
#ifndef LTRUSS_CRC32_H
#define LTRUSS_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32C (Castagnoli) of n bytes, continuing crc (0 to start). */
uint32_t crc32_update(uint32_t crc, const void *p, size_t n);

#endif
