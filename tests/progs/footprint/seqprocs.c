/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seqprocs.c: N short processes (argv[1]) run one after another, each
 * this program again (fork, then exec "seqprocs -child CALLS") making
 * CALLS (argv[2]) traced calls of bhv_add3 and exiting; the parent waits
 * for each before it starts the next, and prints the sum of their statuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../behaviour/libbhv.h"

/* The child: CALLS calls, their sum (1 each) as its exit status, mod 256. */
static int child(long calls)
{
	long i, sum = 0;

	for (i = 0; i < calls; i++)
		sum += bhv_add3(i, 1, -i);
	return (int)(sum & 0x7f);
}

int main(int argc, char **argv)
{
	const char *calls = argc > 2 ? argv[2] : "100";
	long n, i, total = 0;
	int status;
	pid_t p;

	if (argc > 2 && strcmp(argv[1], "-child") == 0)
		return child(atol(argv[2]));
	n = argc > 1 ? atol(argv[1]) : 400;
	for (i = 0; i < n; i++) {
		p = fork();
		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (p == 0) {
			execl("/proc/self/exe", argv[0], "-child", calls, (char *)NULL);
			_exit(127);
		}
		if (waitpid(p, &status, 0) != p || !WIFEXITED(status)) {
			perror("waitpid");
			return 1;
		}
		total += WEXITSTATUS(status);
	}
	printf("%ld processes, statuses %ld\n", n, total);
	return 0;
}
