/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkthreads.c: a multithreaded program that forks.  While one thread
 * loads and unloads the plugin and another looks up libmanyf functions
 * with dlsym (loader work on both), the main thread forks children that
 * each make a first call of their own (a lazy binding in the child).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define F(n) int f##n(void);
#define D(p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define H(p) D(p##0) D(p##1) D(p##2) D(p##3) D(p##4) D(p##5) D(p##6) D(p##7) D(p##8) D(p##9)
H(1) H(2) H(3)
#undef F

#define CHILDREN 600

static volatile int forking = 1;

/* Load and unload the plugin until the forks are done. */
static void *loader(void *arg)
{
	(void)arg;
	while (forking) {
		void *h = dlopen("libplugin.so", RTLD_NOW);

		if (!h)
			exit(1);
		dlclose(h);
	}
	return NULL;
}

/* Look up libmanyf's functions until the forks are done. */
static void *looker(void *arg)
{
	void *h = dlopen("libmanyf.so", RTLD_NOW);
	char name[16];
	int n = 100;

	(void)arg;
	if (!h)
		exit(1);
	while (forking) {
		snprintf(name, sizeof(name), "f%d", n);
		if (!dlsym(h, name))
			exit(1);
		n = n == 999 ? 100 : n + 1;
	}
	return NULL;
}

/* The child's first call of function n (100 + i, a lazy binding). */
static int first_call(int i)
{
	switch (i % 300) {
#define F(n) case n - 100: return f##n() == n;
		H(1) H(2) H(3)
#undef F
	}
	return 0;
}

int main(void)
{
	pthread_t t1, t2;
	int i, ok = 0;

	if (pthread_create(&t1, NULL, loader, NULL) ||
	    pthread_create(&t2, NULL, looker, NULL))
		return 1;
	for (i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(first_call(i) ? 0 : 1);
		if (waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0)
			ok++;
	}
	forking = 0;
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("children ok %d of %d\n", ok, CHILDREN);
	return 0;
}
