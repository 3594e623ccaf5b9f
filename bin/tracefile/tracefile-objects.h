/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-objects.h: the objects a trace file recorded, by index: the
 * path and soname --read -u matches a library glob against (narrow.c).
 * The reader (tracefile-read.c) adds them as their records come.
 */
#ifndef LTRUSS_TRACEFILE_OBJECTS_H
#define LTRUSS_TRACEFILE_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>

/* Object i (the next one) has the file path. */
void tracefile_object_add(uint32_t i, const char *path);

/* Object i's soname; false if it had one already. */
bool tracefile_object_set_soname(uint32_t i, const char *soname);

/* The objects recorded so far (i below tracefile_objects()): path, soname or NULL. */
uint32_t tracefile_objects(void);
const char *tracefile_object_path(uint32_t i);
const char *tracefile_object_soname(uint32_t i);

/* Forget them all. */
void tracefile_objects_free(void);

#endif
