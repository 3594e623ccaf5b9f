/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-files.c: the files -k unwinds with, each opened once whatever the
 * processes.
 *
 * What costs in unwinding is opening an object's file and indexing its
 * unwind tables and debug information; which process loaded it, and
 * where, changes none of that.  So the state libdw keeps is per file, not
 * per process: each file named by a frame gets a Dwfl of its own, holding
 * its one module at the file's own addresses (bias 0), and a frame's
 * address in a process is taken to the file's by the load bias of the
 * object holding it (objmap.c).  A recording of any number of processes,
 * each with its own layout, opens each file once.
 *
 * A file is opened when a frame first needs it, and only the FILES_OPEN
 * used last are kept open (descriptors, mapped files, indexes): a trace
 * file may name thousands.  One closed to make room is opened again if a
 * frame needs it; its call-frame rules stay (stack-rules.c), so that
 * happens only for pcs not seen before, or for a frame's source line.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "build-id.h"
#include "debuginfo.h"
#include "error.h"
#include "fd-util.h"
#include "stack-files.h"
#include "strmap.h"
#include "xmalloc.h"

#define FILES_OPEN 64 /* files kept open at a time */

/* One object file, by path. */
struct stack_file {
	char *path;
	Dwfl *dwfl;          /* NULL: not open */
	Dwfl_Module *mod;    /* its module, NULL if the file cannot be read */
	bool unreadable;     /* tried once, could not be read: never again */
	struct rule_cache *rules;
	struct stack_file *prev, *next; /* open ones, latest used first */
};

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = debuginfo_find_elf,
	.find_debuginfo = debuginfo_find,
};

static struct strmap files;
static struct stack_file *open_first, *open_last;
static unsigned nopen;

/* The module of the file of a rule cache (stack-rules.c). */
static Dwfl_Module *rules_module(void *arg)
{
	return files_module(arg);
}

struct stack_file *files_of(const char *path)
{
	void **slot = strmap_slot(&files, path);
	struct stack_file *f = *slot;

	if (!f) {
		f = xcalloc(1, sizeof(*f));
		f->path = xstrdup(path);
		f->rules = rules_new(rules_module, f);
		*slot = f;
	}
	return f;
}

struct rule_cache *files_rules(struct stack_file *f)
{
	return f->rules;
}

/* Take f out of the list of open files. */
static void open_unlink(struct stack_file *f)
{
	if (f->prev)
		f->prev->next = f->next;
	else
		open_first = f->next;
	if (f->next)
		f->next->prev = f->prev;
	else
		open_last = f->prev;
	f->prev = f->next = NULL;
}

/* Put f first in the list of open files. */
static void open_push(struct stack_file *f)
{
	f->next = open_first;
	if (open_first)
		open_first->prev = f;
	open_first = f;
	if (!open_last)
		open_last = f;
}

/* Close f's Dwfl (its module, descriptor, indexes). */
static void file_close(struct stack_file *f)
{
	open_unlink(f);
	dwfl_end(f->dwfl);
	f->dwfl = NULL;
	f->mod = NULL;
	nopen--;
}

/* Open f, report its module; close the one used longest ago if need be. */
static void file_open(struct stack_file *f)
{
	int fd;

	build_id_check(f->path);
	fd = fd_open_regular(f->path);
	if (fd < 0) {
		f->unreadable = true;
		return;
	}
	if (nopen == FILES_OPEN)
		file_close(open_last);
	f->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!f->dwfl)
		error_msg_and_die("out of memory");
	dwfl_report_begin(f->dwfl);
	/* libdw keeps the descriptor, and closes it. */
	f->mod = dwfl_report_elf(f->dwfl, f->path, f->path, fd, 0, true);
	if (!f->mod)
		close(fd);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
		f->unreadable = true;
		return;
	}
	open_push(f);
	nopen++;
}

Dwfl_Module *files_module(struct stack_file *f)
{
	if (f->unreadable)
		return NULL;
	if (!f->dwfl) {
		file_open(f);
	} else if (open_first != f) {
		open_unlink(f);
		open_push(f);
	}
	return f->mod;
}

/* Free a struct stack_file. */
static void file_free(void *p)
{
	struct stack_file *f = p;

	if (f->dwfl)
		file_close(f);
	rules_free(f->rules);
	free(f->path);
	free(f);
}

void files_done(void)
{
	strmap_clear(&files, file_free);
}
