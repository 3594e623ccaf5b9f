/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patch-hints.c: after the run, the calls a one-colon rule missed because
 * the object made them to itself, and the '::' rule that would see them.
 *
 * `-u 'LIB:FUNC'` sees the calls from other objects; LIB's own calls of
 * FUNC, direct ones and those through LIB's PLT that the loader binds
 * back to LIB (a self-binding: only '::' selects those), it never sees;
 * `-u 'LIB::FUNC'` does.  Counting them would mean patching, so what is
 * said is how many such call sites (calls and jumps to FUNC's entry or to
 * its PLT entry) LIB's code holds: found by the scan that entry patching
 * makes of a whole object (patch-image.c), cached by build ID
 * (patch-cache.c).
 *
 * Only with -c, in text: a count is where the missed calls mislead, by a
 * number that looks whole (the '::' form would have counted them).  A
 * trace (-C too) shows the calls it has, and would end in such a line at
 * almost every `-u libc:FUNC`, libc calling most of its functions itself;
 * a JSON or CSV summary is read by programs, not by the person the hint
 * is for.
 *
 * When.  At the end of the run, over the objects the traced processes
 * recorded loading (objmap.c: dlopen'ed ones and, with -f, those of
 * every process; of a run that loads more than the session's ring of
 * records holds, without a view that keeps them all, the latest): which
 * libraries a run loads is known for sure only then, and scanning a large
 * library at the start (libc for every `-u libc:strlen`) would cost each
 * run's start-up.  At the end it costs the first run of an object, once
 * (then the cache answers).
 *
 * Which rules.  Only an include rule of one colon that names both its
 * library and its function without a glob character (`libc:free`,
 * `a.out:sq`): a glob (`*:free`, a filter's `libc.so*`) names no object
 * on purpose, and scanning every library a run loads would cost seconds.
 * The objects scanned afresh are bounded too: at most HINT_SCAN_BUDGET
 * bytes of code a run (libc's is 1.6 MB); an object beyond that, never
 * scanned before, gets no hint.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "objmap.h"
#include "patch-hints.h"
#include "patch-image.h"
#include "patch-plan.h"
#include "strmap.h"
#include "xmalloc.h"

/* Bytes of code the hints decode in a run, uncached objects together. */
#define HINT_SCAN_BUDGET (32u << 20)

/* Is r a rule whose misses are said: one colon, includes, names one library and one function? */
static bool rule_hinted(const struct ltr_rule *r)
{
	return !(r->flags & (LTR_RULE_INNER | LTR_RULE_EXCLUDE)) &&
	       patch_glob_exact(r->lib) && patch_glob_exact(r->func);
}

/* The rule_hinted() rule that decides for f in im, or NULL. */
static const struct ltr_rule *hint_rule(const struct image *im,
					const struct fn *f,
					const struct selection *sel)
{
	size_t i;

	if (!sel_selected(sel->rules, sel->nrules, f->name, 0, &im->names))
		return NULL;
	i = sel_rule_of(sel->rules, sel->nrules, f->name, 0, &im->names);
	return i < sel->nrules && rule_hinted(&sel->rules[i]) ? &sel->rules[i]
							      : NULL;
}

/* Is the function at f's address selected by a '::' rule (by f or an alias)? */
static bool patched(const struct image *im, const struct fn *f)
{
	const struct fn *a;

	for (a = f; a > im->fns && a[-1].vaddr == f->vaddr; a--)
		;
	for (; a < im->fns + im->nfns && a->vaddr == f->vaddr; a++)
		if (a->selected)
			return true;
	return false;
}

/* Does some function of im want a hint (before the scan tells its call sites)? */
static bool image_wants_hints(const struct image *im,
			      const struct selection *sel)
{
	size_t i;

	for (i = 0; i < im->nfns; i++)
		if (!patched(im, &im->fns[i]) && hint_rule(im, &im->fns[i], sel))
			return true;
	return false;
}

/* Say, for each function of the scanned im a hinted rule decides, its direct call sites. */
static void image_hints(const struct image *im, const struct selection *sel)
{
	size_t i;

	for (i = 0; i < im->nfns; i++) {
		const struct fn *f = &im->fns[i];
		const struct ltr_rule *r;
		size_t sites;

		if (patched(im, f) || !(r = hint_rule(im, f, sel)) ||
		    !(sites = image_calls_to(im, f)))
			continue;
		warning_msg("%s:%s is also called from inside %s (%zu call site%s), which -u '%s:%s' does not trace: -u '%s::%s' does",
			    im->short_name, f->name, im->short_name, sites,
			    sites == 1 ? "" : "s", r->lib, f->name, r->lib,
			    f->name);
	}
}

/* Say the hints of the object at path, scanning it if the budget allows. */
static void object_hints(const char *path, const struct selection *sel,
			 uint64_t *budget)
{
	struct image im;

	if (!image_open(&im, path, IMAGE_GUESS | IMAGE_QUIET))
		return;
	if (sel_lib_wanted(sel->rules, sel->nrules, &im.names) &&
	    image_read(&im)) {
		patch_mark_selected(&im, sel);
		if (image_wants_hints(&im, sel) && image_scan(&im, budget))
			image_hints(&im, sel);
	}
	image_close(&im);
}

void patch_hints(const struct selection *sel)
{
	uint64_t budget = HINT_SCAN_BUDGET;
	const struct stack_objects *objs;
	struct strmap seen = { 0 };
	size_t i, r;

	/* --from: '::' is refused with it, so there is nothing to suggest */
	if (sel->nfrom)
		return;
	for (r = 0; r < sel->nrules && !rule_hinted(&sel->rules[r]); r++)
		;
	if (r == sel->nrules)
		return;
	elf_version(EV_CURRENT);
	image_decoder_init();
	objs = objmap_sync();
	for (i = 0; i < objs->n; i++) {
		const char *path = objs->v[i].path;
		void **slot;

		if (path[0] != '/')
			continue;
		slot = strmap_slot(&seen, path);
		if (*slot)
			continue;
		*slot = &seen; /* any non-NULL value: seen */
		object_hints(path, sel, &budget);
	}
	strmap_clear(&seen, NULL);
}
