/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-objects.c: the objects a trace file recorded, by index, for
 * --read -u.  A table of its own, filled by the reader and read by the
 * narrowing (narrow.c), so that neither calls the other back.  An object
 * may get its soname before its path (the two are records of their own):
 * both are kept by index.
 */
#include "config.h"

#include <stdlib.h>

#include "tracefile-objects.h"
#include "xmalloc.h"
#include "lib/session.h"

static char *paths[LTR_MAX_OBJECTS];
static char *sonames[LTR_MAX_OBJECTS];
static uint32_t count;

void tracefile_object_add(uint32_t i, const char *path)
{
	if (i >= LTR_MAX_OBJECTS)
		return;
	free(paths[i]);
	paths[i] = xstrdup(path);
	if (i >= count)
		count = i + 1;
}

bool tracefile_object_set_soname(uint32_t i, const char *soname)
{
	if (i >= LTR_MAX_OBJECTS || sonames[i])
		return false;
	sonames[i] = xstrdup(soname);
	return true;
}

uint32_t tracefile_objects(void)
{
	return count;
}

const char *tracefile_object_path(uint32_t i)
{
	return i < count ? paths[i] : NULL;
}

const char *tracefile_object_soname(uint32_t i)
{
	return i < LTR_MAX_OBJECTS ? sonames[i] : NULL;
}

void tracefile_objects_free(void)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_OBJECTS; i++) {
		free(paths[i]);
		free(sonames[i]);
		paths[i] = sonames[i] = NULL;
	}
	count = 0;
}
