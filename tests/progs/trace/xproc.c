/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xproc.c: 8 forked children bind the 900 functions of libmanyf at the same
 * time, each in its own order, and check what every call returns.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#define NCHILD 8

/* Look up and call every function; returns how many returned the wrong value. */
static int child(int c)
{
	void *h = dlopen("libmanyf.so", RTLD_NOW);
	int k, bad = 0;

	if (!h)
		return 1000;
	for (k = 0; k < 900; k++) {
		int n = 100 + (k * 7 + c * 131) % 900;
		char name[16];
		int (*fn)(void);

		snprintf(name, sizeof(name), "f%d", n);
		fn = (int (*)(void))dlsym(h, name);
		if (!fn || fn() != n)
			bad++;
	}
	return bad;
}

int main(void)
{
	int c, status, failing = 0;

	for (c = 0; c < NCHILD; c++)
		if (fork() == 0)
			_exit(child(c) ? 1 : 0);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failing++;
	printf("children failing: %d\n", failing);
	return failing != 0;
}
