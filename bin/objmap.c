/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * objmap.c: the objects the traced processes loaded, where, from which file.
 *
 * The interposer records each object it sees loaded (pid, address range,
 * load bias, path) in the session; --caller and -k name addresses with
 * them, also after the process has gone.  The records are copied as they
 * come (paths too: the session is the program's to write), in order, so
 * the latest object at an address wins, as after an exec or a dlclose.
 */
#include "config.h"

#include <stdlib.h>

#include "objmap.h"
#include "session-check.h"
#include "xmalloc.h"

static struct stack_object *objects;
static size_t nobjects, objects_size;
static struct stack_objects map;

const struct stack_objects *objmap_sync(const struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->nobjects, __ATOMIC_ACQUIRE);

	if (n > LTR_MAX_OBJECTS)
		n = LTR_MAX_OBJECTS;
	for (; nobjects < n; nobjects++) {
		const struct ltr_objrec *o = &s->objects[nobjects];
		const char *path = session_string(s, o->path);

		/* Claimed, not written yet: its process is still at it. */
		if (!o->end)
			break;
		if (nobjects == objects_size) {
			objects_size = objects_size ? 2 * objects_size : 64;
			objects = xrealloc(objects,
					   objects_size * sizeof(*objects));
		}
		objects[nobjects].pid = o->pid;
		objects[nobjects].rec = (uint32_t)nobjects;
		objects[nobjects].path = xstrdup(path ? path : "");
		objects[nobjects].start = o->start;
		objects[nobjects].end = o->end;
		objects[nobjects].bias = o->bias;
	}
	map.v = objects;
	map.n = nobjects;
	return &map;
}

const struct stack_object *objmap_at(const struct stack_objects *objs,
				     int pid, uint64_t addr)
{
	const struct stack_object *any = NULL;
	size_t i = objs->n;

	while (i-- > 0) {
		const struct stack_object *o = &objs->v[i];

		if (addr < o->start || addr >= o->end)
			continue;
		if (o->pid == pid)
			return o;
		if (!any)
			any = o;
	}
	return any;
}

void objmap_done(void)
{
	size_t i;

	for (i = 0; i < nobjects; i++)
		free(objects[i].path);
	free(objects);
	objects = NULL;
	nobjects = objects_size = 0;
	map.v = NULL;
	map.n = 0;
}
