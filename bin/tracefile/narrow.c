/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * narrow.c: --read with -u, -F, -D or --pid shows part of a trace file.
 *
 * A recorded event's depth counts the recorded calls it is nested in.
 * Live, a narrower selection would have traced fewer calls, and the
 * interposer would have counted only those: so that a narrowed file reads
 * as the narrower live trace would have printed, each thread keeps the
 * recorded depths of the calls it shows, and an event passes on with its
 * depth renumbered to the shown calls around it (an event is copied for
 * that: the file's are read-only).  -D then applies to that depth, as the
 * interposer applies it, and so does the depth of the rule that selects a
 * function (a filter's "depth:"): a call it hides still counts as a level
 * for the calls inside it, as the interposer's hidden frames do.  Without
 * -u, -F or -D, events pass on untouched.  A filter's "inner:" and its
 * prototypes change nothing here: the recording decided which calls a
 * library made to itself were traced, and how values were captured.
 *
 * A -u library glob matches what it matches live (common/select.c): the
 * short name, and the soname, file name and path of the objects the file
 * recorded under that short name.  A function records only its library's
 * short name, so where two loaded libraries share one (libfoo.so.1 and
 * libfoo.so.2), a glob that picks either picks the functions of both.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/select.h"
#include "error.h"
#include "format.h"
#include "narrow.h"
#include "strmap.h"
#include "trace.h"
#include "tracefile-objects.h"
#include "xmalloc.h"

#define MAX_KEPT 1024

/* A selected call in progress: its recorded depth and function, hidden by its rule's depth? */
struct kept {
	uint16_t depth;
	bool hidden;
	uint32_t fn;
};

struct slot_kept {
	uint32_t n;
	struct kept calls[MAX_KEPT];
};

static const struct selection *selection;
static unsigned max_depth;
static const int *pids;
static size_t npids;
static bool renumber;
static bool by_slot; /* renumber, and no --pid: narrow_event's quick way */
/* What the -u rules say of a function (decided[]), asked once. */
enum decision {
	UNDECIDED,
	SHOWN,     /* shown, at any depth */
	NOT_SHOWN,
	SHOWN_UP_TO, /* shown, its rule's depth (rule_depth[]) hides it deeper */
};
static unsigned char decided[LTR_MAX_FUNCS]; /* enum decision */
static uint32_t rule_depth[LTR_MAX_FUNCS]; /* its rule's depth, 0: no limit */
/*
 * The slot whose events narrow_event() takes its quick way (UINT32_MAX:
 * none yet), and its shown calls: found by narrow_other(), which every
 * event that changes them goes through.
 */
static uint32_t quick_slot = UINT32_MAX;
static struct slot_kept *quick_kept;
static struct slot_kept *slots[LTR_MAX_THREADS];
/* A vfork child writing slot i's ring (LTR_EV_GUEST), and its shown calls. */
static int guest_pid[LTR_MAX_THREADS];
static struct slot_kept *guests[LTR_MAX_THREADS];

/*
 * What each rule's library glob said of each short name, with -f over the
 * objects of every process: per short name (a strmap, so that a file
 * naming thousands of libraries and objects costs one lookup a function),
 * the objects recorded under it, indexed as they come, and each rule's
 * answer once asked.  So a rule looks at each object once, not at every
 * object for each library.
 */
struct lib_entry {
	uint32_t *objects;
	size_t n;
	unsigned char *match; /* [LTR_MAX_RULES]: 0 not asked; 1 yes; 2 no */
};
static struct strmap libs;
static uint32_t objects_indexed;

/* The entry of short name lib, made if need be. */
static struct lib_entry *lib_entry(const char *lib)
{
	struct lib_entry **e = (struct lib_entry **)strmap_slot(&libs, lib);

	if (!*e)
		*e = xcalloc(1, sizeof(**e));
	return *e;
}

/* Index the objects recorded since the last time under their short names. */
static void objects_index(void)
{
	uint32_t n = tracefile_objects();
	struct lib_entry *e;
	const char *short_name;
	char *name;
	size_t len;

	for (; objects_indexed < n; objects_indexed++) {
		short_name = sel_short_name(tracefile_object_soname(objects_indexed),
					    tracefile_object_path(objects_indexed),
					    false, &len);
		name = xstrndup(short_name, len);
		e = lib_entry(name);
		free(name);
		e->objects = xrealloc(e->objects,
				      (e->n + 1) * sizeof(*e->objects));
		e->objects[e->n++] = objects_indexed;
	}
}

void narrow_init(const struct selection *sel, unsigned depth,
		 const int *pid_list, size_t n)
{
	selection = sel && sel->nrules ? sel : NULL;
	max_depth = depth;
	pids = pid_list;
	npids = n;
	renumber = selection || max_depth;
	by_slot = renumber && !npids;
}

bool narrow_calls(void)
{
	return renumber;
}

bool narrow_pid(int pid)
{
	size_t i;

	for (i = 0; i < npids; i++)
		if (pids[i] == pid)
			return true;
	return !npids;
}

/* Does library glob match the library short-named lib (entry e), or an object of that short name? */
static bool lib_matches(const char *glob, const char *lib,
			const struct lib_entry *e)
{
	struct sel_names o = { .short_name = lib,
			       .main = strcmp(lib, "a.out") == 0 };
	size_t i;

	if (sel_lib_matches(glob, &o))
		return true;
	if (o.main)
		return false;
	for (i = 0; i < e->n; i++) {
		o.soname = tracefile_object_soname(e->objects[i]);
		o.path = tracefile_object_path(e->objects[i]);
		if (sel_lib_matches(glob, &o))
			return true;
	}
	return false;
}

/*
 * Does rule i's library glob match the library short-named lib (ctx)?
 * Asked once per rule and short name, then kept.
 */
static bool rule_lib_matches(const struct ltr_rule *rule, size_t i, void *ctx)
{
	const char *lib = ctx;
	struct lib_entry *e;

	objects_index();
	e = lib_entry(lib);
	if (!e->match)
		e->match = xcalloc(LTR_MAX_RULES, 1);
	if (!e->match[i])
		e->match[i] = lib_matches(rule->lib, lib, e) ? 1 : 2;
	return e->match[i] == 1;
}

/* Decide function fn by the -u rules (the last that matches wins), once. */
static __attribute__((noinline)) unsigned fn_decide(uint32_t fn)
{
	const struct ltr_rule *r;
	size_t i;

	decided[fn] = NOT_SHOWN;
	if (!selection) {
		decided[fn] = SHOWN;
		return SHOWN;
	}
	i = sel_rule_for(selection->rules, selection->nrules,
			 format_func_raw(fn), 0, rule_lib_matches,
			 (void *)format_lib(fn));
	if (i < selection->nrules) {
		r = &selection->rules[i];
		rule_depth[fn] = r->depth;
		decided[fn] = r->flags & LTR_RULE_EXCLUDE ? NOT_SHOWN
			      : r->depth		  ? SHOWN_UP_TO
							  : SHOWN;
	}
	return decided[fn];
}

/* What the -u rules say of function fn: a table lookup, after the first time. */
static inline unsigned fn_decision(uint32_t fn)
{
	if (fn >= LTR_MAX_FUNCS)
		return selection ? NOT_SHOWN : SHOWN;
	if (decided[fn])
		return decided[fn];
	return fn_decide(fn);
}

/* The shown calls of slot i, or of the vfork child writing its ring. */
static struct slot_kept *kept_of(uint32_t i)
{
	struct slot_kept **k = guest_pid[i] ? &guests[i] : &slots[i];

	if (!*k) {
		*k = xcalloc(1, sizeof(**k));
	}
	return *k;
}

/*
 * A GUEST event: a vfork child's events follow in slot i's ring (or its
 * parent's again), narrowed by the child's pid, with shown calls of its own.
 */
static void narrow_guest(const struct event_rec *r)
{
	int was = guest_pid[r->slot];

	guest_pid[r->slot] = (int)r->ev->w[0];
	if (guests[r->slot])
		guests[r->slot]->n = 0;
	if (narrow_pid(r->ev->w[0] ? (int)r->ev->w[0] : was))
		trace_event_ingested(r);
}

/* Pass ev on with depth depth, a copy of it with that depth. */
static __attribute__((noinline)) void pass_renumbered(const struct event_rec *r,
						      uint32_t depth)
{
	static uint64_t copy[(sizeof(struct ltr_event) + 65536) / 8];
	struct ltr_event *ev = (struct ltr_event *)copy;
	struct event_rec out = *r;

	memcpy(copy, r->ev, r->ev->size);
	ev->depth = (uint16_t)depth;
	out.ev = ev;
	out.take = NULL; /* ev is this copy, not the source's */
	trace_event_ingested(&out);
}

/* Pass ev on with depth depth: as it is, if that is its own. */
static inline void pass(const struct event_rec *r, uint32_t depth)
{
	if (r->ev->depth == depth)
		trace_event_ingested(r);
	else
		pass_renumbered(r, depth);
}

/*
 * An ENTER or CALL event: shown if selected and not too deep; a call its
 * rule's depth hides is kept, unshown, as a level.
 */
static void narrow_entry(struct slot_kept *k, const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;
	uint32_t depth;
	unsigned d;
	bool hidden;

	while (k->n && k->calls[k->n - 1].depth >= ev->depth)
		k->n--;
	depth = k->n;
	d = fn_decision(ev->fn);
	if (d == NOT_SHOWN || (max_depth && depth >= max_depth))
		return;
	hidden = d == SHOWN_UP_TO && depth >= rule_depth[ev->fn];
	if (ev->type == LTR_EV_ENTER) {
		if (k->n >= MAX_KEPT)
			return;
		k->calls[k->n++] = (struct kept){ .depth = ev->depth,
						  .hidden = hidden,
						  .fn = ev->fn };
	}
	if (!hidden)
		pass(r, depth);
}

/* An EXIT or UNWOUND event: shown if its entry was. */
static void narrow_end(struct slot_kept *k, const struct event_rec *r)
{
	const struct ltr_event *ev = r->ev;
	uint32_t i, j;
	bool hidden;

	if (!(ev->flags & LTR_EVF_KEEP_ABOVE))
		while (k->n && k->calls[k->n - 1].depth > ev->depth)
			k->n--;
	for (i = k->n; i-- > 0;)
		if (k->calls[i].depth == ev->depth && k->calls[i].fn == ev->fn)
			break;
	if (i == UINT32_MAX)
		return;
	hidden = k->calls[i].hidden;
	/* The calls above it (suspended on other stacks) move down a level. */
	for (j = i; j + 1 < k->n; j++) {
		k->calls[j] = k->calls[j + 1];
		k->calls[j].depth--;
	}
	k->n--;
	if (!hidden)
		pass(r, i);
}

/* An entry or an end, narrowed with k's shown calls; false for any other event. */
static inline bool narrow_call(struct slot_kept *k, const struct event_rec *r)
{
	uint8_t type = r->ev->type;

	/* By tests, not a jump table: see event_trace(). */
	if (type == LTR_EV_ENTER || type == LTR_EV_CALL) {
		narrow_entry(k, r);
		return true;
	}
	if (type == LTR_EV_EXIT || type == LTR_EV_UNWOUND) {
		narrow_end(k, r);
		return true;
	}
	return false;
}

/* narrow_event() of an event its quick way does not take. */
static __attribute__((noinline)) void narrow_other(const struct event_rec *r)
{
	struct slot_kept *k;
	uint8_t type = r->ev->type;

	quick_slot = UINT32_MAX;
	if (r->slot < LTR_MAX_THREADS && type == LTR_EV_GUEST) {
		narrow_guest(r);
		return;
	}
	/* A new owner of the slot: a vfork child of the last one is gone. */
	if (r->slot < LTR_MAX_THREADS && type == LTR_EV_THREAD)
		guest_pid[r->slot] = 0;
	if (!narrow_pid(r->slot < LTR_MAX_THREADS && guest_pid[r->slot]
				? guest_pid[r->slot]
				: r->pid))
		return;
	if (!renumber) {
		trace_event_ingested(r);
		return;
	}
	k = kept_of(r->slot);
	/* The slot's own shown calls (no vfork child in it), no --pid: the quick way's. */
	if (by_slot && r->slot < LTR_MAX_THREADS && !guest_pid[r->slot]) {
		quick_slot = r->slot;
		quick_kept = k;
	}
	if (narrow_call(k, r))
		return;
	if (type == LTR_EV_THREAD)
		k->n = 0;
	trace_event_ingested(r);
}

void narrow_event(const struct event_rec *r)
{
	/* Code objects described with calls left out serve those shown. */
	trace_ingest(r);
	/*
	 * Nearly every event: an entry or an end in the slot of the event
	 * before (a thread's own, no vfork child in it), no --pid; the
	 * rest apart, so that this way saves no registers.
	 */
	if (r->slot == quick_slot && narrow_call(quick_kept, r))
		return;
	narrow_other(r);
}

/* Free a struct lib_entry. */
static void lib_entry_free(void *p)
{
	struct lib_entry *e = p;

	free(e->objects);
	free(e->match);
	free(e);
}

void narrow_done(void)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_THREADS; i++) {
		free(slots[i]);
		free(guests[i]);
		slots[i] = guests[i] = NULL;
		guest_pid[i] = 0;
	}
	strmap_clear(&libs, lib_entry_free);
	objects_indexed = 0;
	quick_slot = UINT32_MAX;
	quick_kept = NULL;
}
