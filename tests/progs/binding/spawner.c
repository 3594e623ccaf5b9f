/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawner.c: a -fno-plt plugin that starts a program with posix_spawn and waits for it. */
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

/* Run path with the argument "leaf"; its exit status, or -1. */
int spawner_run(const char *path)
{
	char *args[] = { (char *)path, "leaf", NULL };
	int status;
	pid_t pid;

	if (posix_spawn(&pid, path, NULL, NULL, args, environ) != 0 ||
	    waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
