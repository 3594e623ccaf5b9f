/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * callsites.c: -c -k, which stacks made the calls of the busiest functions.
 *
 * The summary says how much time malloc took; with -k it then says where
 * from: for each of the functions with the most time, the stacks (-k's
 * frames, innermost first) that made the most calls, with their calls
 * and time.  Every call that ends is counted under its function and its
 * stack; at most SITES_MAX distinct pairs are kept (a program decides how
 * many there are), the calls of the others are only counted, and the
 * report says so.
 */
#include "config.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "callsites.h"
#include "error.h"
#include "format-stack.h"
#include "xmalloc.h"

#define SITES_MAX 65536
#define TOP_FUNCS 5 /* functions reported */
#define TOP_SITES 3 /* stacks reported per function */
#define SITE_KEY_MAX 4096

/* One function called from one stack. */
struct site {
	char *key;     /* "FN\tframes": the function's index, then the path */
	uint32_t fn;
	uint64_t calls, total; /* ticks */
};

static bool enabled;
static void *root;                /* the sites, by key (tsearch) */
static struct site **sites;
static size_t nsites, sites_size;
static unsigned long long calls_cut;
static bool called[LTR_MAX_FUNCS]; /* a site of the function was counted */

void callsites_init(bool on)
{
	enabled = on;
}

bool callsites_enabled(void)
{
	return enabled;
}

static int site_cmp(const void *a, const void *b)
{
	return strcmp(((const struct site *)a)->key,
		      ((const struct site *)b)->key);
}

void callsites_call(const struct who *w, const struct call *c,
		    const struct result *r)
{
	char key[SITE_KEY_MAX];
	struct site probe = { .key = key }, *s, **found;
	int n = snprintf(key, sizeof(key), "%u\t", c->fn);

	if (n < 0 || (size_t)n >= sizeof(key))
		return;
	stack_path(key + n, sizeof(key) - (size_t)n, w, c);
	found = tfind(&probe, &root, site_cmp);
	if (!found) {
		if (nsites >= SITES_MAX) {
			calls_cut++;
			return;
		}
		s = xcalloc(1, sizeof(*s));
		s->key = xstrdup(key);
		s->fn = c->fn;
		found = tsearch(s, &root, site_cmp);
		if (!found)
			error_msg_and_die("out of memory");
		if (nsites == sites_size) {
			sites_size = sites_size ? 2 * sites_size : 256;
			sites = xrealloc(sites, sites_size * sizeof(*sites));
		}
		sites[nsites++] = s;
	}
	s = *found;
	s->calls++;
	s->total += r->ts_exit - c->ts_enter;
}

/* Most time first, then most calls, then by key (a stable report). */
static int by_time(const void *a, const void *b)
{
	const struct site *x = *(const struct site *const *)a;
	const struct site *y = *(const struct site *const *)b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Print one stack of a site: its frames innermost first, " < " between. */
static void print_frames(FILE *out, const char *path)
{
	const char *end = path + strlen(path), *p = end;

	if (!*path) {
		fputs("(no stack)", out);
		return;
	}
	while (p > path) {
		const char *start = p;

		while (start > path && start[-1] != ';')
			start--;
		fprintf(out, "%s%.*s", p == end ? "" : " < ", (int)(p - start),
			start);
		p = start > path ? start - 1 : path;
	}
}

/* The function with the most time over its sites, not in done[0..n); -1 if none. */
static int64_t busiest(const uint64_t *totals, const uint32_t *done, unsigned n)
{
	int64_t best = -1;
	uint32_t fn;
	unsigned k;

	for (fn = 0; fn < LTR_MAX_FUNCS; fn++) {
		if (!called[fn])
			continue;
		for (k = 0; k < n && done[k] != fn; k++)
			;
		if (k == n && (best < 0 || totals[fn] > totals[best]))
			best = fn;
	}
	return best;
}

void callsites_print(FILE *out, double rate)
{
	static uint64_t totals[LTR_MAX_FUNCS];
	uint32_t done[TOP_FUNCS];
	unsigned nfuncs = 0, shown;
	int64_t fn;
	size_t i;

	if (!enabled || !nsites)
		return;
	qsort(sites, nsites, sizeof(*sites), by_time);
	for (i = 0; i < nsites; i++) {
		totals[sites[i]->fn] += sites[i]->total;
		called[sites[i]->fn] = true;
	}
	fprintf(out, "\ncall sites (-k) of the %d functions with the most time:\n",
		TOP_FUNCS);
	while (nfuncs < TOP_FUNCS && (fn = busiest(totals, done, nfuncs)) >= 0) {
		done[nfuncs++] = (uint32_t)fn;
		fprintf(out, "%s:%s\n     calls     total us  stack\n",
			format_lib((uint32_t)fn), format_func((uint32_t)fn));
		for (i = 0, shown = 0; i < nsites && shown < TOP_SITES; i++) {
			if (sites[i]->fn != fn)
				continue;
			fprintf(out, "%10llu %12.3f  ",
				(unsigned long long)sites[i]->calls,
				(double)sites[i]->total / rate * 1e-3);
			print_frames(out, strchr(sites[i]->key, '\t') + 1);
			fputc('\n', out);
			shown++;
		}
	}
	if (calls_cut)
		fprintf(out, "(%llu calls from stacks past the first %d were not kept)\n",
			calls_cut, SITES_MAX);
}

/* Free one site (tdestroy). */
static void site_free(void *p)
{
	struct site *s = p;

	free(s->key);
	free(s);
}

void callsites_done(void)
{
	tdestroy(root, site_free);
	root = NULL;
	free(sites);
	sites = NULL;
	nsites = sites_size = 0;
}
