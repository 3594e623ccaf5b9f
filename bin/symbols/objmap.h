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
	const char *path;    /* as it was when the record was copied (shared) */
	uint64_t start, end; /* its segments' address range */
	uint64_t bias;       /* load bias: address = bias + ELF virtual address */
	uint64_t mapped;     /* TSC when it was loaded; 0: since the start */
};

/*
 * The objects every traced process loaded, in the order they were
 * loaded (an exec or a dlopen adds more; nothing is ever removed): the
 * live session's records, or a trace file's.  v[i] is object record i;
 * one its process claimed and never wrote has no addresses and path "".
 * A view at a time (objmap_sync_at) is the first n of them.
 */
struct stack_objects {
	const struct stack_object *v;
	size_t n;
};

/*
 * The map of the catalog's object records (catalog.h), brought up to
 * date: the records written so far, in order.  A live session's records
 * are a ring: ltruss calls it often enough when a view needs them, and
 * then tells the processes how far it copied (objmap_copied()), so that
 * they may take the slots of the records before (bin/ltruss.c).  It goes
 * past a record claimed and not written for SESSION_OBJECT_WAIT_NS.
 */
const struct stack_objects *objmap_sync(void);

/* The claims copied by objmap_sync() so far: the claim after its last record. */
uint32_t objmap_copied(void);

/*
 * The same, seen at TSC reading when (a call's): the records of the
 * objects loaded by then, so that a lookup names an address by the object
 * there at that time, not by one loaded there since (objmap.c).  Valid
 * until the next call.
 */
const struct stack_objects *objmap_sync_at(uint64_t when);

/*
 * The object of objs (the map objmap_sync() or objmap_sync_at() gave)
 * holding addr in process pid: pid's own (the latest loaded in objs),
 * else any process's (a forked child records none of its own); NULL if
 * none.  A binary search.
 */
const struct stack_object *objmap_at(const struct stack_objects *objs,
				     int pid, uint64_t addr);

/* The same, pid's own objects only. */
const struct stack_object *objmap_own(const struct stack_objects *objs,
				      int pid, uint64_t addr);

/*
 * No process will write a record any more (the run is over): a record
 * still claimed and not written is gone past at once.
 */
void objmap_final(void);

/* Free the map. */
void objmap_done(void);

#endif
