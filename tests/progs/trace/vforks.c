/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vforks.c: vfork children that leave unusually (tests/follow.bats).
 *
 *  thread-killed  a thread vforks; its child is killed by a signal, so it
 *                 never passes an exit or exec hook; the thread ends, and
 *                 a new thread (which may reuse its state) makes calls;
 *  nested         the vfork child vforks a child of its own, then exits;
 *  drop           the vfork child drops to nobody (65534: needs root),
 *                 then executes this program as "leaf";
 *  leaf           one traced getppid() call, and no more.
 * Every process makes traced getppid() calls; the main program ends with
 * getpid() and prints what its children ended with.
 */
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* vfork a child that is killed by SIGKILL after a traced call; its wait status. */
static void *forker(void *arg)
{
	int *status = arg;
	pid_t p = vfork();

	if (p == 0) {
		getppid();
		raise(SIGKILL);
		_exit(1);
	}
	waitpid(p, status, 0);
	return NULL;
}

/* A later thread's traced calls. */
static void *later(void *arg)
{
	getppid();
	getppid();
	return arg;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "nested";
	int status = -1, inner = -1;
	pthread_t t;

	if (strcmp(how, "leaf") == 0) {
		getppid();
		return 0;
	}
	if (strcmp(how, "drop") == 0) {
		pid_t p = vfork();

		if (p == 0) {
			getppid();
			if (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
			    setuid(65534) != 0)
				_exit(2);
			execl("/proc/self/exe", argv[0], "leaf", (char *)NULL);
			_exit(127);
		}
		waitpid(p, &status, 0);
	} else if (strcmp(how, "thread-killed") == 0) {
		pthread_create(&t, NULL, forker, &status);
		pthread_join(t, NULL);
		pthread_create(&t, NULL, later, NULL);
		pthread_join(t, NULL);
	} else {
		pid_t p = vfork();

		if (p == 0) {
			pid_t q = vfork();

			if (q == 0) {
				getppid();
				_exit(3);
			}
			waitpid(q, &inner, 0);
			getppid();
			_exit(WIFEXITED(inner) ? WEXITSTATUS(inner) + 1 : 9);
		}
		waitpid(p, &status, 0);
	}
	getpid();
	printf("status %#x\n", status);
	return 0;
}
