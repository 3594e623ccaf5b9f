/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execs.c: start a program every way libc offers (argv[1]), each with an
 * environment of its own where the call takes one ("EXECS=own" only).
 * The program started is this one, as "execs leaf": it makes one getsid()
 * call (no shell makes one) and prints the variables it sees that ltruss
 * might have added.
 *  execve execv execvp execvpe execl execlp execle fexecve execveat:
 *      this process becomes the leaf;
 *  fork-execve vfork-execve fork-execv: a child becomes the leaf, the
 *      parent waits;
 *  spawn spawnp system popen: a child is started, the parent waits;
 *  fail: an execve that fails, then the same checks as a leaf, in this
 *      process.
 * argv[2] is the directory of this program, for PATH and the shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

extern char **environ;

/* Print the variables of environ that ltruss may have added, then "leaf". */
static int leaf(void)
{
	char **e;

	getsid(0);
	for (e = environ; *e; e++)
		if (strncmp(*e, "LTRUSS_S", 8) == 0 ||
		    strncmp(*e, "LD_AUDIT=", 9) == 0 ||
		    strncmp(*e, "EXECS=", 6) == 0)
			printf("%s\n", *e);
	printf("leaf %d\n", getppid() > 0);
	return 0;
}

/* Wait for child pid and say how it ended. */
static int reap(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	printf("child %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int main(int argc, char **argv)
{
	char *own[] = { "EXECS=own", NULL };
	char *self = "/proc/self/exe";
	char *args[] = { "execs", "leaf", NULL };
	const char *how = argc > 1 ? argv[1] : "leaf";
	char cmd[4200];
	pid_t pid;

	/* The leaf is found on PATH by the exec calls that search it. */
	setenv("PATH", argc > 2 ? argv[2] : "/nonexistent", 1);
	snprintf(cmd, sizeof(cmd), "%s/execs leaf", argc > 2 ? argv[2] : ".");
	fflush(stdout);
	if (strcmp(how, "leaf") == 0)
		return leaf();
	if (strcmp(how, "execve") == 0)
		execve(self, args, own);
	else if (strcmp(how, "execv") == 0)
		execv(self, args);
	else if (strcmp(how, "execvp") == 0)
		execvp("execs", args);
	else if (strcmp(how, "execvpe") == 0)
		execvpe("execs", args, own);
	else if (strcmp(how, "execl") == 0)
		execl(self, "execs", "leaf", (char *)NULL);
	else if (strcmp(how, "execlp") == 0)
		execlp("execs", "execs", "leaf", (char *)NULL);
	else if (strcmp(how, "execle") == 0)
		execle(self, "execs", "leaf", (char *)NULL, own);
	else if (strcmp(how, "fexecve") == 0)
		fexecve(open(self, O_RDONLY), args, own);
	else if (strcmp(how, "execveat") == 0)
		execveat(AT_FDCWD, self, args, own, 0);
	else if (strcmp(how, "fork-execve") == 0) {
		if ((pid = fork()) == 0) {
			execve(self, args, own);
			_exit(127);
		}
		return reap(pid);
	} else if (strcmp(how, "vfork-execve") == 0) {
		if ((pid = vfork()) == 0) {
			execve(self, args, own);
			_exit(127);
		}
		return reap(pid);
	} else if (strcmp(how, "fork-execv") == 0) {
		if ((pid = fork()) == 0) {
			execv(self, args);
			_exit(127);
		}
		return reap(pid);
	} else if (strcmp(how, "spawn") == 0) {
		if (posix_spawn(&pid, self, NULL, NULL, args, own) != 0)
			return 1;
		return reap(pid);
	} else if (strcmp(how, "spawnp") == 0) {
		if (posix_spawnp(&pid, "execs", NULL, NULL, args, own) != 0)
			return 1;
		return reap(pid);
	} else if (strcmp(how, "system") == 0) {
		printf("system %d\n", system(cmd));
		return 0;
	} else if (strcmp(how, "popen") == 0) {
		FILE *f = popen(cmd, "r");
		char line[256];

		while (f && fgets(line, sizeof(line), f))
			printf("popen: %s", line);
		printf("pclose %d\n", f ? pclose(f) : -1);
		return 0;
	} else if (strcmp(how, "fail") == 0) {
		int r = execve("/nonexistent/program", args, own);

		printf("execve %d %s\n", r, strerror(errno));
		return leaf();
	}
	perror(how);
	return 127;
}
