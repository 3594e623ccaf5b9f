/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * console-commands.c: the console's commands, one table.
 *
 * Each command is a row of console_commands[]: its name, the usage of its
 * arguments, one line of help, how many arguments it takes and what Tab
 * completes in them; "help" and the completion read the same table.  A
 * command may be shortened to any unique prefix ("st" for stats).
 *
 * Commands act on the shared session while the program runs:
 *  - stats and list read the counters the traced threads keep (summed as
 *    the summary on exit does, summary.c), minus those of the last reset;
 *    reset only takes that baseline: the summary printed on exit (-c)
 *    still covers the whole run;
 *  - pause/resume flip LTR_CTL_PAUSED, depth writes depth_limit, and
 *    enable/disable add a rule to the session's list, which ltruss applies
 *    to every function, also to those bound later and after the console
 *    has gone (toggles.c); the interposer reads the flags on every call.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "console.h"
#include "error.h"
#include "format.h"
#include "session.h"
#include "summary.h"
#include "toggles.h"
#include "xmalloc.h"

#define MAX_ARGS 8

void console_error(struct console *c, const char *hint, const char *format,
		   ...)
{
	char buf[1024], where[32] = "";
	va_list ap;

	va_start(ap, format);
	vsnprintf(buf, sizeof(buf), format, ap);
	va_end(ap);
	fflush(stdout);
	if (c->line)
		snprintf(where, sizeof(where), " (stdin:%u)", c->line);
	error_msg("%s%s; %s", buf, where, hint);
	c->failed = true;
}

/* A function name, for sorting and counting distinct ones. */
struct name {
	const char *lib, *func;
	bool disabled;
};

/* Order names by library, then function. */
static int name_compare(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int d = strcmp(x->lib, y->lib);

	return d ? d : strcmp(x->func, y->func);
}

/*
 * The functions registered so far that match glob (NULL: all), sorted by
 * name, one entry per process that bound them; *n gets their number.
 */
static struct name *names_collect(const struct ltr_session *s,
				  const char *glob, size_t *n)
{
	uint32_t used = session_funcs_used(s), fn;
	struct name *v = xcalloc(used, sizeof(*v));

	*n = 0;
	for (fn = 0; fn < used; fn++) {
		const char *lib = format_lib(fn), *func = format_func_raw(fn);

		if (!session_func_ready(s, fn) || (glob && !toggles_match(glob, lib, func)))
			continue;
		v[*n].lib = lib;
		v[*n].func = func;
		v[*n].disabled = __atomic_load_n(&s->funcs[fn].flags,
						 __ATOMIC_RELAXED) & LTR_FN_DISABLED;
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), name_compare);
	return v;
}

/* Number of distinct names among v[0..n) (sorted). */
static size_t names_distinct(const struct name *v, size_t n)
{
	size_t i, d = 0;

	for (i = 0; i < n; i++)
		d += !i || name_compare(&v[i - 1], &v[i]) != 0;
	return d;
}

/* A note for the commands that shape trace lines, when there are none. */
static void note_no_trace(const struct console *c)
{
	if (!(c->s->flags & LTR_F_TRACE))
		printf("(this session writes no trace lines: it counts only, -c)\n");
}

/* Parse a count argument; false (with a message) if it is not one. */
static bool parse_number(struct console *c, const char *cmd, const char *arg,
			 unsigned long *v)
{
	char *end;

	*v = strtoul(arg, &end, 10);
	if (end == arg || *end || *arg == '-' || *v > 1000000000ul) {
		console_error(c, "see 'help'", "%s needs a number, not '%s'",
			      cmd, arg);
		return false;
	}
	return true;
}

static const char *stats_glob; /* the GLOB of stats, for stats_keep() */

/* Is lib:func in the table stats prints? */
static bool stats_keep(const char *lib, const char *func)
{
	return toggles_match(stats_glob, lib, func);
}

/* stats [N] [sort KEY] [GLOB]: the summary table since the last reset. */
static void cmd_stats(struct console *c, int argc, char **argv)
{
	enum sort_key key = SORT_TIME;
	unsigned long limit = 0;
	int i;

	stats_glob = NULL;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "sort") == 0) {
			const char *name = i + 1 < argc ? argv[++i] : "";

			if (!sort_key_parse(name, &key)) {
				console_error(c, "use time, self, calls, avg, max, errors or name",
					      "stats: sort needs a key, not '%s'",
					      name);
				return;
			}
		} else if (argv[i][0] >= '0' && argv[i][0] <= '9') {
			if (!parse_number(c, "stats", argv[i], &limit))
				return;
		} else if (!stats_glob) {
			stats_glob = argv[i];
		} else {
			console_error(c, "quote a pattern that has spaces",
				      "stats: one GLOB at most ('%s', '%s')",
				      stats_glob, argv[i]);
			return;
		}
	}
	summary_print_since(stdout, c->s, c->base,
			    stats_glob ? stats_keep : NULL, key, limit,
			    clock_ticks_per_ns());
}

/* reset: a new baseline for stats and list. */
static void cmd_reset(struct console *c, int argc, char **argv)
{
	summary_snapshot_free(c->base);
	c->base = summary_snapshot(c->s);
	printf("counting from zero (in this console; the summary on exit covers the whole run)\n");
}

/* pause, resume: flip LTR_CTL_PAUSED. */
static void cmd_pause(struct console *c, int argc, char **argv)
{
	bool pause = argv[0][0] == 'p';

	if (pause)
		__atomic_fetch_or(&c->s->control, LTR_CTL_PAUSED,
				  __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&c->s->control, ~LTR_CTL_PAUSED,
				   __ATOMIC_RELAXED);
	printf(pause ? "paused: no trace lines; counting goes on\n"
		     : "resumed: trace lines again\n");
	note_no_trace(c);
}

/* depth [N]: set or show the depth limit. */
static void cmd_depth(struct console *c, int argc, char **argv)
{
	unsigned long depth;

	if (argc == 2) {
		if (!parse_number(c, "depth", argv[1], &depth))
			return;
		__atomic_store_n(&c->s->depth_limit, (uint32_t)depth,
				 __ATOMIC_RELAXED);
	}
	depth = __atomic_load_n(&c->s->depth_limit, __ATOMIC_RELAXED);
	if (depth)
		printf("depth %lu: calls nested deeper are not shown\n", depth);
	else
		printf("depth 0: calls are shown however deep\n");
	if (argc == 2)
		note_no_trace(c);
}

/*
 * enable, disable GLOB: add the rule to the session and wait until ltruss
 * has applied it, so that what follows (list, the trace) shows it.
 */
static void cmd_enable(struct console *c, int argc, char **argv)
{
	bool disable = argv[0][0] == 'd';
	const char *why;
	struct name *v;
	uint32_t gen;
	size_t n;

	if (!toggles_add(c->s, argv[1], disable, &gen, &why)) {
		console_error(c, "see 'help'", "%s: %s", argv[0], why);
		return;
	}
	if (!(c->s->flags & LTR_F_TRACE))
		toggles_apply(c->s); /* nobody else does: -c */
	else if (!toggles_wait(c->s, gen))
		printf("(ltruss has not applied it yet: is it stopped?)\n");
	v = names_collect(c->s, argv[1], &n);
	n = names_distinct(v, n);
	free(v);
	if (n)
		printf("%s %zu function%s\n", disable ? "disabled" : "enabled",
		       n, n == 1 ? "" : "s");
	else
		printf("no traced function matches '%s' yet\n", argv[1]);
	note_no_trace(c);
}

/* list [GLOB]: functions, calls since the reset, enabled or not. */
static void cmd_list(struct console *c, int argc, char **argv)
{
	struct summary_snapshot *now = summary_snapshot(c->s);
	struct name *v;
	size_t n, i, j;

	v = names_collect(c->s, argc > 1 ? argv[1] : NULL, &n);
	printf("     calls state    function\n");
	for (i = 0; i < n; i = j) {
		size_t disabled = 0;
		uint64_t calls;

		for (j = i; j < n && name_compare(&v[i], &v[j]) == 0; j++)
			disabled += v[j].disabled;
		calls = summary_snapshot_calls(now, v[i].lib, v[i].func);
		calls -= summary_snapshot_calls(c->base, v[i].lib, v[i].func);
		printf("%10llu %-8s %s:%s\n", (unsigned long long)calls,
		       !disabled ? "enabled" : disabled == j - i ? "disabled"
								 : "partly",
		       v[i].lib, format_func_display(v[i].func));
	}
	free(v);
	summary_snapshot_free(now);
}

/* sessions: every registered session. */
static void cmd_sessions(struct console *c, int argc, char **argv)
{
	console_sessions(c, stdout);
}

/* help [COMMAND]: the table, a line a command. */
static void cmd_help(struct console *c, int argc, char **argv)
{
	const struct console_command *cmd, *only = NULL;
	char usage[64];

	if (argc > 1 && !(only = console_command_find(argv[1]))) {
		console_error(c, "'help' lists them", "help: no command '%s'",
			      argv[1]);
		return;
	}
	for (cmd = console_commands; cmd->name; cmd++) {
		if (only && cmd != only)
			continue;
		snprintf(usage, sizeof(usage), "%s %s", cmd->name, cmd->args);
		printf("  %-30s %s\n", usage, cmd->help);
	}
}

/* quit: detach. */
static void cmd_quit(struct console *c, int argc, char **argv)
{
	c->quit = true;
}

const struct console_command console_commands[] = {
	{ "stats", "[N] [sort KEY] [GLOB]",
	  "counts and times since the last reset, as -c; the top N",
	  0, 4, COMPLETE_STATS, cmd_stats },
	{ "reset", "", "count from zero again (not the summary on exit)",
	  0, 0, COMPLETE_NONE, cmd_reset },
	{ "pause", "", "no trace lines (counting goes on)",
	  0, 0, COMPLETE_NONE, cmd_pause },
	{ "resume", "", "trace lines again",
	  0, 0, COMPLETE_NONE, cmd_pause },
	{ "depth", "[N]", "show calls nested at most N deep (0: no limit)",
	  0, 1, COMPLETE_NONE, cmd_depth },
	{ "enable", "GLOB", "trace the functions matching GLOB again",
	  1, 1, COMPLETE_FUNCS, cmd_enable },
	{ "disable", "GLOB", "no trace lines of the functions matching GLOB",
	  1, 1, COMPLETE_FUNCS, cmd_enable },
	{ "list", "[GLOB]", "traced functions: calls since the reset, state",
	  0, 1, COMPLETE_FUNCS, cmd_list },
	{ "sessions", "", "the running ltruss sessions of yours",
	  0, 0, COMPLETE_NONE, cmd_sessions },
	{ "help", "[COMMAND]", "this list",
	  0, 1, COMPLETE_COMMANDS, cmd_help },
	{ "quit", "", "detach: the program goes on (also Ctrl-D)",
	  0, 0, COMPLETE_NONE, cmd_quit },
	{ NULL, NULL, NULL, 0, 0, COMPLETE_NONE, NULL },
};

/* How many commands start with prefix. */
static int console_command_prefixes(const char *prefix)
{
	const struct console_command *cmd;
	int n = 0;

	for (cmd = console_commands; cmd->name; cmd++)
		n += strncmp(cmd->name, prefix, strlen(prefix)) == 0;
	return n;
}

const struct console_command *console_command_find(const char *name)
{
	const struct console_command *cmd, *found = NULL;
	size_t len = strlen(name);

	for (cmd = console_commands; cmd->name; cmd++) {
		if (strcmp(cmd->name, name) == 0)
			return cmd;
		if (strncmp(cmd->name, name, len) == 0) {
			if (found)
				return NULL;
			found = cmd;
		}
	}
	return found;
}

/* Split line into words (quotes group, as in a shell); -1 if too many. */
static int split(char *line, char **argv)
{
	int argc = 0;
	char *p = line, *w;

	for (;;) {
		char quote = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			return argc;
		if (argc == MAX_ARGS)
			return -1;
		argv[argc++] = w = p;
		for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
			if (!quote && (*p == '\'' || *p == '"'))
				quote = *p;
			else if (quote && *p == quote)
				quote = 0;
			else
				*w++ = *p;
		}
		if (*p)
			p++;
		*w = '\0';
	}
}

void console_execute(struct console *c, char *line)
{
	const struct console_command *cmd;
	char *argv[MAX_ARGS + 1];
	int argc = split(line, argv);

	if (argc == 0)
		return;
	if (argc < 0) {
		console_error(c, "see 'help'",
			      "too many words: a command takes at most %d",
			      MAX_ARGS - 1);
		return;
	}
	argv[argc] = NULL;
	cmd = console_command_find(argv[0]);
	if (!cmd) {
		console_error(c, "'help' lists the commands", "%s command '%s'",
			      console_command_prefixes(argv[0]) ? "ambiguous"
								: "unknown",
			      argv[0]);
		return;
	}
	if (argc - 1 < cmd->min_args || argc - 1 > cmd->max_args) {
		console_error(c, "see 'help'", "usage: %s %s", cmd->name,
			      cmd->args);
		return;
	}
	argv[0] = (char *)cmd->name;
	if (!(c->s->flags & LTR_F_TRACE))
		toggles_apply(c->s); /* functions bound since, for list (-c) */
	cmd->run(c, argc, argv);
	fflush(stdout);
}
