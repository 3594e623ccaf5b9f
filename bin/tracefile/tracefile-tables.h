/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefile-tables.h: the TABLES blocks of a trace file, into the catalog. */
#ifndef LTRUSS_TRACEFILE_TABLES_H
#define LTRUSS_TRACEFILE_TABLES_H

#include <stddef.h>

/*
 * Load tables into the catalog (catalog.h), for the file named file; bad(at, what) says
 * that the file is corrupt at byte at, and does not return.
 */
void tracefile_tables_init(const char *file,
			   void (*bad)(size_t at, const char *what));

/* The records of a TABLES block (p, n bytes, its header at byte off). */
void tracefile_tables_load(const unsigned char *p, size_t n, size_t off);

/* Free what the tables made. */
void tracefile_tables_free(void);

#endif
