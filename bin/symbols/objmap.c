/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * objmap.c: the objects the traced processes loaded, where, from which file.
 *
 * The interposer records each object it sees loaded (pid, address range,
 * load bias, path) in the session; --caller and -k name addresses with
 * them, also after the process has gone.  The records are copied as they
 * come (paths too: the session is the program's to write), in order, so
 * the latest object at an address wins, as after an exec or a dlclose.
 * A path is copied once, whatever the objects and processes naming it:
 * -k names a frame once per file and address in it (format-stack.c).
 *
 * -k looks up the object of every frame, and a trace file may hold
 * thousands of objects of hundreds of processes: a scan of the records
 * for each address would make a file of n calls and objects cost n * n.
 * So each record, as it is copied, is also entered into two sorted
 * arrays of disjoint address ranges, its process's and all processes'
 * together, where it takes the addresses it covers from the objects
 * before it: a lookup is a binary search, whatever the counts.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "clock.h"
#include "objmap.h"
#include "session-check.h"
#include "strmap.h"
#include "xmalloc.h"

/* A range of addresses [start, end) and the object that holds it. */
struct range {
	uint64_t start, end;
	size_t obj; /* its index in objects[] */
};

/* Disjoint ranges, sorted by address: where each object is not hidden. */
struct ranges {
	struct range *v;
	size_t n, size;
};

/* The ranges of one process's objects (an entry of pids[]). */
struct pid_ranges {
	int pid;
	bool used;
	struct ranges r;
};

static struct stack_object *objects;
static size_t nobjects, objects_size;
static struct stack_objects map;
static struct strmap paths;         /* each path's one copy */
static struct ranges every;         /* every process's objects */
static struct pid_ranges *pids;     /* by pid, open addressing */
static size_t pids_size, pids_used; /* pids_size: a power of two, or 0 */
static bool no_writers;              /* objmap_final() */
static uint32_t last_claim;          /* then: the records there are */

/* The first range of rs that ends after addr (rs->n if none). */
static size_t ranges_after(const struct ranges *rs, uint64_t addr)
{
	size_t lo = 0, hi = rs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rs->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Enter object obj at [start, end) into rs: it takes those addresses from
 * the ranges there, which keep what lies outside (one split in two if it
 * covers both sides).
 */
static void ranges_add(struct ranges *rs, uint64_t start, uint64_t end,
		       size_t obj)
{
	size_t i = ranges_after(rs, start), j = i, n;
	struct range put[3];

	n = 0;
	if (i < rs->n && rs->v[i].start < start)
		put[n++] = (struct range){ rs->v[i].start, start,
					   rs->v[i].obj };
	put[n++] = (struct range){ start, end, obj };
	while (j < rs->n && rs->v[j].start < end)
		j++;
	if (j > i && rs->v[j - 1].end > end)
		put[n++] = (struct range){ end, rs->v[j - 1].end,
					   rs->v[j - 1].obj };
	/* Ranges i to j - 1 give way to the n of put[]. */
	if (rs->n - (j - i) + n > rs->size) {
		rs->size = rs->size ? 2 * rs->size : 16;
		rs->v = xrealloc(rs->v, rs->size * sizeof(*rs->v));
	}
	memmove(rs->v + i + n, rs->v + j, (rs->n - j) * sizeof(*rs->v));
	memcpy(rs->v + i, put, n * sizeof(*put));
	rs->n = rs->n - (j - i) + n;
}

/* The object of rs at addr, or NULL. */
static const struct stack_object *ranges_at(const struct ranges *rs,
					    uint64_t addr)
{
	size_t i = ranges_after(rs, addr);

	if (i == rs->n || rs->v[i].start > addr)
		return NULL;
	return &objects[rs->v[i].obj];
}

/* pid's entry in pids[] (pids_size > 0): its own, or the free one it would take. */
static struct pid_ranges *pid_slot(int pid)
{
	size_t i = ((uint32_t)pid * 0x9e3779b1u) & (pids_size - 1);

	while (pids[i].used && pids[i].pid != pid)
		i = (i + 1) & (pids_size - 1);
	return &pids[i];
}

/* The ranges of pid's objects, made empty on first use. */
static struct ranges *pid_ranges(int pid)
{
	struct pid_ranges *p;

	if (pids_used >= pids_size / 2) {
		/* Twice the entries, each moved to its new place. */
		struct pid_ranges *old = pids;
		size_t old_size = pids_size, i;

		pids_size = pids_size ? 2 * pids_size : 64;
		pids = xcalloc(pids_size, sizeof(*pids));
		for (i = 0; i < old_size; i++)
			if (old[i].used)
				*pid_slot(old[i].pid) = old[i];
		free(old);
	}
	p = pid_slot(pid);
	if (!p->used) {
		p->used = true;
		p->pid = pid;
		pids_used++;
	}
	return &p->r;
}

/* The ranges of pid's objects, or NULL if it has none. */
static const struct ranges *pid_ranges_find(int pid)
{
	const struct pid_ranges *p;

	if (!pids_size)
		return NULL;
	p = pid_slot(pid);
	return p->used ? &p->r : NULL;
}

/*
 * Is object record i, claimed and not written, one to go past?  Its
 * process is still at it, or was killed before it wrote it: after
 * SESSION_OBJECT_WAIT_NS, the latter, as tracefile-write.c decides too.
 */
static bool object_abandoned(uint32_t i)
{
	static uint32_t waiting = UINT32_MAX;
	static uint64_t since;
	uint64_t now;

	if (no_writers)
		return true;
	now = clock_mono_ns();
	if (waiting != i) {
		waiting = i;
		since = now;
	}
	return now - since >= SESSION_OBJECT_WAIT_NS;
}

/*
 * The records claimed so far.  No process writes more than a ring ahead
 * of the records copied (lib/objects.c): a count past that is forged,
 * and is taken for that much, so that a forged count costs 16384 records.
 */
static uint32_t claims(void)
{
	uint32_t n = catalog_objects_used();

	if (catalog.session && n - nobjects > LTR_MAX_OBJECTS)
		n = (uint32_t)nobjects + LTR_MAX_OBJECTS;
	return n;
}

const struct stack_objects *objmap_sync(void)
{
	static const struct ltr_objrec abandoned = { .path = UINT32_MAX };
	uint32_t n = no_writers ? last_claim : claims();

	for (; nobjects < n; nobjects++) {
		const struct ltr_objrec *o = catalog_object((uint32_t)nobjects);
		const char *path;
		void **slot;

		if (!catalog_object_ready((uint32_t)nobjects)) {
			if (!object_abandoned((uint32_t)nobjects))
				break;
			o = &abandoned;
		}
		path = catalog_string(o->path);
		if (nobjects == objects_size) {
			objects_size = objects_size ? 2 * objects_size : 64;
			objects = xrealloc(objects,
					   objects_size * sizeof(*objects));
		}
		objects[nobjects].pid = o->pid;
		slot = strmap_slot(&paths, path ? path : "");
		if (!*slot)
			*slot = xstrdup(path ? path : "");
		objects[nobjects].path = *slot;
		objects[nobjects].start = o->start;
		objects[nobjects].end = o->end;
		objects[nobjects].bias = o->bias;
		if (o->start < o->end) {
			ranges_add(&every, o->start, o->end, nobjects);
			ranges_add(pid_ranges(o->pid), o->start, o->end,
				   nobjects);
		}
	}
	map.v = objects;
	map.n = nobjects;
	return &map;
}

const struct stack_object *objmap_own(const struct stack_objects *objs,
				      int pid, uint64_t addr)
{
	const struct ranges *rs = pid_ranges_find(pid);

	(void)objs; /* the only map there is: its ranges are ours */
	return rs ? ranges_at(rs, addr) : NULL;
}

const struct stack_object *objmap_at(const struct stack_objects *objs,
				     int pid, uint64_t addr)
{
	const struct stack_object *o = objmap_own(objs, pid, addr);

	return o ? o : ranges_at(&every, addr);
}

void objmap_final(void)
{
	last_claim = claims();
	no_writers = true;
}

void objmap_done(void)
{
	size_t i;

	strmap_clear(&paths, free);
	free(objects);
	objects = NULL;
	for (i = 0; i < pids_size; i++)
		free(pids[i].r.v);
	free(pids);
	pids = NULL;
	pids_size = pids_used = 0;
	free(every.v);
	every = (struct ranges){ 0 };
	nobjects = objects_size = 0;
	no_writers = false;
	map.v = NULL;
	map.n = 0;
}
