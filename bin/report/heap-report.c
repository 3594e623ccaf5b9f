/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * heap-report.c: --heap's report of each process, as text for people,
 * JSON Lines for scripts (--summary-format json), and --folded: the live
 * bytes at the peak by stack, a memory flame graph.
 *
 * The text shows the stacks that held the most bytes at the peak and at
 * exit (TOP of each, then what the others hold, summed); JSON has them all.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "error.h"
#include "heap-state.h"
#include "heap.h"
#include "json-string.h"
#include "xmalloc.h"

#define TOP 10 /* stacks a text table shows */

/* One row of a table: a stack and what it held then. */
struct row {
	const struct heap_stack *st;
	uint64_t bytes, blocks;
};

/* bytes for people: "512 B", "3.4 KiB", "10.5 MiB" (the unit it is at least 0.9 of). */
static void print_size(FILE *out, uint64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes, unit = 1024;
	int u = -1;

	while (u < 3 && v >= 0.9 * unit) {
		u++;
		unit *= 1024;
	}
	if (u < 0)
		fprintf(out, "%llu B", (unsigned long long)bytes);
	else
		fprintf(out, "%.1f %s", v / (unit / 1024), units[u]);
}

/* Seconds from the start of the trace to TSC reading tsc. */
static double since_start(uint64_t tsc)
{
	uint64_t tsc0, real0;

	clock_anchor(&tsc0, &real0);
	return tsc > tsc0 ? (double)clock_ticks_to_ns(tsc - tsc0) * 1e-9 : 0;
}

/* Most bytes first, then most blocks, then the lowest id (the first seen). */
static int by_bytes(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->blocks != y->blocks)
		return x->blocks > y->blocks ? -1 : 1;
	return x->st->id < y->st->id ? -1 : x->st->id > y->st->id;
}

/* The stacks of p holding a block at its peak (at_peak) or now, sorted; how many. */
static size_t rows_of(const struct heap_proc *p, bool at_peak,
		      struct row **out)
{
	size_t n, i, k = 0;
	struct heap_stack *const *all = heap_stacks(&n);
	struct row *rows = xcalloc(n ? n : 1, sizeof(*rows));

	for (i = 0; i < n; i++) {
		struct row r = { .st = all[i], .bytes = all[i]->bytes,
				 .blocks = all[i]->blocks };

		if (all[i]->proc != p)
			continue;
		if (at_peak)
			heap_stack_at_peak(all[i], &r.bytes, &r.blocks);
		if (r.blocks)
			rows[k++] = r;
	}
	qsort(rows, k, sizeof(*rows), by_bytes);
	*out = rows;
	return k;
}

/* "calloc < peak_b+0x1c (heapfix) < main+0x2a (heapfix)": st, innermost first. */
static void print_stack(FILE *out, const struct heap_stack *st)
{
	uint32_t i;

	fputs(format_func(st->fn), out);
	for (i = 0; i < st->nframes; i++)
		fprintf(out, " < %s", stack_name_label(st->frames[i]));
}

/* One text table: its TOP rows, then the others summed. */
static void print_table(FILE *out, const struct row *rows, size_t n)
{
	uint64_t bytes = 0, blocks = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i >= TOP) {
			bytes += rows[i].bytes;
			blocks += rows[i].blocks;
			continue;
		}
		fprintf(out, "%27llu %7llu  ", (unsigned long long)rows[i].bytes,
			(unsigned long long)rows[i].blocks);
		print_stack(out, rows[i].st);
		fputc('\n', out);
	}
	if (n > TOP)
		fprintf(out, "%27llu %7llu  (%zu more stacks)\n",
			(unsigned long long)bytes, (unsigned long long)blocks,
			n - TOP);
}

/* How p's image ended: "exit", or "exec" (another program, the same pid). */
static const char *end_word(const struct heap_proc *p)
{
	return p->exec ? "exec" : "exit";
}

/* p's report as text. */
static void print_text(FILE *out, const struct heap_proc *p, bool pids)
{
	struct row *peak, *left;
	size_t npeak = rows_of(p, true, &peak), nleft = rows_of(p, false, &left);

	if (pids)
		fprintf(out, "[pid %d] ", p->pid);
	fputs("heap: peak ", out);
	print_size(out, p->peak_bytes);
	fprintf(out, " (%llu bytes in %llu blocks) at +%.3f s; at %s ",
		(unsigned long long)p->peak_bytes,
		(unsigned long long)p->peak_blocks, since_start(p->peak_ts),
		end_word(p));
	print_size(out, p->bytes);
	fprintf(out, " (%llu bytes in %llu blocks); %llu allocations, %llu frees",
		(unsigned long long)p->bytes, (unsigned long long)p->blocks,
		(unsigned long long)p->allocs, (unsigned long long)p->frees);
	if (p->unknown_frees)
		fprintf(out, "; %llu frees of blocks never seen allocated (allocated before tracing, or by an untraced path)",
			(unsigned long long)p->unknown_frees);
	fprintf(out, "\n%-11s%16s %7s  %s\n", "at the peak", "bytes", "blocks",
		"allocated at");
	print_table(out, peak, npeak);
	fprintf(out, "still allocated at %s%s\n", end_word(p),
		nleft ? "" : ": nothing");
	print_table(out, left, nleft);
	free(peak);
	free(left);
}

/* One "heap" JSON object of p's per row. */
static void print_json_rows(FILE *out, const struct heap_proc *p,
			    const char *when, const struct row *rows, size_t n)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < n; i++) {
		fprintf(out, "{\"type\":\"heap\",\"pid\":%d,\"when\":\"%s\",\"bytes\":%llu,\"blocks\":%llu,\"stack\":[",
			p->pid, when, (unsigned long long)rows[i].bytes,
			(unsigned long long)rows[i].blocks);
		json_write_string(out, format_func(rows[i].st->fn));
		for (k = 0; k < rows[i].st->nframes; k++) {
			fputc(',', out);
			json_write_string(out,
					  stack_name_label(rows[i].st->frames[k]));
		}
		fputs("]}\n", out);
	}
}

/* p's report as JSON Lines. */
static void print_json(FILE *out, const struct heap_proc *p)
{
	struct row *peak, *left;
	size_t npeak = rows_of(p, true, &peak), nleft = rows_of(p, false, &left);
	uint64_t tsc0, real0;

	clock_anchor(&tsc0, &real0);
	fprintf(out, "{\"type\":\"heap-total\",\"pid\":%d,\"peak_bytes\":%llu,\"peak_blocks\":%llu,\"peak_ts\":%llu,\"exit_bytes\":%llu,\"exit_blocks\":%llu,\"allocs\":%llu,\"frees\":%llu,\"unknown_frees\":%llu}\n",
		p->pid, (unsigned long long)p->peak_bytes,
		(unsigned long long)p->peak_blocks,
		(unsigned long long)(p->peak_ts > tsc0 ?
				     clock_ticks_to_ns(p->peak_ts - tsc0) : 0),
		(unsigned long long)p->bytes, (unsigned long long)p->blocks,
		(unsigned long long)p->allocs, (unsigned long long)p->frees,
		(unsigned long long)p->unknown_frees);
	print_json_rows(out, p, "peak", peak, npeak);
	print_json_rows(out, p, end_word(p), left, nleft);
	free(peak);
	free(left);
}

/* A folded line: its path and bytes. */
struct fold {
	char *path;
	uint64_t bytes;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct fold *)a)->path,
		      ((const struct fold *)b)->path);
}

/* "main;peak_b;calloc": st's functions, outermost first. */
static char *fold_path(const struct heap_stack *st)
{
	size_t len = strlen(format_func(st->fn)) + 1, at = 0;
	uint32_t i;
	char *s;

	for (i = 0; i < st->nframes; i++)
		len += strlen(stack_name_func(st->frames[i])) + 1;
	s = xmalloc(len);
	for (i = st->nframes; i-- > 0;)
		at += (size_t)sprintf(s + at, "%s;",
				      stack_name_func(st->frames[i]));
	strcpy(s + at, format_func(st->fn));
	return s;
}

/* --folded: every process's live bytes at its peak, by path, equal paths summed. */
static void write_folded(FILE *f)
{
	size_t n, i, k = 0;
	struct heap_stack *const *all = heap_stacks(&n);
	struct fold *folds = xcalloc(n ? n : 1, sizeof(*folds));
	uint64_t bytes, blocks;

	for (i = 0; i < n; i++) {
		heap_stack_at_peak(all[i], &bytes, &blocks);
		if (!bytes)
			continue;
		folds[k].path = fold_path(all[i]);
		folds[k++].bytes = bytes;
	}
	qsort(folds, k, sizeof(*folds), by_path);
	for (i = 0; i < k; i++) {
		bytes = folds[i].bytes;
		while (i + 1 < k && strcmp(folds[i].path, folds[i + 1].path) == 0) {
			free(folds[i].path);
			bytes += folds[++i].bytes;
		}
		fprintf(f, "%s %llu\n", folds[i].path, (unsigned long long)bytes);
		free(folds[i].path);
	}
	free(folds);
	if (fclose(f) != 0)
		perror_msg("cannot write the --folded file");
}

void heap_print(FILE *out, bool json)
{
	size_t n, i;
	struct heap_proc *const *procs = heap_procs(&n);

	if (!heap_enabled())
		return;
	if (!n && !json)
		fputs("heap: no allocator call was traced\n", out);
	for (i = 0; i < n; i++) {
		if (json)
			print_json(out, procs[i]);
		else
			print_text(out, procs[i], n > 1);
	}
	if (heap_folded())
		write_folded(heap_folded());
}
