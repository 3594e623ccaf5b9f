/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deps.c: the shared objects a program loads at start (--list), as its
 * loader finds them in trace mode.
 *
 * Why ask the loader rather than follow DT_NEEDED ourselves: where a
 * library is found depends on LD_PRELOAD and /etc/ld.so.preload,
 * LD_LIBRARY_PATH, DT_RPATH (inherited down the tree) versus DT_RUNPATH
 * (not inherited), $ORIGIN, $LIB and $PLATFORM, the glibc-hwcaps
 * subdirectories, /etc/ld.so.cache and the default directories, and the
 * order objects enter the lookup scope is breadth-first with duplicates
 * folded by soname.  Re-implementing that is a second loader that drifts
 * from the real one; the real one tells us exactly, in a millisecond.
 *
 * The glibc loader does so when LD_TRACE_LOADED_OBJECTS is set: it maps
 * the program and its libraries, prints one line each and exits before
 * any relocation or constructor, so none of the program's code runs.  This
 * is what ldd does; like ldd we run the loader itself with the program as
 * its argument, not the program, and we name the loader the program asks
 * for (PT_INTERP).  The program is given by its real path so that $ORIGIN
 * expands as it does when the kernel starts it.  Variables that would make
 * the loader relocate (LD_WARN), print more (LD_VERBOSE) or load auditors
 * (LD_AUDIT) are left out of its environment.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deps.h"
#include "error.h"
#include "xmalloc.h"

extern char **environ;

/* Does the environment entry e set a variable that changes trace mode? */
static bool env_dropped(const char *e)
{
	static const char *const dropped[] = {
		"LD_AUDIT=", "LD_WARN=", "LD_VERBOSE=", "LD_TRACE_",
	};
	size_t i;

	for (i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		if (strncmp(e, dropped[i], strlen(dropped[i])) == 0)
			return true;
	return false;
}

/* The loader's environment: ours, cleaned, with trace mode on. */
static char **trace_environment(void)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 2, sizeof(*env));
	for (i = 0; i < n; i++)
		if (!env_dropped(environ[i]))
			env[k++] = environ[i];
	env[k++] = "LD_TRACE_LOADED_OBJECTS=1";
	env[k] = NULL;
	return env;
}

/* Run the loader in trace mode on elf; returns its output (malloc'd). */
static char *run_loader(const char *loader, const char *elf)
{
	char **env = trace_environment(), *argv[3], *out = NULL, real[PATH_MAX];
	size_t len = 0, cap = 0;
	posix_spawn_file_actions_t fa;
	int pipefd[2], err, status;
	ssize_t n;
	pid_t pid;

	if (!realpath(elf, real))
		perror_msg_and_die("cannot run '%s'", elf);
	argv[0] = (char *)loader;
	argv[1] = real;
	argv[2] = NULL;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		perror_msg_and_die("cannot create a pipe");
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
					     0) ||
	    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1))
		error_msg_and_die("out of memory");
	fflush(NULL);
	err = posix_spawn(&pid, loader, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(pipefd[1]);
	if (err) {
		errno = err;
		perror_msg_and_die("cannot run '%s'", elf);
	}
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			out = xrealloc(out, cap);
		}
		n = read(pipefd[0], out + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(pipefd[0]);
	out[len] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			perror_msg_and_die("cannot wait for the loader");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		error_msg_and_die("cannot list the libraries of '%s': its loader '%s' failed (status %d), so running it would fail too",
				  elf, loader,
				  WIFEXITED(status) ? WEXITSTATUS(status)
						    : 128 + WTERMSIG(status));
	return out;
}

/* A copy of n bytes of s, NUL-terminated. */
static char *copy(const char *s, size_t n)
{
	return xstrndup(s, n);
}

/*
 * Parse one line of trace output into d; false for lines that name no
 * file (the vDSO).  The forms: "NAME => PATH (0xADDR)", "NAME => not
 * found" and "PATH (0xADDR)", where PATH is the DT_NEEDED entry itself
 * when that has a '/' ("./libmain.so", relative to the current directory
 * as the loader takes it).
 */
static bool parse_line(const char *line, struct dep *d)
{
	const char *arrow, *paren;

	line += strspn(line, " \t");
	arrow = strstr(line, " => ");
	paren = strstr(line, " (0x");
	if (arrow) {
		const char *path = arrow + 4;

		d->name = copy(line, (size_t)(arrow - line));
		if (strcmp(path, "not found") == 0 || *path != '/') {
			d->path = NULL;
			return true;
		}
		paren = strstr(path, " (0x");
		d->path = copy(path, paren ? (size_t)(paren - path)
					   : strlen(path));
		return true;
	}
	d->path = copy(line, paren ? (size_t)(paren - line) : strlen(line));
	if (!strchr(d->path, '/')) {
		free(d->path);
		return false;
	}
	d->name = copy(d->path, strlen(d->path));
	return true;
}

size_t deps_list(const char *loader, const char *elf, struct dep **deps)
{
	char *out = run_loader(loader, elf), *line, *save = NULL;
	size_t n = 0, cap = 0;
	struct dep *list = NULL;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct dep d;

		if (!parse_line(line, &d))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			list = xrealloc(list, cap * sizeof(*list));
		}
		list[n++] = d;
	}
	free(out);
	*deps = list;
	return n;
}

void deps_free(struct dep *deps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(deps[i].name);
		free(deps[i].path);
	}
	free(deps);
}
