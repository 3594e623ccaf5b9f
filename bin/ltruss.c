/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ltruss.c: main: parse options, start the traced command, report on exit. */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "error.h"
#include "fd-util.h"
#include "launch.h"
#include "options.h"
#include "session.h"
#include "summary.h"
#include "target.h"

/* Open where trace lines go: -o FILE or a copy of stderr. */
static int open_output(const char *file)
{
	int fd;

	if (file) {
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			perror_msg_and_die("cannot write the trace to '%s' (-o)",
					   file);
	} else {
		fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			perror_msg_and_die("cannot duplicate stderr");
	}
	return fd_move_high(fd);
}

/* Print how the command ended, as strace does. */
static void report_outcome(FILE *out, const struct options *opts,
			   const struct outcome *o)
{
	if (o->signal) {
		const char *name = sigabbrev_np(o->signal);

		fprintf(out, "+++ killed by SIG%s%s +++\n", name ? name : "?",
			o->core_dumped ? " (core dumped)" : "");
	} else if (opts->trace) {
		fprintf(out, "+++ exited (status %d) +++\n", o->exit_status);
	}
}

int main(int argc, char **argv)
{
	struct session_handle session;
	struct options opts;
	struct outcome o;
	char *path;
	FILE *out;
	int out_fd;

	options_parse(&opts, argc, argv);
	path = target_resolve(opts.argv[0]);
	out_fd = open_output(opts.output);
	session_create(&session, &opts, out_fd);
	clock_start();
	o = launch_and_wait(path, opts.argv, session.fd, out_fd);
	free(path);

	out = fdopen(out_fd, "w");
	if (!out)
		perror_msg_and_die("cannot write the trace");
	report_outcome(out, &opts, &o);
	if (opts.count)
		summary_print(out, session.s, opts.sort, clock_ticks_per_ns());
	fflush(out);
	if (session.s->stubs_exhausted)
		warning_msg("%u functions were left untraced: more than %u distinct functions were selected",
			    session.s->stubs_exhausted, LTR_MAX_FUNCS);
	if (fclose(out) != 0)
		perror_msg("cannot write the trace");
	return o.exit_status;
}
