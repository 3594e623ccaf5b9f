/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ltruss.c: main: parse options, start the traced command, report on exit. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <string.h>
#include <unistd.h>

#include "call-blobs.h"
#include "catalog.h"
#include "clock.h"
#include "debuginfo.h"
#include "conf.h"
#include "console.h"
#include "callsites.h"
#include "error.h"
#include "format-stack.h"
#include "objmap.h"
#include "launch.h"
#include "stack-hints.h"
#include "list.h"
#include "format.h"
#include "format-args.h"
#include "heap.h"
#include "interposer.h"
#include "options.h"
#include "output.h"
#include "patch-hints.h"
#include "patch-plan.h"
#include "processes.h"
#include "refusal.h"
#include "profile.h"
#include "pyreuse.h"
#include "reader.h"
#include "registry.h"
#include "session-check.h"
#include "session.h"
#include "shipped.h"
#include "summary.h"
#include "symbolize.h"
#include "target.h"
#include "toggles.h"
#include "trace.h"
#include "trace-rounds.h"
#include "tracefile-read.h"
#include "tracefile-write.h"
#include "narrow.h"
#include "playback.h"

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
 * The reader's sink when tracing live: an event as its ring holds it,
 * every event of the ring passed in order, its Python frames made whole
 * (pyreuse.c) before trace.c reads them.  A rebuilt event is pyreuse.c's
 * copy, not the reader's: trace.c copies its blobs to keep them rather
 * than take the reader's buffer (event_rec's take).  Python's frames
 * come with -k's stacks only; without them, no event is looked into
 * (a forged frames blob is then ignored, as every view leaves it).
 */
static bool python_frames; /* -k: events may carry Python's frames */

static void ring_event(const struct event_rec *r)
{
	struct event_rec whole;

	if (!python_frames) {
		trace_event(r);
		return;
	}
	whole = *r;
	/* Its blobs looked through once, here: most have no Python frames. */
	whole.blob_types = event_blob_types(r->ev) | EVENT_BLOB_TYPES_KNOWN;
	if (whole.blob_types & 1u << LTR_BLOB_PYFRAMES) {
		whole.ev = pyreuse_whole(r->slot, r->ev);
		if (whole.ev != r->ev)
			whole.take = NULL;
	}
	trace_event(&whole);
}

/* Does -c -k want the call sites of the busiest functions? */
static bool callsites_wanted(const struct options *opts)
{
	return opts->count && opts->stack &&
	       opts->summary_format == SUMMARY_TEXT;
}

/* The options that shape every line, for the calls of session s (NULL: a file's). */
static void format_setup(FILE *out, struct ltr_session *s,
			 const struct options *opts)
{
	fmt.out = out;
	if (s)
		catalog_live(s);
	fmt.timestamps = opts->timestamps;
	fmt.relative = opts->relative;
	fmt.durations = opts->durations;
	fmt.demangle = !opts->no_demangle;
	fmt.caller = opts->caller;
	fmt.stack = opts->stack;
	/* --heap's --folded is of bytes, not of times; -w only records. */
	heap_init(opts->heap && !opts->write, opts->folded);
	profile_init(opts->tree, opts->heap ? NULL : opts->folded,
		     opts->chrome);
	callsites_init(callsites_wanted(opts));
}

/* The lines' format: none with -c, else text or JSON. */
static const struct format *format_chosen(const struct options *opts)
{
	if (opts->playback)
		return &format_playback;
	return !opts->trace ? NULL : opts->json ? &format_json : &format_text;
}

/*
 * Print how the command (pid, 0 if unknown) ended when no trace lines are
 * written (-c): with its [pid N] when several processes were traced.
 */
static void report_killed(FILE *out, pid_t pid, int sig, bool core)
{
	const char *name;

	if (!sig)
		return;
	name = sigabbrev_np(sig);
	if (pid && fmt_seen.processes)
		fprintf(out, "[pid %d] ", (int)pid);
	fprintf(out, "+++ killed by SIG%s%s +++\n", name ? name : "?",
		core ? " (core dumped)" : "");
}

/* The summary and the profiles at the end, when asked for. */
static void reports_print(FILE *out, const struct options *opts,
			  struct ltr_session *s)
{
	if (opts->count)
		summary_print(out, s, opts->sort, opts->summary_format,
			      clock_ticks_per_ns());
	callsites_print(out, clock_ticks_per_ns());
	if (profile_enabled())
		profile_finish(out, clock_ticks_per_ns());
	heap_print(out, opts->summary_format == SUMMARY_JSON);
	trace_done();
	heap_done();
	callsites_done();
	stack_done_names();
	symbolize_done();
	objmap_done();
	catalog_names_free();
}

/*
 * After -c's text table: the calls a one-colon rule missed inside an
 * object (a count is what they mislead), from the objects' records, read
 * again (reports_print let them go) now that no process writes any.
 */
static void hints_print(const struct options *opts)
{
	if (!opts->count || opts->trace || opts->summary_format != SUMMARY_TEXT)
		return;
	objmap_final();
	patch_hints(&opts->cfg.sel);
	objmap_done();
}

/*
 * Say when object records were dropped (--drop: a process that found
 * their ring full went on without waiting): the frames and call sites in
 * those objects go unnamed, which matters only to the views that name them.
 */
static void objects_unrecorded_report(const struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->objects_lost, __ATOMIC_RELAXED);

	if (n && s->objects_kept)
		warning_msg("%u loaded objects went unrecorded (--drop): addresses in them are not named (-k, --caller)",
			    n);
}

/*
 * Say that processes traced without the shipped prototypes' captures,
 * which they map from the compiled table ltruss holds open (lib/shipped.c).
 */
static void shipped_unmapped_report(const struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->shipped_unmapped, __ATOMIC_RELAXED);

	if (n)
		warning_msg("%u traced processes could not map ltruss's compiled prototypes: their calls are shown without the shipped prototypes",
			    n);
}

/* Say what the run could not show: its dropped events, lost returns. */
static void losses_report(unsigned long long dropped, uint32_t lost_returns)
{
	if (lost_returns)
		warning_msg("%u traced calls returned through frames ltruss had dropped (a coroutine library that copies stacks?): they are shown as <unwound>",
			    lost_returns);
	if (dropped)
		warning_msg("%llu events were dropped (--drop): ltruss could not keep up",
			    dropped);
}

/* --read FILE: print a recorded trace as the options ask. */
static int read_main(struct options *opts)
{
	unsigned long long dropped;
	uint32_t lost;
	size_t cut_at;
	bool core;
	FILE *out;

	debuginfo_setup(opts->debuginfod);
	tracefile_load(opts->read, opts->cfg.strsize_set ? opts->cfg.strsize : 0);
	/* No program's output to mix with: the trace is the output (uftrace replay). */
	out = output_open(opts->output, stdout);
	format_setup(out, NULL, opts);
	if (opts->playback)
		playback_init(opts->playback, opts->read);
	trace_init(format_chosen(opts), NULL, false);
	narrow_init(&opts->cfg.sel, opts->cfg.depth, opts->pids, opts->npids);
	/* Lines of some of several processes say whose they are from the start. */
	if (opts->npids && tracefile_processes())
		format_seen_process();
	if (opts->count && !tracefile_counts_recorded())
		trace_count_calls();
	tracefile_replay();
	if (opts->playback)
		playback_finish();
	if (opts->count && !tracefile_counts_recorded())
		tracefile_counts_from_trace();
	if (!opts->trace)
		report_killed(out, 0, tracefile_command_signal(&core), core);
	reports_print(out, opts, NULL);
	narrow_done();
	output_close(out, opts->output);
	tracefile_ends(&dropped, &lost);
	losses_report(dropped, lost);
	if (tracefile_was_cut(&cut_at))
		warning_msg("the trace file '%s' was cut at byte %zu (the recording ltruss was killed, or the disk was full): what it holds is shown",
			    opts->read, cut_at);
	tracefile_unload();
	free(opts->pids);
	config_free(&opts->cfg);
	return 0;
}

/*
 * The session's object records are a ring (lib/objects.c): when a view
 * names addresses, ltruss copies each record (objmap.c for the stacks and
 * call sites, the trace file for -w) and says how far it got, so that a
 * process may take the slots before.  Otherwise nobody waits for it.
 */
static void objects_pass(void)
{
	struct ltr_session *s = session.s;
	uint32_t copied, file;

	if (!s->objects_kept)
		return;
	objmap_sync();
	copied = objmap_copied();
	if (tracefile_recording()) {
		file = tracefile_objects_copied();
		copied = file < copied ? file : copied;
	}
	__atomic_store_n(&s->objects_copied, copied, __ATOMIC_RELEASE);
}

/*
 * Drain the rings, once the console's rules reached new functions.  Each
 * pass is counted: a process in another pid namespace, where ltruss's pid
 * means nothing, tells by it that ltruss lives (lib/events.c).
 */
static size_t pump(void)
{
	static unsigned pumps;

	__atomic_fetch_add(&session.s->reader_beat, 1, __ATOMIC_RELEASE);
	/* Also while other threads keep ltruss busy (idle() does it too). */
	if (++pumps % 64 == 0)
		session_threads_find(session.s, session.fd, session.ring_size);
	toggles_apply(session.s);
	patch_serve(session.s);
	tracefile_tick();
	objects_pass();
	return processes_pump();
}

/* Nothing to drain: show blocking calls, report zombies, let lines out. */
static void idle(void)
{
	trace_idle();
	processes_idle();
	patch_serve(session.s);
	session_threads_find(session.s, session.fd, session.ring_size);
	tracefile_tick();
	objects_pass();
	output_flush();
	clock_refine();
}

/* Start the command at path (opts: its argv, -f) in the session; its pid. */
static pid_t start(const char *path, const struct options *opts)
{
	/*
	 * With -f, orphaned descendants become ours to wait for: not -i's
	 * console, started before, which is nobody's child.
	 */
	if (opts->follow && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		perror_msg_and_die("cannot become a subreaper for -f");
	clock_start();
	return launch_start(path, opts->argv, session.fd,
			    shipped_fd(opts->cfg.shipped));
}

int main(int argc, char **argv)
{
	/* Not on the stack: its untouched pages (most of 60 KiB) are never faulted in. */
	static struct options opts;
	unsigned long long dropped;
	bool events, live, stopped, untraced, nothing_traced, refused, early;
	struct outcome o;
	char *path;
	FILE *out;
	pid_t pid;
	int status;

	options_parse(&opts, argc, argv);
	if (opts.read)
		return read_main(&opts);
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
	events = opts.trace || opts.tree || opts.folded || opts.chrome ||
		 opts.heap || callsites_wanted(&opts);
	session_create(&session, opts.ring_size);
	/*
	 * The command starts now, before the config is loaded, -o FILE
	 * opened and the session filled: its exec and loading run on the
	 * other core while ltruss does that, and it waits in the interposer
	 * until session_ready() (lib/attach.c).  -i's console finds the
	 * session complete in the registry before the command starts: not
	 * early.
	 */
	early = !opts.interactive;
	if (early)
		pid = start(path, &opts);
	options_config(&opts);
	session_fill(&session, &opts, events);
	/* The views that name addresses copy the object records as they come. */
	session.s->objects_kept = events && (opts.stack || opts.caller ||
					     opts.heap || opts.chrome ||
					     opts.write);
	patch_plan(session.s, opts.argv[0], &opts.cfg.sel, NULL);
	if (opts.write)
		tracefile_open(opts.write, session.s, &opts.cfg, opts.follow);
	python_frames = opts.stack;
	/* -w drains the rings apart, not through the sink (tracefile_open()). */
	reader_init(session.ring_size, ring_event);
	/* Without Python's frames, ring_event() is trace_event(). */
	if (!opts.write && !python_frames)
		reader_plain(trace_plain);
	out = output_open(opts.output, stderr);
	format_setup(out, session.s, &opts);
	trace_init(format_chosen(&opts), session.s, opts.write != NULL);
	/*
	 * Lines of busy threads formatted on several threads, where a line
	 * depends on its own thread's calls alone (trace-rounds.c).
	 */
	if (!opts.write && !python_frames && !opts.caller && !opts.relative &&
	    !opts.interactive)
		trace_rounds_start(session.s);
	/* -k, live: the interposer copies no more than the walks will read. */
	if (opts.stack && events && !opts.write)
		stack_hints_start(session.s, opts.stack + STACK_START_FRAMES);

	processes_init(session.s, events);
	session_ready(&session);
	if (early) {
		launch_release();
		/*
		 * For a console later: the entry's file (ten system calls, a
		 * directory entry made and renamed) is written while the
		 * command loads, on the other core, once it runs.
		 */
		registry_add(session.fd);
	} else {
		/* -i: the console it starts finds the session in the registry. */
		registry_add(session.fd);
		console_spawn();
		pid = start(path, &opts);
		launch_release();
	}
	/* The program's environment is built: DEBUGINFOD_URLS is ltruss's. */
	debuginfo_setup(opts.debuginfod);
	check_init(pid, opts.follow);
	/*
	 * -c -f passes over the processes too, events or not: an ended
	 * process's slots are handed back for the next ones to take
	 * (bin/events/slots.c), so that ltruss's memory follows the processes that
	 * run at once, not all it ever traced.
	 */
	live = events || opts.follow || patch_serving();
	o = launch_wait(pid, opts.follow, reader_pace_ns(), live ? pump : NULL,
			live ? idle : NULL, processes_reaped);
	/* The slots a forged count hid, for the last drain and the counts. */
	session_threads_find(session.s, session.fd, session.ring_size);
	/* Stopped by a second signal, ltruss left the program running. */
	stopped = launch_stopped();
	if (!stopped)
		processes_finish();
	untraced = !stopped && !processes_registered(pid);
	nothing_traced = untraced && !processes_any();
	console_spawn_end();
	dropped = reader_dropped(session.s);
	if (getenv("LTRUSS_DEBUG_RINGS"))
		reader_debug_rings(session.s);
	trace_rounds_stop();
	tracefile_close(dropped, session.s->lost_returns, o.signal,
			o.core_dumped);
	if (!opts.trace)
		report_killed(out, pid, o.signal, o.core_dumped);
	objmap_final();
	reports_print(out, &opts, session.s);
	output_close(out, opts.output);
	patch_failures(session.s);
	hints_print(&opts);
	if (session.s->stubs_exhausted)
		warning_msg("%u functions were left untraced: more than %u distinct functions were selected",
			    session.s->stubs_exhausted, LTR_MAX_FUNCS);
	objects_unrecorded_report(session.s);
	shipped_unmapped_report(session.s);
	losses_report(dropped, session.s->lost_returns);
	/* After the "+++" line: the program's own status is shown there. */
	if (untraced)
		interposer_untraced(pid, path, nothing_traced,
				    __atomic_load_n(&session.s->attach_enomem,
						    __ATOMIC_RELAXED) != 0);
	/* Stopped by the loader before it started, for want of static TLS. */
	refused = !stopped && !o.signal && o.exit_status == 127 &&
		  processes_never_started(pid) == 1 && refusal_explain(path);
	free(path);
	/* Loaded for the whole run; freed so that LeakSanitizer sees none. */
	config_free(&opts.cfg);
	free(opts.pids);
	return nothing_traced || refused ? EXIT_LTRUSS_ERROR : o.exit_status;
}
