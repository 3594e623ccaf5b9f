/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfork.c: vfork a child that execs /bin/echo, between traced calls. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libbhv.h"

int main(void)
{
	pid_t pid;
	int st;

	printf("before: %ld\n", bhv_add3(1, 2, 3));
	fflush(stdout);
	pid = vfork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execl("/bin/echo", "echo", "from", "the", "child", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	printf("child status: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("after: %ld\n", bhv_add3(4, 5, 6));
	return 0;
}
