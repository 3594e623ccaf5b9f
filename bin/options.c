/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c: the ltruss command line, parsed into struct options. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "format-stack.h"
#include "heap-kinds.h"
#include "options.h"
#include "paths.h"
#include "tracefile.h"
#include "xmalloc.h"
#include "lib/session.h"

static const char usage_text[] =
	"Usage: ltruss [OPTIONS] [--] COMMAND [ARG...]\n"
	"       ltruss --list [SELECTION OPTIONS] [--] COMMAND [ARG...]\n"
	"       ltruss --console[=SESSION]\n"
	"       ltruss -w FILE [OPTIONS] [--] COMMAND [ARG...]\n"
	"       ltruss --read FILE [OUTPUT OPTIONS] [-u ...] [-F ...] [-D N] [--pid PID]\n"
	"Trace the calls COMMAND makes into shared libraries.\n"
	"\n"
	"Selection (repeatable, applied left to right, later rules win):\n"
	"  -u [!]LIB[:[:]][!]FUNC[,FUNC...]\n"
	"                     trace FUNCs (globs) of LIB (glob on soname or file\n"
	"                     name; a.out is the program); '::' also traces LIB's\n"
	"                     calls to itself; '!' excludes\n"
	"  -F, --filter FILE|NAME\n"
	"                     load a YAML filter (ltruss.yaml(5)); a NAME such as\n"
	"                     malloc or stdio is looked up in $LTRUSS_FILTER_PATH,\n"
	"                     ~/.config/ltruss/filters and the shipped filters\n"
	"      --from GLOB    only calls made from objects matching GLOB\n"
	"  -D, --depth N      show calls nested at most N deep\n"
	"      --list         do not run COMMAND: list the functions the selection\n"
	"                     resolves to in the libraries it loads (with --json:\n"
	"                     JSON Lines)\n"
	"\n"
	"Output:\n"
	"  -o, --output FILE  write trace lines and the summary to FILE\n"
	"  -f, --follow       trace child processes and the programs they exec\n"
	"  -c, --count        count only: a summary table on exit, no trace lines\n"
	"  -C, --count-trace  trace lines and the summary table on exit\n"
	"  -S, --sort KEY     sort the summary by time, self, calls, avg, max,\n"
	"                     errors or name (default: time)\n"
	"      --summary-format text|json|csv\n"
	"                     how to print the summary (json: also per library\n"
	"                     and per process)\n"
	"      --tree         print the call tree with calls and times on exit\n"
	"      --folded FILE  write collapsed call stacks with self times\n"
	"                     (flamegraph.pl, speedscope)\n"
	"      --chrome FILE  write a trace-event JSON file (Perfetto,\n"
	"                     chrome://tracing)\n"
	"      --heap         where memory goes: trace the allocator with the\n"
	"                     stacks of -k (16 frames unless -k N) and print the\n"
	"                     live bytes by stack at the peak and at exit; with\n"
	"                     --folded FILE, the bytes at the peak by stack\n"
	"  -t                 prefix lines with the time of day; -tt with\n"
	"                     microseconds; -ttt as seconds since the epoch\n"
	"  -r                 prefix lines with the time since the previous line\n"
	"  -T                 append the time spent in each call\n"
	"  -s N               print at most N bytes of each string (default 32)\n"
	"      --caller       append the call site, as [from main+0x1c]\n"
	"  -k, --stack[=N]    under each call, the N frames (default 16, at most\n"
	"                     256) of the program's stack that led to it, as\n"
	"                     ' > func+0x1c (object)'; with --tree, --folded and\n"
	"                     --chrome, above the first traced call; with -c, the\n"
	"                     call sites of the busiest functions\n"
	"      --debuginfod   with -k, fetch the debug files not installed from\n"
	"                     the servers DEBUGINFOD_URLS names\n"
	"      --json         write JSON Lines instead of text, one object an event\n"
	"      --drop         drop events rather than slow the program down when\n"
	"                     ltruss cannot keep up (the number is reported)\n"
	"      --buffer SIZE  bytes of each thread's event buffer: a power of two\n"
	"                     from 64K to 256M (default 1M); more rides out longer\n"
	"                     bursts, less uses less memory\n"
	"      --no-demangle  print C++ names as they are in the symbol table\n"
	"\n"
	"Trace files (ltruss-trace(5)):\n"
	"  -w, --write FILE   record every event into FILE instead of printing\n"
	"                     lines; print only how the program ended\n"
	"      --read FILE    print a recorded FILE with the output options above,\n"
	"                     as they would have printed it live, to stdout;\n"
	"                     -u, -F and -D narrow it\n"
	"      --pid PID      with --read: only process PID (repeatable)\n"
	"      --whole        with -w: copy strings and [in] buffers whole (up to\n"
	"                     32 KiB each), not the first -s bytes, for --playback\n"
	"      --playback OUT.c\n"
	"                     with --read: write a C program that makes the\n"
	"                     recorded calls again and checks their results\n"
	"\n"
	"Console (stats, pause, disable... while the program runs):\n"
	"      --console[=SESSION]\n"
	"                     attach to a running ltruss of this user: the newest,\n"
	"                     or the one whose pid is SESSION\n"
	"  -i                 open the console in this terminal (the trace goes to\n"
	"                     -o FILE, or count only with -c)\n"
	"\n"
	"  -h, --help         show this help and exit\n"
	"  -V, --version      show the version, the interposer and data used, and exit\n"
	"\n"
	"With no selection, ltruss uses its default config: every call the program\n"
	"itself makes into its libraries.  See ltruss(1) and ltruss.yaml(5).\n";

enum { OPT_FROM = 0x100, OPT_JSON, OPT_DROP, OPT_BUFFER, OPT_NO_DEMANGLE, OPT_CALLER,
       OPT_SUMMARY_FORMAT, OPT_TREE, OPT_FOLDED, OPT_CHROME, OPT_LIST,
       OPT_CONSOLE, OPT_READ, OPT_PID, OPT_STACK, OPT_DEBUGINFOD, OPT_HEAP,
       OPT_WHOLE, OPT_PLAYBACK };

static const struct option long_options[] = {
	{ "depth", required_argument, NULL, 'D' },
	{ "filter", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'o' },
	{ "follow", no_argument, NULL, 'f' },
	{ "count", no_argument, NULL, 'c' },
	{ "count-trace", no_argument, NULL, 'C' },
	{ "sort", required_argument, NULL, 'S' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "drop", no_argument, NULL, OPT_DROP },
	{ "buffer", required_argument, NULL, OPT_BUFFER },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "caller", no_argument, NULL, OPT_CALLER },
	{ "stack", optional_argument, NULL, OPT_STACK },
	{ "debuginfod", no_argument, NULL, OPT_DEBUGINFOD },
	{ "summary-format", required_argument, NULL, OPT_SUMMARY_FORMAT },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "chrome", required_argument, NULL, OPT_CHROME },
	{ "heap", no_argument, NULL, OPT_HEAP },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "console", optional_argument, NULL, OPT_CONSOLE },
	{ "write", required_argument, NULL, 'w' },
	{ "read", required_argument, NULL, OPT_READ },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "whole", no_argument, NULL, OPT_WHOLE },
	{ "playback", required_argument, NULL, OPT_PLAYBACK },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Parse a non-negative decimal number for option opt, or die. */
static unsigned parse_count(const char *opt, const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v > INT_MAX)
		usage_error("%s needs a number, not '%s'", opt, arg);
	return (unsigned)v;
}

/* Parse --buffer's SIZE: bytes, or with K or M; a power of two in range. */
static uint32_t parse_buffer(const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!errno && end != arg && *arg != '-' && v <= LTR_RING_SIZE_MAX) {
		if (*end == 'K' || *end == 'k') {
			v <<= 10;
			end++;
		} else if (*end == 'M' || *end == 'm') {
			v <<= 20;
			end++;
		}
		if (!*end && v >= LTR_RING_SIZE_MIN && v <= LTR_RING_SIZE_MAX &&
		    !(v & (v - 1)))
			return (uint32_t)v;
	}
	usage_error("--buffer needs a power of two from 64K to 256M, such as 4M, not '%s'",
		    arg);
}

/* Parse --stack's N: frames, from 1 to STACK_FRAMES_MAX. */
static unsigned parse_frames(const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || v < 1 ||
	    v > STACK_FRAMES_MAX)
		usage_error("--stack needs a number of frames from 1 to %d, such as --stack=32, not '%s'",
			    STACK_FRAMES_MAX, arg);
	return (unsigned)v;
}

/* Map a -S key to enum sort_key, or die naming the valid keys. */
static enum sort_key parse_sort(const char *arg)
{
	enum sort_key key;

	if (sort_key_parse(arg, &key))
		return key;
	usage_error("unknown sort key '%s' for -S (use time, self, calls, avg, max, errors or name)",
		    arg);
}

/*
 * The options that do not go with -w (it prints nothing) or with --read
 * (it runs nothing), each named in its error.
 */
static void trace_file_options(struct options *opts, int argc, char **argv,
			       bool filters)
{
	const struct { bool on; const char *name; } printing[] = {
		{ opts->count, "-c or -C" }, { opts->json, "--json" },
		{ opts->tree, "--tree" }, { opts->folded != NULL, "--folded" },
		{ opts->chrome != NULL, "--chrome" },
		{ opts->timestamps, "-t" }, { opts->relative, "-r" },
		{ opts->durations, "-T" }, { opts->caller, "--caller" },
		{ opts->debuginfod, "--debuginfod" },
	}, running[] = {
		{ opts->follow, "-f" }, { opts->drop, "--drop" },
		{ opts->ring_size != LTR_RING_SIZE_DEFAULT, "--buffer" },
		{ opts->interactive, "-i" }, { opts->list, "--list" },
		{ opts->write != NULL, "-w" },
	};
	size_t i;

	if (opts->npids && !opts->read)
		usage_error("--pid narrows what --read FILE prints: give it with --read");
	if (opts->playback && !opts->read)
		usage_error("--playback writes a program from a recording: give it with --read FILE");
	if (opts->playback)
		for (i = 0; i < sizeof(printing) / sizeof(printing[0]); i++)
			if (printing[i].on)
				usage_error("--playback writes a program, not a trace: %s cannot be used with it",
					    printing[i].name);
	if (opts->whole && !opts->write)
		usage_error("--whole copies strings and buffers whole into a trace file: give it with -w FILE");
	if (opts->write)
		for (i = 0; i < sizeof(printing) / sizeof(printing[0]); i++)
			if (printing[i].on)
				usage_error("-w records and prints no trace: give %s to --read FILE instead",
					    printing[i].name);
	if (!opts->read)
		return;
	for (i = 0; i < sizeof(running) / sizeof(running[0]); i++)
		if (running[i].on)
			usage_error("--read prints a recorded trace and runs nothing: %s cannot be used with it",
				    running[i].name);
	if (optind < argc)
		usage_error("--read prints a recorded trace and runs nothing: it takes no command ('%s')",
			    argv[optind]);
	for (i = 0; i < opts->cfg.sel.nfrom; i++)
		if (strcmp(opts->cfg.sel.from[i], "*") != 0)
			usage_error("--read narrows a trace by function and depth, not by the calling object: --from '%s'%s cannot be used with it",
				    opts->cfg.sel.from[i],
				    filters ? " (or a filter's 'from:')" : "");
	config_check(&opts->cfg);
}

void options_parse(struct options *opts, int argc, char **argv)
{
	bool count_only = false, count_trace = false, protos = false;
	struct config *cfg = &opts->cfg;
	const char *err;
	int c;

	/* All but cfg: config_init leaves the selection's arrays untouched. */
	memset(opts, 0, offsetof(struct options, cfg));
	memset(&opts->cfg + 1, 0,
	       sizeof(*opts) - offsetof(struct options, cfg) - sizeof(opts->cfg));
	config_init(cfg);
	/* A trace file carries the declarations its functions were typed by. */
	cfg->keep_decls = true;
	opts->trace = true;
	opts->ring_size = LTR_RING_SIZE_DEFAULT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:u:F:D:s:o:fcCS:trTkihVw:",
				long_options, NULL)) != -1) {
		switch (c) {
		case 'u':
			if ((err = selection_add_u(&cfg->sel, optarg)))
				usage_error("bad -u '%s': %s", optarg, err);
			cfg->selected = true;
			break;
		case 'F':
			/* Shipped prototypes first: the user's win. */
			if (!protos)
				config_load_prototypes(cfg);
			protos = true;
			config_load_filter(cfg, optarg);
			break;
		case OPT_FROM:
			if ((err = selection_add_from(&cfg->sel, optarg)))
				usage_error("bad --from '%s': %s", optarg, err);
			break;
		case 'D':
			cfg->depth = parse_count("-D", optarg);
			if (cfg->depth == 0)
				usage_error("-D needs a depth of at least 1");
			cfg->depth_set = true;
			break;
		case 's':
			cfg->strsize = parse_count("-s", optarg);
			if (cfg->strsize < 1 || cfg->strsize > LTR_STRSIZE_MAX)
				usage_error("-s needs a string size from 1 to %u, not '%s'",
					    LTR_STRSIZE_MAX, optarg);
			cfg->strsize_set = true;
			break;
		case 'o':
			opts->output = optarg;
			break;
		case 'f':
			opts->follow = true;
			break;
		case 'c':
			count_only = true;
			break;
		case 'C':
			count_trace = true;
			break;
		case 'S':
			opts->sort = parse_sort(optarg);
			break;
		case 't':
			if (opts->timestamps < 3)
				opts->timestamps++;
			break;
		case 'r':
			opts->relative = true;
			break;
		case 'T':
			opts->durations = true;
			break;
		case OPT_JSON:
			opts->json = true;
			break;
		case OPT_DROP:
			opts->drop = true;
			break;
		case OPT_BUFFER:
			opts->ring_size = parse_buffer(optarg);
			break;
		case OPT_NO_DEMANGLE:
			opts->no_demangle = true;
			break;
		case OPT_CALLER:
			opts->caller = true;
			break;
		case 'k':
			opts->stack = STACK_FRAMES_DEFAULT;
			break;
		case OPT_STACK:
			opts->stack = optarg ? parse_frames(optarg)
					     : STACK_FRAMES_DEFAULT;
			break;
		case OPT_DEBUGINFOD:
			opts->debuginfod = true;
			break;
		case OPT_TREE:
			opts->tree = true;
			break;
		case OPT_FOLDED:
			opts->folded = optarg;
			break;
		case OPT_CHROME:
			opts->chrome = optarg;
			break;
		case OPT_HEAP:
			opts->heap = true;
			break;
		case OPT_LIST:
			opts->list = true;
			break;
		case OPT_CONSOLE:
			opts->console = true;
			if (optarg)
				opts->console_pid = (int)parse_count("--console",
								     optarg);
			if (optarg && !opts->console_pid)
				usage_error("--console needs the pid of a running ltruss, not 0");
			break;
		case 'i':
			opts->interactive = true;
			break;
		case 'w':
			opts->write = optarg;
			break;
		case OPT_READ:
			opts->read = optarg;
			break;
		case OPT_WHOLE:
			opts->whole = true;
			break;
		case OPT_PLAYBACK:
			opts->playback = optarg;
			break;
		case OPT_PID:
			opts->pids = xrealloc(opts->pids, (opts->npids + 1) *
							  sizeof(*opts->pids));
			opts->pids[opts->npids] = (int)parse_count("--pid", optarg);
			if (!opts->pids[opts->npids++])
				usage_error("--pid needs a process id, not 0");
			break;
		case OPT_SUMMARY_FORMAT:
			if (strcmp(optarg, "text") == 0)
				opts->summary_format = SUMMARY_TEXT;
			else if (strcmp(optarg, "json") == 0)
				opts->summary_format = SUMMARY_JSON;
			else if (strcmp(optarg, "csv") == 0)
				opts->summary_format = SUMMARY_CSV;
			else
				usage_error("unknown summary format '%s' (use text, json or csv)",
					    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf("ltruss %s\n", PACKAGE_VERSION);
			paths_print(stdout);
			printf("trace files: format version %d (reads %d to %d)\n",
			       TF_VERSION, TF_VERSION_FIRST, TF_VERSION);
			printf("session version: %d\n", LTR_SESSION_VERSION);
			exit(0);
		case ':':
			usage_error("option '%s' needs an argument",
				    argv[optind - 1]);
		default:
			if (optopt && optopt < 0x100)
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (count_only && count_trace)
		usage_error("-c and -C cannot be used together");
	opts->count = count_only || count_trace;
	/* --heap is a summary: trace lines only with -C. */
	opts->trace = opts->heap ? count_trace : !count_only;
	if (opts->heap && !opts->stack)
		opts->stack = STACK_FRAMES_DEFAULT;
	if (opts->console && opts->interactive)
		usage_error("--console and -i cannot be used together");
	if (opts->console && optind < argc)
		usage_error("--console attaches to a running ltruss: it takes no command");
	if (opts->console)
		return;
	if (opts->debuginfod && !opts->stack)
		usage_error("--debuginfod fetches debug files for the stacks of -k: give it with -k");
	if (opts->debuginfod &&
	    (!getenv("DEBUGINFOD_URLS") || !*getenv("DEBUGINFOD_URLS")))
		usage_error("--debuginfod asks the servers DEBUGINFOD_URLS names, and it is not set: set it (such as DEBUGINFOD_URLS=https://debuginfod.debian.net), or leave --debuginfod out");
	trace_file_options(opts, argc, argv, protos);
	if (opts->read)
		return;
	if (opts->interactive && opts->trace && !opts->output &&
	    isatty(STDERR_FILENO))
		usage_error("-i would mix the trace with the console in this terminal: write it to a file with -o FILE, or count only with -c");
	if (optind >= argc)
		usage_error("no command to trace");
	opts->argv = argv + optind;
	if (!protos)
		config_load_prototypes(cfg);
	if (opts->heap) {
		if ((err = heap_kinds_select(&cfg->sel)))
			usage_error("--heap cannot select the allocator: %s", err);
		cfg->selected = true;
	}
	if (opts->list)
		options_config(opts);
}

void options_config(struct options *opts)
{
	if (!opts->cfg.selected)
		config_load_default(&opts->cfg);
	config_check(&opts->cfg);
}
