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
 *
 * ltruss formats a call after the process made it, maybe long after: the
 * process may have unloaded a library since and loaded another at its
 * addresses, whose record is copied already.  So each record says when
 * its object was mapped (the TSC, as events), and a call's addresses are
 * looked up in a view of the map at the call's time (objmap_sync_at): the
 * records up to the first one mapped later (in claim order, by the
 * highest time so far: one process's records are in the order of their
 * times, several processes' nearly so).  The sorted ranges hold the latest
 * object at each address; when it is later than the view (a library
 * loaded where another was, after the call), the view's object there is
 * found by going back over its process's records from the view's end: a
 * few, as the calls formatted late are the calls made just before the
 * loads copied early.  An object's time is not trusted to be sane
 * (forged, or 0 in records and files of ltrusses before it: mapped since
 * the start): a live one later than ltruss's clock counts as 0, the walk
 * back is bounded, and whatever the times, a view's lookup that finds no
 * object answers as the latest map does.
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

/* Records, by index in objects[], in claim order. */
struct records {
	size_t *v;
	size_t n, size;
};

/* The ranges of one process's objects (an entry of pids[]), and its records. */
struct pid_ranges {
	int pid;
	bool used;
	struct ranges r;
	struct records own;
};

/* Records a view's lookup goes back over at most (see above). */
#define HISTORY_MAX 4096

static struct stack_object *objects;
static size_t nobjects, objects_size;
static uint64_t *upto;              /* upto[i]: the latest time of records 0..i */
static struct stack_objects map;
static struct stack_objects view;   /* objmap_sync_at's */
static struct strmap paths;         /* each path's one copy */
static struct ranges every;         /* every process's objects */
static struct pid_ranges *pids;     /* by pid, open addressing */
static size_t pids_size, pids_used; /* pids_size: a power of two, or 0 */
static bool no_writers;              /* objmap_final() */
static uint32_t last_claim;          /* then: the records there are */
/*
 * The claim of objects[0].  A map built as the run goes starts at 0; one
 * built after it (the hints after -c, when no view kept the records)
 * finds in the session's ring only the last LTR_MAX_OBJECTS claims, the
 * earlier ones written over, and starts at the oldest the ring holds.
 */
static uint32_t first_claim;

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

/* Record j of own (all records if own is NULL). */
static size_t record_of(const struct records *own, size_t j)
{
	return own ? own->v[j] : j;
}

/* How many records of own (all records if NULL) are among the first k. */
static size_t records_before(const struct records *own, size_t k)
{
	size_t lo = 0, hi;

	if (!own)
		return k;
	hi = own->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (own->v[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The object at addr of rs, whose records are own (NULL: all), in the
 * view of the first k records, or NULL.
 */
static const struct stack_object *ranges_at(const struct ranges *rs,
					    const struct records *own,
					    uint64_t addr, size_t k)
{
	size_t i = ranges_after(rs, addr), j, steps;

	if (i == rs->n || rs->v[i].start > addr)
		return NULL;
	if (rs->v[i].obj < k)
		return &objects[rs->v[i].obj];
	/* Loaded there after the view's time: the one there before. */
	j = records_before(own, k);
	for (steps = 0; j > 0 && steps < HISTORY_MAX; j--, steps++) {
		const struct stack_object *o = &objects[record_of(own, j - 1)];

		if (o->start <= addr && addr < o->end)
			return o;
	}
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

/* pid's ranges and records, made empty on first use. */
static struct pid_ranges *pid_ranges(int pid)
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
	return p;
}

/* pid's ranges and records, or NULL if it has none. */
static const struct pid_ranges *pid_ranges_find(int pid)
{
	const struct pid_ranges *p;

	if (!pids_size)
		return NULL;
	p = pid_slot(pid);
	return p->used ? p : NULL;
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
 * The records claimed so far (a claim number: objects[] holds those from
 * first_claim on).  No process writes more than a ring ahead of the
 * records copied (lib/objects.c): a count past that is forged, and is
 * taken for that much, so that a forged count costs 16384 records.
 */
static uint32_t claims(void)
{
	uint32_t n = catalog_objects_used();

	if (!catalog.session)
		return n;
	if (!nobjects && n - first_claim > LTR_MAX_OBJECTS)
		first_claim = n - LTR_MAX_OBJECTS;
	if (n - (first_claim + (uint32_t)nobjects) > LTR_MAX_OBJECTS)
		n = first_claim + (uint32_t)nobjects + LTR_MAX_OBJECTS;
	return n;
}

/* Append record i (entered into p's ranges) to p's records. */
static void records_add(struct pid_ranges *p, size_t i)
{
	struct records *r = &p->own;

	if (r->n == r->size) {
		r->size = r->size ? 2 * r->size : 16;
		r->v = xrealloc(r->v, r->size * sizeof(*r->v));
	}
	r->v[r->n++] = i;
}

const struct stack_objects *objmap_sync(void)
{
	static const struct ltr_objrec abandoned = { .path = UINT32_MAX };
	uint32_t n = no_writers ? last_claim : claims();

	for (; (int32_t)(n - first_claim - (uint32_t)nobjects) > 0; nobjects++) {
		uint32_t claim = first_claim + (uint32_t)nobjects;
		const struct ltr_objrec *o = catalog_object(claim);
		const char *path;
		void **slot;

		if (!catalog_object_ready(claim)) {
			if (!object_abandoned(claim))
				break;
			o = &abandoned;
		}
		path = catalog_string(o->path);
		if (nobjects == objects_size) {
			objects_size = objects_size ? 2 * objects_size : 64;
			objects = xrealloc(objects,
					   objects_size * sizeof(*objects));
			upto = xrealloc(upto, objects_size * sizeof(*upto));
		}
		objects[nobjects].pid = o->pid;
		slot = strmap_slot(&paths, path ? path : "");
		if (!*slot)
			*slot = xstrdup(path ? path : "");
		objects[nobjects].path = *slot;
		objects[nobjects].start = o->start;
		objects[nobjects].end = o->end;
		objects[nobjects].bias = o->bias;
		objects[nobjects].mapped = catalog.session ? session_object_mapped(o)
							  : o->mapped;
		upto[nobjects] = objects[nobjects].mapped;
		if (nobjects && upto[nobjects - 1] > upto[nobjects])
			upto[nobjects] = upto[nobjects - 1];
		if (o->start < o->end) {
			struct pid_ranges *p = pid_ranges(o->pid);

			ranges_add(&every, o->start, o->end, nobjects);
			ranges_add(&p->r, o->start, o->end, nobjects);
			records_add(p, nobjects);
		}
	}
	map.v = objects;
	map.n = nobjects;
	return &map;
}

uint32_t objmap_copied(void)
{
	return first_claim + (uint32_t)nobjects;
}

const struct stack_objects *objmap_sync_at(uint64_t when)
{
	size_t lo = 0, hi;

	objmap_sync();
	view.v = objects;
	view.n = nobjects;
	if (!nobjects || upto[nobjects - 1] <= when)
		return &view;
	/* The first record mapped after when, by the latest time so far. */
	hi = nobjects;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (upto[mid] <= when)
			lo = mid + 1;
		else
			hi = mid;
	}
	view.n = lo;
	return &view;
}

const struct stack_object *objmap_own(const struct stack_objects *objs,
				      int pid, uint64_t addr)
{
	const struct pid_ranges *p = pid_ranges_find(pid);

	/* objs: the map or a view of it, whose ranges are ours. */
	return p ? ranges_at(&p->r, &p->own, addr, objs->n) : NULL;
}

const struct stack_object *objmap_at(const struct stack_objects *objs,
				     int pid, uint64_t addr)
{
	const struct stack_object *o = objmap_own(objs, pid, addr);

	return o ? o : ranges_at(&every, NULL, addr, objs->n);
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
	free(upto);
	upto = NULL;
	for (i = 0; i < pids_size; i++) {
		free(pids[i].r.v);
		free(pids[i].own.v);
	}
	free(pids);
	pids = NULL;
	pids_size = pids_used = 0;
	free(every.v);
	every = (struct ranges){ 0 };
	nobjects = objects_size = 0;
	first_claim = 0;
	no_writers = false;
	map.v = NULL;
	map.n = 0;
	view = map;
}
