/* SPDX-License-Identifier: GPL-2.0-or-later */
/* objmap.h: the objects the traced processes loaded, where, from which file. */
#ifndef LTRUSS_OBJMAP_H
#define LTRUSS_OBJMAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"

/* A loaded object of a traced process: where its code is, which file. */
struct stack_object {
	int pid;
	uint32_t rec;        /* its record in the catalog (catalog_object()) */
	const char *path;    /* as it was when the record was copied (shared) */
	uint64_t start, end; /* its segments' address range */
	uint64_t bias;       /* load bias: address = bias + ELF virtual address */
};

/*
 * The objects every traced process loaded, in the order they were
 * loaded (an exec or a dlopen adds more; nothing is ever removed): the
 * live session's records, or a trace file's.
 */
struct stack_objects {
	const struct stack_object *v;
	size_t n;
};

/* The map of the catalog's object records (catalog.h), brought up to date. */
const struct stack_objects *objmap_sync(void);

/*
 * The object of objs (the map objmap_sync() gave) holding addr in process
 * pid: pid's own (the latest loaded), else any process's (a forked child
 * records none of its own); NULL if none.  A binary search.
 */
const struct stack_object *objmap_at(const struct stack_objects *objs,
				     int pid, uint64_t addr);

/* The same, pid's own objects only. */
const struct stack_object *objmap_own(const struct stack_objects *objs,
				      int pid, uint64_t addr);

/* Free the map. */
void objmap_done(void);

#endif
