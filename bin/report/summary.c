/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c: sum the per-thread counters and print the summary (-c, -C).
 *
 * Counters live in the session, one block per thread slot, written by the
 * traced threads without atomics; they are summed here after the program
 * has ended (also when it was killed: the memory is ltruss's too).  Rows
 * are per function name, merging targets of one name (symbol versions,
 * several definitions); the JSON form also sums per library and per
 * process.  The console prints the same table while the program runs,
 * less a snapshot taken at its "reset" (the counters only grow, but a
 * minimum or maximum cannot be taken back out of them).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "error.h"
#include "format.h"
#include "session.h"
#include "session-slots.h"
#include "summary.h"
#include "json-string.h"
#include "xmalloc.h"

/* One row: a function (of one process, for per-process sums). */
struct row {
	const char *lib;
	const char *func;   /* the raw symbol name */
	int pid;            /* 0 when summed over processes */
	bool min_unknown;   /* since a baseline: min, max not known */
	bool max_unknown;
	struct ltr_count c;
};

/* All rows, and the totals over them. */
struct table {
	struct row *rows;
	size_t n;
	struct ltr_count total;
};

/* A snapshot is a table of rows per function, in key order. */
struct summary_snapshot {
	struct table t;
};

static enum sort_key sort_by;
static double ticks_per_ns;

/* Average time of a row, in ticks. */
static double row_avg(const struct row *r)
{
	return r->c.calls ? (double)r->c.total / (double)r->c.calls : 0;
}

/* Order by pid, library and name: rows to merge become neighbours. */
static int row_compare_key(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int d;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if ((d = strcmp(x->lib, y->lib)) != 0)
		return d;
	return strcmp(x->func, y->func);
}

/* Order by the -S key, largest first, then by name. */
static int row_compare(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	double dx = 0, dy = 0;

	switch (sort_by) {
	case SORT_NAME:
		return row_compare_key(a, b);
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
	return row_compare_key(a, b);
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

/* Merge neighbouring rows with the same key; returns the new count. */
static size_t rows_merge(struct row *rows, size_t n)
{
	size_t i, k = 0;

	qsort(rows, n, sizeof(*rows), row_compare_key);
	for (i = 0; i < n; i++) {
		if (k && row_compare_key(&rows[k - 1], &rows[i]) == 0)
			count_add(&rows[k - 1].c, &rows[i].c);
		else
			rows[k++] = rows[i];
	}
	return k;
}

/* Add a row to t for function f of process pid (0 unless by process) with counters c. */
static void table_add(struct table *t, size_t *cap, uint32_t f, int32_t pid,
		      const struct ltr_count *c)
{
	struct row *r;

	if (t->n == *cap) {
		*cap *= 2;
		t->rows = xrealloc(t->rows, *cap * sizeof(*t->rows));
	}
	r = &t->rows[t->n++];
	r->lib = format_lib(f);
	r->func = format_func_raw(f);
	r->pid = pid;
	r->min_unknown = r->max_unknown = false;
	memset(&r->c, 0, sizeof(r->c));
	count_add(&r->c, c);
}

/*
 * Build the table's rows: per function, or per process and function
 * (by_pid), in key order, without totals.  The counters are those of the
 * thread slots of session s (none: a trace file) and those of slots
 * handed back (bin/session/retired.c) or of the file, in the catalog.
 */
static void table_build(struct table *t, const struct ltr_session *s,
			bool by_pid)
{
	uint32_t nfuncs = catalog_funcs_used();
	uint32_t nthreads = s ? session_threads_used(s) : 0;
	uint32_t nretired = catalog_retired_used();
	size_t cap = 64;
	uint32_t f, th, i;

	memset(t, 0, sizeof(*t));
	t->rows = xmalloc(cap * sizeof(*t->rows));
	for (th = 0; th < nthreads; th++) {
		const struct ltr_thread *slot = session_slot(s, th);
		int pid;

		if (!slot)
			continue;
		pid = slot->pid;

		/* The shared last slot has none; a forged one is not shown. */
		if (!check_pid(pid))
			pid = 0;
		for (f = 0; f < nfuncs; f++)
			if (slot->counts[f].calls)
				table_add(t, &cap, f, by_pid ? pid : 0,
					  &slot->counts[f]);
		/* Merge as we go: memory stays bounded by distinct rows. */
		t->n = rows_merge(t->rows, t->n);
	}
	for (i = 0; i < nretired; i++) {
		const struct ltr_retired *r = catalog_retired(i);

		if (r->fn < nfuncs && r->c.calls)
			table_add(t, &cap, r->fn,
				  by_pid && check_pid(r->pid) ? r->pid : 0, &r->c);
		if ((i + 1) % 4096 == 0 || i + 1 == nretired)
			t->n = rows_merge(t->rows, t->n);
	}
}

/* Keep the rows keep() wants (NULL: all), sum the totals, sort by sort_by. */
static void table_finish(struct table *t,
			 bool (*keep)(const char *lib, const char *func))
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		if (!keep || keep(t->rows[i].lib, t->rows[i].func))
			t->rows[k++] = t->rows[i];
	t->n = k;
	memset(&t->total, 0, sizeof(t->total));
	for (i = 0; i < t->n; i++)
		count_add(&t->total, &t->rows[i].c);
	qsort(t->rows, t->n, sizeof(*t->rows), row_compare);
}

/* Difference of two counters that only grow (0 if now is behind). */
static uint64_t grown(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/*
 * Take base's counts out of t (both in key order) and drop the rows left
 * without calls.  Only the extremes of the whole run are kept, so min and
 * max since base are known only where they moved past base's.
 */
static void table_subtract(struct table *t, const struct table *base)
{
	size_t i, j = 0, k = 0;

	for (i = 0; i < t->n; i++) {
		struct row *r = &t->rows[i];
		const struct ltr_count *b;
		int d = 1;

		while (j < base->n &&
		       (d = row_compare_key(&base->rows[j], r)) < 0)
			j++;
		if (j < base->n && d == 0 && base->rows[j].c.calls) {
			b = &base->rows[j].c;
			r->c.calls = grown(r->c.calls, b->calls);
			r->c.errors = grown(r->c.errors, b->errors);
			r->c.total = grown(r->c.total, b->total);
			r->c.self = grown(r->c.self, b->self);
			r->min_unknown = r->c.min >= b->min;
			r->max_unknown = r->c.max <= b->max;
		}
		if (r->c.calls)
			t->rows[k++] = *r;
	}
	t->n = k;
}

/* Seconds and microseconds of ticks. */
static double secs(uint64_t ticks)
{
	return (double)ticks / ticks_per_ns * 1e-9;
}

static double usecs(double ticks)
{
	return ticks / ticks_per_ns * 1e-3;
}

static uint64_t nsecs(double ticks)
{
	return (uint64_t)(ticks / ticks_per_ns);
}

/* Share of the summed self time, in percent. */
static double percent(const struct row *r, const struct table *t)
{
	return t->total.self ? 100.0 * (double)r->c.self / (double)t->total.self : 0;
}

/*
 * The text table's numeric columns, as wide as strace's by default; a
 * column widens to its widest value (a call of 100 ms is 100000.000 us,
 * a sleep of 1000 s 1000000000.000), so that every column stays aligned.
 */
enum column { COL_PCT, COL_TOTAL, COL_SELF, COL_AVG, COL_MIN, COL_MAX,
	      COL_CALLS, COL_ERRORS, NCOLS };

static const struct {
	const char *title;
	int width;
} columns[NCOLS] = {
	{ "% time", 6 }, { "total s", 11 }, { "self s", 11 }, { "avg us", 8 },
	{ "min us", 8 },  { "max us", 8 },   { "calls", 10 }, { "errors", 8 },
};

#define CELL_MAX 32

/* A microseconds column of the text table: "-" when unknown. */
static void usecs_cell(char *buf, uint64_t ticks, bool unknown)
{
	if (unknown)
		snprintf(buf, CELL_MAX, "-");
	else
		snprintf(buf, CELL_MAX, "%.3f", usecs((double)ticks));
}

/* The cells of row r of t, or of its total line when r is NULL. */
static void text_cells(char cell[NCOLS][CELL_MAX], const struct row *r,
		       const struct table *t)
{
	const struct ltr_count *c = r ? &r->c : &t->total;

	snprintf(cell[COL_PCT], CELL_MAX, "%.2f",
		 r ? percent(r, t) : t->n ? 100.0 : 0.0);
	snprintf(cell[COL_TOTAL], CELL_MAX, "%.6f",
		 secs(r ? c->total : c->self));
	snprintf(cell[COL_CALLS], CELL_MAX, "%llu",
		 (unsigned long long)c->calls);
	snprintf(cell[COL_ERRORS], CELL_MAX, "%llu",
		 (unsigned long long)c->errors);
	if (!r) {
		cell[COL_SELF][0] = cell[COL_AVG][0] = '\0';
		cell[COL_MIN][0] = cell[COL_MAX][0] = '\0';
		return;
	}
	snprintf(cell[COL_SELF], CELL_MAX, "%.6f", secs(c->self));
	snprintf(cell[COL_AVG], CELL_MAX, "%.3f", usecs(row_avg(r)));
	usecs_cell(cell[COL_MIN], c->min, r->min_unknown);
	usecs_cell(cell[COL_MAX], c->max, r->max_unknown);
}

/* Widen width[] to the cells of row r of t (NULL: the total line). */
static void text_widths(int width[NCOLS], const struct row *r,
			const struct table *t)
{
	char cell[NCOLS][CELL_MAX];
	int k, n;

	text_cells(cell, r, t);
	for (k = 0; k < NCOLS; k++) {
		n = (int)strlen(cell[k]);
		if (n > width[k])
			width[k] = n;
	}
}

/* One line of the table: the cells, each right-aligned in its column, then last. */
static void text_line(FILE *out, const int width[NCOLS],
		      const char *const cell[NCOLS], const char *lib,
		      const char *last)
{
	int k;

	for (k = 0; k < NCOLS; k++)
		fprintf(out, "%*s ", width[k], cell[k]);
	if (lib)
		fprintf(out, "%s:", lib);
	fprintf(out, "%s\n", last);
}

/* The rule between the header, the rows and the total. */
static void text_rule(FILE *out, const int width[NCOLS])
{
	int k;

	for (k = 0; k < NCOLS; k++)
		fprintf(out, "%.*s ", width[k],
			"--------------------------------");
	fputs("----------------\n", out);
}

/* The text table, its first limit rows (0: all). */
static void print_text(FILE *out, const struct table *t, size_t limit)
{
	const char *titles[NCOLS], *cells[NCOLS];
	char cell[NCOLS][CELL_MAX];
	int width[NCOLS], k;
	size_t i, n = limit && limit < t->n ? limit : t->n;

	for (k = 0; k < NCOLS; k++) {
		width[k] = columns[k].width;
		titles[k] = columns[k].title;
		cells[k] = cell[k];
	}
	for (i = 0; i < n; i++)
		text_widths(width, &t->rows[i], t);
	text_widths(width, NULL, t);
	text_line(out, width, titles, NULL, "function");
	text_rule(out, width);
	for (i = 0; i < n; i++) {
		text_cells(cell, &t->rows[i], t);
		text_line(out, width, cells, t->rows[i].lib,
			  format_func_display(t->rows[i].func));
	}
	text_rule(out, width);
	text_cells(cell, NULL, t);
	text_line(out, width, cells, NULL, "total");
}

/* Write s as a CSV field (quoted when it needs to be). */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', out);
		putc(*s, out);
	}
	putc('"', out);
}

static void print_csv(FILE *out, const struct table *t)
{
	size_t i;

	fputs("lib,function,calls,errors,total_ns,self_ns,avg_ns,min_ns,max_ns,percent_self\n",
	      out);
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		csv_field(out, r->lib);
		putc(',', out);
		csv_field(out, format_func_display(r->func));
		fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.2f\n",
			(unsigned long long)r->c.calls,
			(unsigned long long)r->c.errors,
			(unsigned long long)nsecs((double)r->c.total),
			(unsigned long long)nsecs((double)r->c.self),
			(unsigned long long)nsecs(row_avg(r)),
			(unsigned long long)nsecs((double)r->c.min),
			(unsigned long long)nsecs((double)r->c.max),
			percent(r, t));
	}
}

/* The numbers of counters c, as JSON members. */
static void json_counts(FILE *out, const struct ltr_count *c)
{
	fprintf(out, "\"calls\":%llu,\"errors\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu",
		(unsigned long long)c->calls, (unsigned long long)c->errors,
		(unsigned long long)nsecs((double)c->total),
		(unsigned long long)nsecs((double)c->self),
		(unsigned long long)nsecs((double)c->min),
		(unsigned long long)nsecs((double)c->max));
}

/* The rows of t as a JSON array of functions (of pid only, if pid). */
static void json_functions(FILE *out, const struct table *t, int pid)
{
	bool first = true;
	size_t i;

	putc('[', out);
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->rows[i];

		if (pid && r->pid != pid)
			continue;
		fputs(first ? "{\"lib\":" : ",{\"lib\":", out);
		first = false;
		json_write_string(out, r->lib);
		fputs(",\"function\":", out);
		json_write_string(out, format_func_display(r->func));
		putc(',', out);
		json_counts(out, &r->c);
		fprintf(out, ",\"avg_ns\":%llu}", (unsigned long long)nsecs(row_avg(r)));
	}
	putc(']', out);
}

/* The rows of t summed per library, as a JSON array. */
static void json_libraries(FILE *out, const struct table *t)
{
	struct row *libs = xcalloc(t->n, sizeof(*libs));
	size_t i, n;

	for (i = 0; i < t->n; i++) {
		libs[i].lib = t->rows[i].lib;
		libs[i].func = "";
		count_add(&libs[i].c, &t->rows[i].c);
	}
	n = rows_merge(libs, t->n);
	qsort(libs, n, sizeof(*libs), row_compare);
	putc('[', out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",{\"lib\":" : "{\"lib\":", out);
		json_write_string(out, libs[i].lib);
		putc(',', out);
		json_counts(out, &libs[i].c);
		putc('}', out);
	}
	putc(']', out);
	free(libs);
}

static void print_json(FILE *out, const struct ltr_session *s,
		       const struct table *t)
{
	struct table per_pid;
	size_t i;
	int last = 0;

	table_build(&per_pid, s, true);
	fputs("{\"functions\":", out);
	json_functions(out, t, 0);
	fputs(",\"libraries\":", out);
	json_libraries(out, t);
	fputs(",\"processes\":[", out);
	/* One entry per pid, in the order of the rows' first appearance. */
	sort_by = SORT_NAME;
	qsort(per_pid.rows, per_pid.n, sizeof(*per_pid.rows), row_compare_key);
	for (i = 0; i < per_pid.n; i++) {
		struct ltr_count sum = { 0 };
		size_t j;

		if (per_pid.rows[i].pid == last)
			continue;
		last = per_pid.rows[i].pid;
		for (j = i; j < per_pid.n && per_pid.rows[j].pid == last; j++)
			count_add(&sum, &per_pid.rows[j].c);
		fprintf(out, "%s{\"pid\":%d,", i ? "," : "", last);
		json_counts(out, &sum);
		fputs(",\"functions\":", out);
		json_functions(out, &per_pid, last);
		putc('}', out);
	}
	fputs("],\"total\":{", out);
	json_counts(out, &t->total);
	fputs("}}\n", out);
	free(per_pid.rows);
}

void summary_print(FILE *out, const struct ltr_session *s, enum sort_key key,
		   enum summary_format format, double rate)
{
	struct table t;

	ticks_per_ns = rate;
	sort_by = key;
	table_build(&t, s, false);
	table_finish(&t, NULL);
	switch (format) {
	case SUMMARY_TEXT:
		print_text(out, &t, 0);
		break;
	case SUMMARY_CSV:
		print_csv(out, &t);
		break;
	case SUMMARY_JSON:
		print_json(out, s, &t);
		break;
	}
	free(t.rows);
}

struct summary_snapshot *summary_snapshot(const struct ltr_session *s)
{
	struct summary_snapshot *snap = xmalloc(sizeof(*snap));

	table_build(&snap->t, s, false);
	return snap;
}

void summary_snapshot_free(struct summary_snapshot *snap)
{
	if (!snap)
		return;
	free(snap->t.rows);
	free(snap);
}

uint64_t summary_snapshot_calls(const struct summary_snapshot *snap,
				const char *lib, const char *func)
{
	struct row key = { .lib = lib, .func = func };
	const struct row *r;

	if (!snap || !snap->t.n)
		return 0;
	r = bsearch(&key, snap->t.rows, snap->t.n, sizeof(key),
		    row_compare_key);
	return r ? r->c.calls : 0;
}

size_t summary_print_since(FILE *out, const struct ltr_session *s,
			   const struct summary_snapshot *base,
			   bool (*keep)(const char *lib, const char *func),
			   enum sort_key key, size_t limit, double rate)
{
	struct table t;
	size_t n;

	ticks_per_ns = rate;
	sort_by = key;
	table_build(&t, s, false);
	if (base)
		table_subtract(&t, &base->t);
	table_finish(&t, keep);
	print_text(out, &t, limit);
	n = t.n;
	free(t.rows);
	return n;
}
