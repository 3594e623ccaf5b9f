/* SPDX-License-Identifier: GPL-2.0-or-later */
/* summary.c: sum the per-thread counters and print the summary table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "session.h"
#include "summary.h"

/* One line of the table: a function, summed over threads and targets. */
struct row {
	char name[256];
	struct ltr_count c;
};

static enum sort_key sort_by;

/* Average time of a row, in ticks. */
static double row_avg(const struct row *r)
{
	return r->c.calls ? (double)r->c.total / (double)r->c.calls : 0;
}

/* Order rows by name (to merge), then by the requested key, largest first. */
static int row_compare(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	double dx = 0, dy = 0;

	switch (sort_by) {
	case SORT_NAME:
		return strcmp(x->name, y->name);
	case SORT_TIME:
		dx = (double)x->c.total, dy = (double)y->c.total;
		break;
	case SORT_SELF:
		dx = (double)x->c.self, dy = (double)y->c.self;
		break;
	case SORT_CALLS:
		dx = (double)x->c.calls, dy = (double)y->c.calls;
		break;
	case SORT_AVG:
		dx = row_avg(x), dy = row_avg(y);
		break;
	case SORT_MAX:
		dx = (double)x->c.max, dy = (double)y->c.max;
		break;
	case SORT_ERRORS:
		dx = (double)x->c.errors, dy = (double)y->c.errors;
		break;
	}
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Add the counters c into sum. */
static void count_add(struct ltr_count *sum, const struct ltr_count *c)
{
	if (!c->calls)
		return;
	if (!sum->calls || c->min < sum->min)
		sum->min = c->min;
	if (c->max > sum->max)
		sum->max = c->max;
	sum->calls += c->calls;
	sum->errors += c->errors;
	sum->total += c->total;
	sum->self += c->self;
}

/* Build one row per function name, summed over threads; returns the count. */
static size_t rows_collect(const struct ltr_session *s, struct row **out)
{
	uint32_t nfuncs = __atomic_load_n(&s->nfuncs, __ATOMIC_ACQUIRE);
	uint32_t nthreads = __atomic_load_n(&s->nthreads, __ATOMIC_ACQUIRE);
	struct row *rows;
	size_t n = 0, i, k;
	uint32_t f, t;

	if (nfuncs > LTR_MAX_FUNCS)
		nfuncs = LTR_MAX_FUNCS;
	if (nthreads > LTR_MAX_THREADS)
		nthreads = LTR_MAX_THREADS;
	rows = calloc(nfuncs ? nfuncs : 1, sizeof(*rows));
	if (!rows)
		error_msg_and_die("out of memory");
	for (f = 0; f < nfuncs; f++) {
		struct row *r = &rows[n];

		for (t = 0; t < nthreads; t++)
			count_add(&r->c, &s->threads[t].counts[f]);
		if (!r->c.calls)
			continue;
		session_func_name(s, f, r->name, sizeof(r->name));
		n++;
	}
	/* Merge targets of the same name (versions, several definitions). */
	sort_by = SORT_NAME;
	qsort(rows, n, sizeof(*rows), row_compare);
	for (i = 0, k = 0; i < n; i++) {
		if (k && strcmp(rows[k - 1].name, rows[i].name) == 0)
			count_add(&rows[k - 1].c, &rows[i].c);
		else
			rows[k++] = rows[i];
	}
	*out = rows;
	return k;
}

static const char rule[] =
	"------ ----------- ----------- -------- -------- -------- ---------- -------- ----------------\n";

void summary_print(FILE *out, const struct ltr_session *s, enum sort_key key,
		   double ticks_per_ns)
{
	double tick_s = 1e-9 / ticks_per_ns, tick_us = 1e-3 / ticks_per_ns;
	uint64_t self_sum = 0, calls = 0, errors = 0;
	struct row *rows;
	size_t n, i;

	n = rows_collect(s, &rows);
	sort_by = key;
	qsort(rows, n, sizeof(*rows), row_compare);
	for (i = 0; i < n; i++) {
		self_sum += rows[i].c.self;
		calls += rows[i].c.calls;
		errors += rows[i].c.errors;
	}
	fprintf(out, "%% time     total s      self s   avg us   min us   max us      calls   errors function\n");
	fputs(rule, out);
	for (i = 0; i < n; i++) {
		const struct ltr_count *c = &rows[i].c;

		fprintf(out, "%6.2f %11.6f %11.6f %8.3f %8.3f %8.3f %10llu %8llu %s\n",
			self_sum ? 100.0 * (double)c->self / (double)self_sum : 0.0,
			(double)c->total * tick_s, (double)c->self * tick_s,
			row_avg(&rows[i]) * tick_us, (double)c->min * tick_us,
			(double)c->max * tick_us, (unsigned long long)c->calls,
			(unsigned long long)c->errors, rows[i].name);
	}
	fputs(rule, out);
	fprintf(out, "%6.2f %11.6f %11s %8s %8s %8s %10llu %8llu total\n",
		n ? 100.0 : 0.0, (double)self_sum * tick_s, "", "", "", "",
		(unsigned long long)calls, (unsigned long long)errors);
	free(rows);
}
