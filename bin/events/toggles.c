/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * toggles.c: a console's enable/disable rules, kept in the session and
 * applied to every function of the run.
 *
 * The interposer hides the calls of a function whose LTR_FN_DISABLED flag
 * is set; it cannot decide that itself when it registers a function,
 * since a rule may name the demangled C++ name.  So a console writes its
 * rules into the session (toggles[]) and ltruss, which drains the rings for
 * as long as the program runs, applies them: to every function when they
 * change, and to each function bound later (dlopen, a first call with lazy
 * binding, a process of -f) as soon as it is registered or its first call
 * is read, whether a console is still attached or not.  The last rule that
 * matches a function decides; none: enabled (the selection engine's walk
 * and globs, common/select.c).  The calls a new function
 * makes before its flag is set are hidden by trace.c, which asks
 * toggles_disabled() at each entry.
 *
 * Consoles change the list under toggles_lock, with toggles_gen odd
 * meanwhile (a sequence lock: ltruss never waits for a console, it copies
 * the list and keeps the copy only if the generation stayed the same).
 * ltruss stores the generation it applied in toggles_done, and a console
 * waits for it before it answers, so that a "list" right after a "disable"
 * shows it.  A session without trace events (-c) is not drained: there the
 * console applies the rules itself, for "list" (no calls are shown anyway).
 */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/select.h"
#include "catalog.h"
#include "format.h"
#include "session.h"
#include "toggles.h"

#define LOCK_WAIT_MS 1000 /* then the holder is taken to have died */
#define APPLY_WAIT_MS 3000 /* ltruss drains at least every 10 ms */

/* ltruss's copy of the rules (one of two buffers), and how far it applied them. */
static struct ltr_toggle copies[2][LTR_MAX_TOGGLES];
static struct ltr_toggle *rules = copies[0];
static uint32_t nrules;
static uint32_t rules_gen;  /* the generation copied */
uint32_t toggles_decided; /* funcs[] entries decided with the copy (toggles.h) */

/* Sleep one millisecond. */
static void nap(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

bool toggles_match(const char *glob, const char *lib, const char *raw)
{
	const char *shown = format_func_display(raw);
	char full[LTR_GLOB_MAX + 1100];

	if (sel_glob_match(glob, raw, false) || sel_glob_match(glob, shown, false))
		return true;
	snprintf(full, sizeof(full), "%s:%s", lib, raw);
	if (sel_glob_match(glob, full, false))
		return true;
	snprintf(full, sizeof(full), "%s:%s", lib, shown);
	return sel_glob_match(glob, full, false);
}

/* Take toggles_lock; after LOCK_WAIT_MS, take it from a console that died. */
static void lock_take(struct ltr_session *s)
{
	unsigned ms;

	for (ms = 0; ms < LOCK_WAIT_MS; ms++) {
		if (__atomic_exchange_n(&s->toggles_lock, 1, __ATOMIC_ACQUIRE) == 0)
			return;
		nap();
	}
	__atomic_exchange_n(&s->toggles_lock, 1, __ATOMIC_ACQUIRE);
}

/* Change the list in place: drop glob's rule, or all of them for "*". */
static void rules_forget(struct ltr_session *s, const char *glob)
{
	uint32_t i, n = s->ntoggles < LTR_MAX_TOGGLES ? s->ntoggles :
							 LTR_MAX_TOGGLES;

	if (strcmp(glob, "*") == 0)
		n = 0;
	for (i = 0; i < n; i++) {
		if (strcmp(s->toggles[i].glob, glob) == 0) {
			memmove(&s->toggles[i], &s->toggles[i + 1],
				(n - i - 1) * sizeof(*s->toggles));
			n--;
			break;
		}
	}
	s->ntoggles = n;
}

bool toggles_add(struct ltr_session *s, const char *glob, bool disable,
		 uint32_t *gen, const char **why)
{
	struct ltr_toggle *t;
	uint32_t g;
	bool ok;

	if (strlen(glob) >= sizeof(t->glob)) {
		*why = "GLOB is too long";
		return false;
	}
	lock_take(s);
	g = __atomic_load_n(&s->toggles_gen, __ATOMIC_RELAXED) | 1; /* odd */
	__atomic_store_n(&s->toggles_gen, g, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	rules_forget(s, glob);
	ok = s->ntoggles < LTR_MAX_TOGGLES;
	if (ok) {
		t = &s->toggles[s->ntoggles++];
		strcpy(t->glob, glob);
		t->disable = disable;
	} else {
		*why = "too many enable and disable rules ('enable *' starts afresh)";
	}
	*gen = g + 1;
	__atomic_store_n(&s->toggles_gen, g + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->toggles_lock, 0, __ATOMIC_RELEASE);
	return ok;
}

bool toggles_wait(const struct ltr_session *s, uint32_t gen)
{
	unsigned ms;

	for (ms = 0; ms < APPLY_WAIT_MS; ms++) {
		/* A later generation covers this one (wrapping aside). */
		if ((int32_t)(__atomic_load_n(&s->toggles_done, __ATOMIC_ACQUIRE) -
			      gen) >= 0)
			return true;
		nap();
	}
	return false;
}

/* Copy the list if it changed and is not being changed; true if copied. */
static bool rules_copy(const struct ltr_session *s)
{
	uint32_t gen = __atomic_load_n(&s->toggles_gen, __ATOMIC_ACQUIRE), n, i;
	struct ltr_toggle *copy = rules == copies[0] ? copies[1] : copies[0];

	if (gen == rules_gen || (gen & 1))
		return false;
	n = s->ntoggles < LTR_MAX_TOGGLES ? s->ntoggles : LTR_MAX_TOGGLES;
	memcpy(copy, s->toggles, n * sizeof(*copy));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&s->toggles_gen, __ATOMIC_RELAXED) != gen)
		return false; /* changed meanwhile: next time */
	for (i = 0; i < n; i++)
		copy[i].glob[sizeof(copy->glob) - 1] = '\0';
	rules = copy;
	nrules = n;
	rules_gen = gen;
	return true;
}

/* A function's names, for the walk over the rules. */
struct func_names {
	const char *lib, *raw;
};

/* Does rule i match the function ctx names? */
static bool rule_matches(size_t i, void *ctx)
{
	const struct func_names *f = ctx;

	return toggles_match(rules[i].glob, f->lib, f->raw);
}

/* Set or clear fn's LTR_FN_DISABLED as the last rule matching it says. */
static void decide(struct ltr_session *s, uint32_t fn)
{
	struct func_names f = { format_lib(fn), format_func_raw(fn) };
	size_t i = sel_last(nrules, rule_matches, &f);
	bool disable = i < nrules && rules[i].disable;

	if (disable)
		__atomic_fetch_or(&s->funcs[fn].flags, LTR_FN_DISABLED,
				  __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&s->funcs[fn].flags, ~LTR_FN_DISABLED,
				   __ATOMIC_RELAXED);
}

/* Decide the functions registered (and filled in) since the last time. */
static void decide_new(struct ltr_session *s)
{
	uint32_t n = session_funcs_used(s);

	for (; toggles_decided < n; toggles_decided++) {
		if (!session_func_ready(s, toggles_decided))
			break; /* entries fill in order: this one next time */
		if (nrules)
			decide(s, toggles_decided);
	}
}

void toggles_apply(struct ltr_session *s)
{
	uint32_t fn;

	if (rules_copy(s)) {
		for (fn = 0; fn < toggles_decided; fn++)
			decide(s, fn);
		__atomic_store_n(&s->toggles_done, rules_gen, __ATOMIC_RELEASE);
	}
	decide_new(s);
}

bool toggles_disabled_live(struct ltr_session *s, uint32_t fn)
{
	if (fn >= LTR_MAX_FUNCS)
		return false;
	if (fn >= toggles_decided)
		decide_new(s);
	return __atomic_load_n(&s->funcs[fn].flags, __ATOMIC_RELAXED) &
	       LTR_FN_DISABLED;
}
