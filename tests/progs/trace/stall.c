/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stall.c: stop the parent (ltruss) with SIGSTOP, make N traced calls
 * (argv[1]) while it is stopped, let it go on, and print "done SUM": the
 * calls fill the ring with nothing draining it, so what ltruss shows
 * afterwards under --drop is what one ring holds.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../binding/libfix.h"

/* Have all of process pid's threads stopped (state T in their stat)? */
static int all_stopped(pid_t pid)
{
	char path[320], buf[512], *p;
	int stopped = 1;
	struct dirent *d;
	DIR *tasks;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks)
		return 0;
	while (stopped && (d = readdir(tasks)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid,
			 d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		p = strrchr(buf, ')');
		stopped = p && (p[2] == 'T' || p[2] == 't');
	}
	closedir(tasks);
	return stopped;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec pause = { 0, 1000000 };
	pid_t parent = getppid();
	long sum = 0;
	int waited;

	if (kill(parent, SIGSTOP))
		return 1;
	for (waited = 0; !all_stopped(parent) && waited < 5000; waited++)
		nanosleep(&pause, NULL);
	for (i = 0; i < n; i++)
		sum += fix_add((int)i, 1);
	kill(parent, SIGCONT);
	printf("done %ld\n", sum);
	return 0;
}
