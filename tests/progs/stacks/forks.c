/* SPDX-License-Identifier: GPL-2.0-or-later */
/* forks.c: a forked child calls a library function through a static one (tests/stacks.bats, -f). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static __attribute__((noinline)) int in_child(const char *s)
{
	int r = puts(s);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

int main(void)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		in_child("child");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return status != 0;
}
