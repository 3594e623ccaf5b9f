/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procs.c: children that end in ways ltruss must not confuse with the
 * parent's end (argv[1]):
 *  early-fork  fork before any traced call; the child exits 3;
 *  vfork-fail  vfork, the exec fails, the child _exit(127)s;
 *  stop        the child stops itself, is continued, and exits 5.
 * The parent makes traced getpid() calls afterwards and exits 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "early-fork";
	int status;
	pid_t p;

	if (strcmp(how, "early-fork") == 0) {
		p = fork();
		if (p == 0) {
			getpid();
			exit(3);
		}
		waitpid(p, &status, 0);
	} else if (strcmp(how, "vfork-fail") == 0) {
		getpid();
		p = vfork();
		if (p == 0) {
			execl("/nonexistent/program", "x", (char *)NULL);
			_exit(127);
		}
		waitpid(p, &status, 0);
	} else {
		getpid();
		p = fork();
		if (p == 0) {
			raise(SIGSTOP);
			getpid();
			exit(5);
		}
		waitpid(p, &status, WUNTRACED);
		kill(p, SIGCONT);
		waitpid(p, &status, 0);
	}
	usleep(100000); /* ltruss looks at the session meanwhile */
	getpid();
	printf("child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
