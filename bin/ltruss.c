/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ltruss.c: main: parse options, start the traced command, report on exit. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "conf.h"
#include "console.h"
#include "error.h"
#include "launch.h"
#include "list.h"
#include "format.h"
#include "format-args.h"
#include "options.h"
#include "processes.h"
#include "profile.h"
#include "reader.h"
#include "registry.h"
#include "session.h"
#include "summary.h"
#include "symbolize.h"
#include "target.h"
#include "toggles.h"
#include "trace.h"

/* Open where trace lines go: -o FILE, or stderr. */
static FILE *open_output(const char *file)
{
	FILE *out = stderr;
	int fd;

	if (file) {
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			perror_msg_and_die("cannot write the trace to '%s' (-o)",
					   file);
		out = fdopen(fd, "w");
		if (!out)
			perror_msg_and_die("cannot write the trace to '%s' (-o)",
					   file);
	}
	/* Whole lines, written in big blocks, flushed when the program pauses. */
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	return out;
}

/*
 * Flush and close the trace (file is -o's, or NULL for stderr).  When some
 * of it could not be written (a full disk), say so; the program ran
 * unharmed, so its exit status still stands.
 */
static void output_close(FILE *out, const char *file)
{
	bool lost = ferror(out);
	char where[PATH_MAX + 16] = "stderr";

	if (file)
		snprintf(where, sizeof(where), "'%s' (-o)", file);
	if (fflush(out) != 0 || (out != stderr && fclose(out) != 0))
		perror_msg("cannot write the trace to %s", where);
	else if (lost)
		error_msg("cannot write all of the trace to %s: a write failed", where);
}

static struct session_handle session;

/* Does function name have a prototype in config ctx (also as its LFS alias "open64")? */
static bool has_prototype(const char *name, void *ctx)
{
	const struct config *cfg = ctx;
	size_t n = strlen(name);
	char base[256];

	if (config_find_proto(cfg, name))
		return true;
	if (n < 3 || n >= sizeof(base) || strcmp(name + n - 2, "64") != 0)
		return false;
	memcpy(base, name, n - 2);
	base[n - 2] = '\0';
	return config_find_proto(cfg, base) != NULL;
}

/* Drain the rings, once the console's rules reached new functions. */
static size_t pump(void)
{
	toggles_apply(session.s);
	return processes_pump();
}

/* Nothing to drain: show blocking calls, report zombies, let lines out. */
static void idle(void)
{
	trace_idle();
	processes_idle();
	fflush(fmt.out);
	clock_refine();
}

/* Print how the command ended when no trace lines are written (-c). */
static void report_killed(FILE *out, const struct outcome *o)
{
	const char *name;

	if (!o->signal)
		return;
	name = sigabbrev_np(o->signal);
	fprintf(out, "+++ killed by SIG%s%s +++\n", name ? name : "?",
		o->core_dumped ? " (core dumped)" : "");
}

int main(int argc, char **argv)
{
	struct options opts;
	unsigned long long dropped;
	bool events;
	struct outcome o;
	char *path;
	FILE *out;
	pid_t pid;
	int status;

	options_parse(&opts, argc, argv);
	if (opts.list || opts.console) {
		status = opts.list ? list_functions(stdout, opts.argv[0],
						    &opts.cfg.sel, opts.json,
						    has_prototype, &opts.cfg) :
				     console_main(opts.console_pid);
		config_free(&opts.cfg);
		return status;
	}
	path = target_resolve(opts.argv[0]);
	out = open_output(opts.output);
	profile_init(opts.tree, opts.folded, opts.chrome);
	events = opts.trace || profile_enabled();
	session_create(&session, &opts, events);
	reader_init(session.rings, session.ring_size);
	registry_add(session.fd);
	if (opts.interactive)
		console_spawn();
	fmt.out = out;
	fmt.session = session.s;
	fmt.timestamps = opts.timestamps;
	fmt.relative = opts.relative;
	fmt.durations = opts.durations;
	fmt.demangle = !opts.no_demangle;
	fmt.caller = opts.caller;
	args_init(&opts.cfg);
	trace_init(!opts.trace ? NULL : opts.json ? &format_json : &format_text,
		   session.s);

	processes_init(session.s, events);
	/* With -f, orphaned descendants become ours to wait for. */
	if (opts.follow && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		perror_msg_and_die("cannot become a subreaper for -f");

	clock_start();
	pid = launch_start(path, opts.argv, session.fd);
	check_init(pid, opts.follow);
	free(path);
	o = launch_wait(pid, opts.follow, events ? pump : NULL,
			events ? idle : NULL, processes_reaped);
	if (!launch_stopped())
		processes_finish();
	console_spawn_end();
	if (!opts.trace)
		report_killed(out, &o);
	if (opts.count)
		summary_print(out, session.s, opts.sort, opts.summary_format,
			      clock_ticks_per_ns());
	if (profile_enabled())
		profile_finish(out, clock_ticks_per_ns());
	trace_done();
	symbolize_done();
	check_done();
	output_close(out, opts.output);
	if (session.s->stubs_exhausted)
		warning_msg("%u functions were left untraced: more than %u distinct functions were selected",
			    session.s->stubs_exhausted, LTR_MAX_FUNCS);
	dropped = reader_dropped(session.s);
	if (dropped)
		warning_msg("%llu events were dropped (--drop): ltruss could not keep up",
			    dropped);
	/* Loaded for the whole run; freed so that LeakSanitizer sees none. */
	config_free(&opts.cfg);
	return o.exit_status;
}
