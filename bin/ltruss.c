/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ltruss.c: main: parse options, start the traced command, report on exit. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "conf.h"
#include "console.h"
#include "callsites.h"
#include "error.h"
#include "format-stack.h"
#include "objmap.h"
#include "launch.h"
#include "list.h"
#include "format.h"
#include "format-args.h"
#include "interposer.h"
#include "options.h"
#include "output.h"
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

/*
 * Drain the rings, once the console's rules reached new functions.  Each
 * pass is counted: a process in another pid namespace, where ltruss's pid
 * means nothing, tells by it that ltruss lives (lib/events.c).
 */
static size_t pump(void)
{
	__atomic_fetch_add(&session.s->reader_beat, 1, __ATOMIC_RELEASE);
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
	bool events, stopped, untraced, nothing_traced;
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
	interposer_check();
	out = output_open(opts.output);
	callsites_init(opts.count && opts.stack &&
		       opts.summary_format == SUMMARY_TEXT);
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
	fmt.stack = opts.stack;
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
	o = launch_wait(pid, opts.follow, events ? pump : NULL,
			events ? idle : NULL, processes_reaped);
	/* Stopped by a second signal, ltruss left the program running. */
	stopped = launch_stopped();
	if (!stopped)
		processes_finish();
	untraced = !stopped && !processes_registered(pid);
	nothing_traced = untraced && !processes_any();
	console_spawn_end();
	if (!opts.trace)
		report_killed(out, &o);
	if (opts.count)
		summary_print(out, session.s, opts.sort, opts.summary_format,
			      clock_ticks_per_ns());
	callsites_print(out, clock_ticks_per_ns());
	if (profile_enabled())
		profile_finish(out, clock_ticks_per_ns());
	trace_done();
	callsites_done();
	stack_done_names();
	symbolize_done();
	objmap_done();
	check_done();
	output_close(out, opts.output);
	if (session.s->stubs_exhausted)
		warning_msg("%u functions were left untraced: more than %u distinct functions were selected",
			    session.s->stubs_exhausted, LTR_MAX_FUNCS);
	if (session.s->lost_returns)
		warning_msg("%u traced calls returned through frames ltruss had dropped (a coroutine library that copies stacks?): they are shown as <unwound>",
			    session.s->lost_returns);
	dropped = reader_dropped(session.s);
	if (dropped)
		warning_msg("%llu events were dropped (--drop): ltruss could not keep up",
			    dropped);
	/* After the "+++" line: the program's own status is shown there. */
	if (untraced)
		interposer_untraced(pid, path, nothing_traced);
	free(path);
	/* Loaded for the whole run; freed so that LeakSanitizer sees none. */
	config_free(&opts.cfg);
	return nothing_traced ? EXIT_LTRUSS_ERROR : o.exit_status;
}
