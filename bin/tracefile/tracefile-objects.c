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

#include "catalog.h"
#include "tracefile-objects.h"
#include "xmalloc.h"

/* An object's names, by index. */
struct names {
	char *path, *soname;
};

static struct names *objects;
static uint32_t count, room;

void tracefile_object_add(uint32_t i, const char *path)
{
	if (i >= CATALOG_MAX_OBJECTS)
		return;
	objects = xgrow(objects, &room, i, sizeof(*objects));
	free(objects[i].path);
	objects[i].path = xstrdup(path);
	if (i >= count)
		count = i + 1;
}

bool tracefile_object_set_soname(uint32_t i, const char *soname)
{
	if (i >= CATALOG_MAX_OBJECTS)
		return false;
	objects = xgrow(objects, &room, i, sizeof(*objects));
	if (objects[i].soname)
		return false;
	objects[i].soname = xstrdup(soname);
	return true;
}

uint32_t tracefile_objects(void)
{
	return count;
}

const char *tracefile_object_path(uint32_t i)
{
	return i < count ? objects[i].path : NULL;
}

const char *tracefile_object_soname(uint32_t i)
{
	return i < room ? objects[i].soname : NULL;
}

void tracefile_objects_free(void)
{
	uint32_t i;

	for (i = 0; i < room; i++) {
		free(objects[i].path);
		free(objects[i].soname);
	}
	free(objects);
	objects = NULL;
	count = room = 0;
}
