/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * catalog.c: the traced functions, objects and counters every formatter
 * reads, from the live session in place or from a trace file's records
 * (catalog.h says why one interface).
 *
 * A file's tables grow by doubling as its records come, the new entries
 * zeroed: a function not recorded yet is one not filled in, as in a
 * session.  Its names are each allocated once and never move (formatters
 * and the symbolizer hold them while the tables grow).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "session-check.h"
#include "retired.h"
#include "strmap.h"
#include "xmalloc.h"

/* Longest name kept, escaped (C++ symbols can be long). */
#define NAME_MAX_KEPT 4096

struct catalog catalog;

/* Each function's printable names: symbol, library; NULL: not yet. */
static char *printable[LTR_MAX_FUNCS][2];
/* One past the highest fn named: catalog_names_free() frees no further (a
 * run of `true` would otherwise fault in all 256 KiB of printable[]). */
static uint32_t printable_end;

/* A trace file's tables (catalog.file). */
static struct ltr_func *funcs;
static uint32_t nfuncs;
static struct ltr_objrec *objects;
static uint32_t nobjects, objects_room;
static struct ltr_retired *retired;
static uint32_t nretired, retired_room;
static char **names; /* names[0]: "", offset 0 is no name */
static uint32_t nnames, names_room;
static struct strmap names_index; /* name: its offset + 1 */

void catalog_live(const struct ltr_session *s)
{
	catalog.session = s;
	catalog.funcs = s ? s->funcs : NULL;
	catalog.funcs_room = s ? LTR_MAX_FUNCS : 0;
	catalog.file = false;
}

int32_t catalog_func_capture(uint32_t fn)
{
	return fn < catalog.funcs_room ? catalog.funcs[fn].capture : -1;
}

uint32_t catalog_funcs_used(void)
{
	if (catalog.session)
		return session_funcs_used(catalog.session);
	return nfuncs;
}

const char *catalog_string(uint32_t off)
{
	if (catalog.session)
		return session_string(catalog.session, off);
	return off < nnames ? names[off] : NULL;
}

const char *catalog_func_string(uint32_t fn, bool lib)
{
	if (!catalog_func_ready(fn))
		return NULL;
	return catalog_string(lib ? catalog.funcs[fn].lib
				  : catalog.funcs[fn].name);
}

const char *catalog_func_name(uint32_t fn, bool lib)
{
	char buf[NAME_MAX_KEPT];
	const char *raw;

	if (!catalog_func_ready(fn))
		return NULL;
	if (printable[fn][lib])
		return printable[fn][lib];
	raw = catalog_func_string(fn, lib);
	if (!raw)
		return NULL;
	printable[fn][lib] = xstrdup(check_name(buf, sizeof(buf), raw));
	if (fn >= printable_end)
		printable_end = fn + 1;
	return printable[fn][lib];
}

void catalog_names_free(void)
{
	uint32_t fn;

	for (fn = 0; fn < printable_end; fn++) {
		free(printable[fn][0]);
		free(printable[fn][1]);
		printable[fn][0] = printable[fn][1] = NULL;
	}
	printable_end = 0;
}

uint32_t catalog_objects_used(void)
{
	uint32_t n;

	if (!catalog.session)
		return nobjects;
	n = __atomic_load_n(&catalog.session->nobjects, __ATOMIC_ACQUIRE);
	return n;
}

const struct ltr_objrec *catalog_object(uint32_t i)
{
	if (catalog.session)
		return session_object(catalog.session, i);
	return i < nobjects ? &objects[i] : NULL;
}

bool catalog_object_ready(uint32_t i)
{
	if (catalog.session)
		return session_object_ready(catalog.session, i);
	return i < nobjects;
}

uint32_t catalog_retired_used(void)
{
	if (catalog.session)
		return slots_retired_used(catalog.session);
	return nretired;
}

const struct ltr_retired *catalog_retired(uint32_t i)
{
	if (catalog.session)
		return &catalog.session->retired[i];
	return &retired[i];
}

void catalog_file_start(uint32_t strsize)
{
	catalog_file_free();
	catalog.session = NULL;
	catalog.file = true;
	catalog.strsize = strsize;
	catalog_name_add("");
}

uint32_t catalog_name_add(const char *name)
{
	void **slot = strmap_slot(&names_index, name);

	if (*slot)
		return (uint32_t)((uintptr_t)*slot - 1);
	names = xgrow(names, &names_room, nnames, sizeof(*names));
	names[nnames] = xstrdup(name);
	*slot = (void *)(uintptr_t)(nnames + 1);
	return nnames++;
}

bool catalog_func_add(uint32_t at, const struct ltr_func *f)
{
	if (at != nfuncs || at >= LTR_MAX_FUNCS)
		return false;
	funcs = xgrow(funcs, &catalog.funcs_room, at, sizeof(*funcs));
	funcs[at] = *f;
	catalog.funcs = funcs;
	nfuncs = at + 1;
	return true;
}

bool catalog_object_add(uint32_t at, const struct ltr_objrec *o)
{
	if (at != nobjects || at >= CATALOG_MAX_OBJECTS)
		return false;
	objects = xgrow(objects, &objects_room, at, sizeof(*objects));
	objects[at] = *o;
	nobjects = at + 1;
	return true;
}

bool catalog_retired_add(const struct ltr_retired *r)
{
	if (nretired >= LTR_MAX_RETIRED)
		return false;
	retired = xgrow(retired, &retired_room, nretired, sizeof(*retired));
	retired[nretired++] = *r;
	return true;
}

struct ltr_retired *catalog_retired_reset(uint32_t n)
{
	nretired = 0;
	if (n)
		retired = xgrow(retired, &retired_room, n - 1,
				   sizeof(*retired));
	nretired = n;
	return retired;
}

void catalog_file_free(void)
{
	uint32_t i;

	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	free(funcs);
	free(objects);
	free(retired);
	strmap_clear(&names_index, NULL);
	names = NULL;
	funcs = NULL;
	objects = NULL;
	retired = NULL;
	nnames = names_room = nfuncs = nobjects = objects_room = 0;
	nretired = retired_room = 0;
	catalog.funcs = NULL;
	catalog.funcs_room = 0;
	catalog.file = false;
}
