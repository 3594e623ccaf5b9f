/* SPDX-License-Identifier: GPL-2.0-or-later */
/* catalog.h: the traced functions, objects and counters every formatter reads. */
#ifndef LTRUSS_CATALOG_H
#define LTRUSS_CATALOG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/session.h"

/*
 * What the formatters, the symbolizer, the summary and the profiles know
 * of the run: function i's name, library, flags and prototype, the
 * objects each process loaded, the counters of ended threads.  Two
 * sources fill it.  Live (and in the console), the session's tables are
 * read in place: the hot path costs one load more than reading the
 * session did.  With --read, tracefile-tables.c adds the file's records
 * as they come, into arrays that grow to what the file holds; no image
 * of the session is made, so the session's layout can change without
 * touching files or their reader.  The records keep the session's types
 * in memory (struct ltr_func, ltr_objrec, ltr_retired), their strings
 * as offsets: into the session's string area live, into the file's
 * names (catalog_name_add()) for a file.
 */
struct catalog {
	const struct ltr_session *session; /* live: read in place; else NULL */
	const struct ltr_func *funcs;      /* function i: funcs[i] */
	uint32_t funcs_room;               /* entries of funcs[] */
	bool file;                         /* filled from a trace file */
	uint32_t strsize;                  /* the file's -s: longest string shown */
};

extern struct catalog catalog;

/* Read session s in place (live, or the console's); NULL: no source. */
void catalog_live(const struct ltr_session *s);

/* Is function fn filled in (name, library, flags)? */
static inline bool catalog_func_ready(uint32_t fn)
{
	return fn < catalog.funcs_room &&
	       (__atomic_load_n(&catalog.funcs[fn].flags, __ATOMIC_ACQUIRE) &
		LTR_FN_READY);
}

/* Function fn's LTR_FN_* flags; 0 if there is no such function. */
static inline uint32_t catalog_func_flags(uint32_t fn)
{
	return fn < catalog.funcs_room
		       ? __atomic_load_n(&catalog.funcs[fn].flags,
					 __ATOMIC_RELAXED)
		       : 0;
}

/* Function fn's capture (prototype) index; -1: none. */
int32_t catalog_func_capture(uint32_t fn);

/* Functions registered (maybe not yet filled in). */
uint32_t catalog_funcs_used(void);

/* Function fn's raw library (lib) or symbol name; NULL if unknown. */
const char *catalog_func_string(uint32_t fn, bool lib);

/* The same, printable (check_name()) and kept; NULL if unknown. */
const char *catalog_func_name(uint32_t fn, bool lib);

/* Free the printable names kept. */
void catalog_names_free(void);

/*
 * The raw string at off (an offset of a record), or NULL if it is not a
 * whole string there.  To open a file by; print only what check_name() gives.
 */
const char *catalog_string(uint32_t off);

/* The most object records a trace file may hold (a session's are a ring). */
#define CATALOG_MAX_OBJECTS (1u << 22)

/* Object records claimed (maybe not yet written). */
uint32_t catalog_objects_used(void);

/*
 * Object record i, as it is now; NULL past catalog_objects_used().  A
 * live session's records are a ring: record i is there once
 * catalog_object_ready(i), until ltruss says it copied it (objmap.c).
 */
const struct ltr_objrec *catalog_object(uint32_t i);

/* Is object record i written (its process claims it before it fills it)? */
bool catalog_object_ready(uint32_t i);

/* The counters of ended threads (summary rows): how many, and row i. */
uint32_t catalog_retired_used(void);
const struct ltr_retired *catalog_retired(uint32_t i);

/* Is there a source (a session or a file) to read? */
static inline bool catalog_filled(void)
{
	return catalog.session || catalog.file;
}

/* The longest string a value shows: -s, or len when there is no source. */
static inline uint32_t catalog_strsize(uint32_t len)
{
	return catalog.session ? catalog.session->strsize
	       : catalog.file  ? catalog.strsize
			       : len;
}

/*
 * Filling the catalog from a trace file (tracefile-tables.c): start one
 * with the file's -s, then add its records; each add appends at, and
 * returns false if at is not the next entry or the table is full.
 */
void catalog_file_start(uint32_t strsize);
/* The offset of name among the file's names, added once. */
uint32_t catalog_name_add(const char *name);
bool catalog_func_add(uint32_t at, const struct ltr_func *f);
bool catalog_object_add(uint32_t at, const struct ltr_objrec *o);
/* A counter row; false once LTR_MAX_RETIRED are there. */
bool catalog_retired_add(const struct ltr_retired *r);
/* Room for n counter rows, the ones there dropped: the array to fill. */
struct ltr_retired *catalog_retired_reset(uint32_t n);

/* Free what a file filled in; no source from then on. */
void catalog_file_free(void);

#endif
