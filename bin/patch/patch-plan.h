/* SPDX-License-Identifier: GPL-2.0-or-later */
/* patch-plan.h: the functions '::' rules select that entry patching takes, planned for the interposer. */
#ifndef LTRUSS_PATCH_PLAN_H
#define LTRUSS_PATCH_PLAN_H

#include "lib/session.h"
#include "selection.h"

/* Instead of planning, tell each selected function's fate (--list). */
struct patch_report {
	/* why: NULL when it would be patched (len bytes moved), else why not */
	void (*fn)(void *ctx, const char *lib, const char *name,
		   const char *why, unsigned len);
	void *ctx;
};

/*
 * Plan entry patching of the functions that sel's '::' rules select in
 * command's program and the libraries it loads at start, into s's
 * patches[] (before the program starts); warn once of each function that
 * cannot be patched.  With rep, plan nothing: report each function to it.
 * Does nothing without a '::' rule.
 */
void patch_plan(struct ltr_session *s, const char *command,
		const struct selection *sel, struct patch_report *rep);

/* Are requests to plan an object opened later to be answered (a '::' rule)? */
bool patch_serving(void);

/*
 * Answer a traced process's request to plan an object it opened (dlopen):
 * append the plans to s's patches[] (each object planned once).  Called
 * from the passes over the rings.
 */
void patch_serve(struct ltr_session *s);

struct image;

/* Does a glob name exactly one thing (no glob character)? */
bool patch_glob_exact(const char *glob);

/*
 * Mark the functions of im a '::' rule selects (the C runtime's only by
 * their exact name); returns how many.  Of aliases (one address, several
 * names) the first selected stands for all.
 */
size_t patch_mark_selected(struct image *im, const struct selection *sel);

/* After the run: say which planned functions the interposer could not patch, and why. */
void patch_failures(const struct ltr_session *s);

#endif
