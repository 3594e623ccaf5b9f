/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * console.c: the console's loop: readline on a terminal, a script otherwise.
 *
 * On a terminal the console shows the prompt "ltruss> " with readline's
 * callback interface, so that one poll() waits both for a key and for the
 * session to end.  The history is kept in $XDG_STATE_HOME/ltruss/history
 * (~/.local/state/ltruss/history).  Anything else on standard input is a
 * script: one command a line, no prompt, no history; the console then
 * exits with status 2 if a command failed.
 *
 * --console attaches from another terminal; a pidfd of ltruss tells when
 * it exits.  -i runs the console in ltruss's own terminal: ltruss forks
 * it before starting the program, twice, so that the console is not one
 * of the children ltruss waits for (with -f it waits for any).  Trace
 * lines would mix with the prompt, so -i wants them in a file (-o) or
 * none (-c) when standard error is that terminal.  When the program ends,
 * ltruss closes a pipe; the console puts the terminal back and exits,
 * closing a second pipe, and only then does ltruss print its summary.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <readline/history.h>
#include <readline/readline.h>

#include "catalog.h"
#include "clock.h"
#include "console.h"
#include "readline-lazy.h"
#include "error.h"
#include "format.h"
#include "summary.h"
#include "xmalloc.h"

#define PROMPT "ltruss> "
#define HISTORY_MAX 1000

static struct console console;
static char *history_file;
static volatile sig_atomic_t got_signal;

/* Note a signal for the loop (SIGINT, SIGTERM, SIGHUP, SIGWINCH). */
static void on_signal(int sig)
{
	got_signal = sig;
}

/* Catch the signals the terminal loop handles itself. */
static void signals_catch(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * Has the session ended?  hangup (if not -1) became readable, which
 * poll() said in revents; without one, ltruss is gone.
 */
static bool session_ended(int hangup, short revents)
{
	if (hangup >= 0)
		return revents != 0;
	return kill(console.pid, 0) < 0 && errno == ESRCH;
}

/* Has the session ended, as of now? */
static bool session_gone(int hangup)
{
	struct pollfd p = { .fd = hangup, .events = POLLIN };

	return session_ended(hangup, poll(&p, 1, 0) > 0 ? p.revents : 0);
}

/* The history file's path, its directories made; NULL without a home. */
static char *history_path(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *path, *p;

	if (state && state[0] == '/')
		path = xasprintf("%s/ltruss/history", state);
	else if (home && home[0] == '/')
		path = xasprintf("%s/.local/state/ltruss/history", home);
	else
		return NULL;
	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	return path;
}

/* Load the history; make the file if there is none. */
static void history_start(void)
{
	int err;

	using_history();
	history_file = history_path();
	if (!history_file)
		return;
	err = read_history(history_file);
	if (err == ENOENT)
		err = write_history(history_file);
	if (err) {
		warning_msg("no history: cannot use %s: %s", history_file,
			    strerror(err));
		free(history_file);
		history_file = NULL;
	}
}

/* Add line to the history (not twice in a row), and to the file. */
static void history_note(const char *line)
{
	HIST_ENTRY *last = history_length ?
		history_get(history_base + history_length - 1) : NULL;

	if (!*line || (last && strcmp(last->line, line) == 0))
		return;
	add_history(line);
	if (history_file)
		append_history(1, history_file);
}

/* readline's line handler: run the command; NULL is Ctrl-D. */
static void on_line(char *line)
{
	if (!line) {
		putchar('\n');
		console.quit = true;
	} else {
		size_t n = strlen(line);

		/* Tab leaves a blank after a word: not worth keeping. */
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = '\0';
		history_note(line);
		console_execute(&console, line);
		free(line);
	}
	/* Before readline shows the next prompt. */
	if (console.quit)
		rl_callback_handler_remove();
}

/* Act on a signal caught while waiting; true if the console must end. */
static bool signal_handle(void)
{
	int sig = got_signal;

	got_signal = 0;
	switch (sig) {
	case SIGINT:
		/* As a shell does: drop the line, a fresh prompt. */
		rl_replace_line("", 0);
		rl_crlf();
		rl_on_new_line();
		rl_redisplay();
		return false;
	case SIGWINCH:
		rl_resize_terminal();
		return false;
	case SIGTERM:
	case SIGHUP:
		return true;
	}
	return false;
}

/* Read commands on the terminal; true if the session ended meanwhile. */
static bool run_terminal(int hangup)
{
	bool ended = false;

	history_start();
	console_complete_init(&console);
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	signals_catch();
	printf("attached to session %d: %s\n'help' lists the commands, 'quit' or Ctrl-D detaches\n",
	       console.pid, console_command_line(console.s));
	rl_callback_handler_install(PROMPT, on_line);
	while (!console.quit) {
		struct pollfd p[2] = { { .fd = 0, .events = POLLIN },
				       { .fd = hangup, .events = POLLIN } };
		int wait = hangup < 0 ? 1000 : -1;

		if (poll(p, 2, wait) < 0 && errno != EINTR)
			perror_msg_and_die("cannot read the terminal");
		if (got_signal && signal_handle())
			break;
		if (session_ended(hangup, p[1].revents)) {
			ended = true;
			break;
		}
		if (p[0].revents)
			rl_callback_read_char();
	}
	if (!console.quit) {
		rl_callback_handler_remove();
		putchar('\n');
	}
	if (history_file)
		history_truncate_file(history_file, HISTORY_MAX);
	return ended;
}

/* Read a script on standard input; true if the session ended first. */
static bool run_script(int hangup)
{
	static char buf[4096];
	size_t len = 0;
	bool eof = false;

	while (!console.quit) {
		char *nl = memchr(buf, '\n', len);
		struct pollfd p[2] = { { .fd = 0, .events = POLLIN },
				       { .fd = hangup, .events = POLLIN } };
		ssize_t n;

		if (nl || (eof && len)) {
			size_t used = nl ? (size_t)(nl - buf) + 1 : len;

			buf[used - (nl != NULL)] = '\0';
			console.line++;
			if (session_gone(hangup))
				return true;
			console_execute(&console, buf);
			memmove(buf, buf + used, len - used);
			len -= used;
			continue;
		}
		if (eof)
			break;
		if (len == sizeof(buf) - 1) {
			console_error(&console, "split it",
				      "a line longer than %zu bytes",
				      sizeof(buf) - 2);
			return false;
		}
		if (poll(p, 2, hangup < 0 ? 1000 : -1) < 0 && errno != EINTR)
			perror_msg_and_die("cannot read the commands");
		if (session_ended(hangup, p[1].revents))
			return true;
		if (!p[0].revents)
			continue;
		n = read(0, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			perror_msg_and_die("cannot read the commands");
		if (n == 0)
			eof = true;
		if (n > 0)
			len += (size_t)n;
	}
	return false;
}

/*
 * Run the console attached to console.s until it quits or the session
 * ends (hangup, if not -1, becomes readable then); spawned: for -i.
 * Returns the exit status.
 */
static int console_run(int hangup, bool spawned)
{
	bool terminal = isatty(STDIN_FILENO), ended;

	catalog_live(console.s);
	fmt.demangle = true;
	clock_start();
	ended = terminal ? run_terminal(hangup) : run_script(hangup);
	if (ended && !spawned)
		printf("session %d ended (ltruss exited)\n", console.pid);
	else if (!ended && terminal)
		printf("detached from session %d: the program goes on\n",
		       console.pid);
	fflush(stdout);
	summary_snapshot_free(console.base);
	return console.failed && !terminal ? EXIT_LTRUSS_ERROR : 0;
}

int console_main(int pid)
{
	console_attach(&console, pid);
	return console_run((int)syscall(SYS_pidfd_open, console.pid, 0),
			   false);
}

static int spawn_hangup = -1; /* closed when the program has ended */
static int spawn_done = -1;   /* EOF once the console has let go */

void console_spawn(void)
{
	pid_t ltruss = getpid(), pid;
	int hang[2], done[2], status;

	if (pipe2(hang, O_CLOEXEC) < 0 || pipe2(done, O_CLOEXEC) < 0)
		perror_msg_and_die("cannot create a pipe for the console");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		perror_msg_and_die("cannot start the console");
	if (pid == 0) {
		/* Fork again and go: the console is nobody's child here. */
		pid = fork();
		if (pid != 0)
			_exit(pid < 0);
		close(hang[1]);
		close(done[0]);
		console_attach(&console, ltruss);
		_exit(console_run(hang[0], true));
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		error_msg_and_die("cannot start the console");
	close(hang[0]);
	close(done[1]);
	spawn_hangup = hang[1];
	spawn_done = done[0];
}

void console_spawn_end(void)
{
	ssize_t n;
	char b;

	if (spawn_hangup < 0)
		return;
	close(spawn_hangup);
	do
		n = read(spawn_done, &b, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	close(spawn_done);
	spawn_hangup = spawn_done = -1;
}
