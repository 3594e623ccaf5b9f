/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkenv.c: fork while another thread is inside system() or popen(), and
 * say whether the children saw variables ltruss may have added.
 *  system: a thread's system() runs a shell that says it has started and
 *      then waits; meanwhile the main thread forks argv[2] children (3 by
 *      default), each of which also runs system(":") itself;
 *  setenv: the same system() thread, while the main thread sets a new
 *      variable (libc replaces environ), forks argv[2] children (1 by
 *      default) and, once system() has returned, checks its own environ;
 *  popen: a thread opens and closes popen(":") argv[2] times (200 by
 *      default) while the main thread forks a child after each of them.
 * Each child exits 1 when its environ holds LD_AUDIT, LTRUSS_SESSION or
 * LTRUSS_SAVED_LD_AUDIT, else 0.  Prints the count of children and of
 * those that saw such a variable ("0" natively), and with setenv whether
 * the process itself sees one at the end.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

extern char **environ;

static int ready[2], go[2];
static int rounds;
static volatile int popens;

/* Does environ hold a variable that ltruss may have added? */
static int sees_ltruss(void)
{
	char **e;

	for (e = environ; *e; e++)
		if (strncmp(*e, "LTRUSS_SESSION=", 15) == 0 ||
		    strncmp(*e, "LTRUSS_SAVED_LD_AUDIT=", 22) == 0 ||
		    strncmp(*e, "LD_AUDIT=", 9) == 0)
			return 1;
	return 0;
}

/* The system thread: a shell that writes to ready, then reads go. */
static void *run_system(void *arg)
{
	char cmd[128];

	(void)arg;
	snprintf(cmd, sizeof(cmd), "echo >&%d; read x <&%d", ready[1], go[0]);
	if (system(cmd) != 0)
		fprintf(stderr, "forkenv: system failed\n");
	return NULL;
}

/* The popen thread: open and close a shell, rounds times. */
static void *run_popen(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		FILE *f = popen(":", "r");

		if (f)
			pclose(f);
		__atomic_store_n(&popens, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Fork a child that checks its environ and runs a shell itself; 1 if it saw. */
static int child_saw(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int saw = sees_ltruss();

		if (system(":") != 0)
			_exit(2);
		_exit(saw);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1) {
		fprintf(stderr, "forkenv: a child failed\n");
		exit(1);
	}
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "system";
	int n = argc > 2 ? atoi(argv[2]) : 0, i, saw = 0;
	pthread_t t;
	char c;

	if (strcmp(how, "system") == 0 || strcmp(how, "setenv") == 0) {
		n = n ? n : how[1] == 'y' ? 3 : 1;
		if (pipe(ready) != 0 || pipe(go) != 0 ||
		    pthread_create(&t, NULL, run_system, NULL) != 0)
			return 1;
		/* The shell has started: system() is running in the thread. */
		if (read(ready[0], &c, 1) != 1)
			return 1;
		if (how[1] == 'e' && setenv("FORKENV", "1", 1) != 0)
			return 1;
		for (i = 0; i < n; i++)
			saw += child_saw();
		if (write(go[1], "\n", 1) != 1)
			return 1;
	} else if (strcmp(how, "popen") == 0) {
		n = rounds = n ? n : 200;
		if (pthread_create(&t, NULL, run_popen, NULL) != 0)
			return 1;
		for (i = 0; i < n; i++) {
			while (__atomic_load_n(&popens, __ATOMIC_ACQUIRE) < i)
				sched_yield();
			saw += child_saw();
		}
	} else {
		return 1;
	}
	pthread_join(t, NULL);
	printf("%d children, %d saw ltruss's variables\n", n, saw);
	if (how[1] == 'e')
		printf("after system: %s, sees ltruss's variables: %s\n",
		       getenv("FORKENV") ? "FORKENV set" : "FORKENV lost",
		       sees_ltruss() ? "yes" : "no");
	return 0;
}
