/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidns.c: the pid ltruss sees for a process known by its pid in another
 * pid namespace.
 *
 * A traced process learns the pid ltruss sees from the NSpid line of its
 * own /proc/thread-self/status (lib/pidns.c); in a pid namespace that
 * mounted a /proc of its own (unshare --mount-proc, containers) that line
 * names only its own pid, so it registers under that pid, which means
 * another process (often init) to ltruss.  ltruss finds it from outside:
 * among the processes whose /proc/N/ns/pid is that namespace, the one whose
 * NSpid ends with that pid.  The kernel's files are the truth; the
 * namespace and the pid come from the session, which the program writes,
 * and only select among them.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pidns.h"

/* The last pid of the NSpid line of /proc/N/status, or 0. */
static pid_t innermost_pid(const char *n)
{
	char path[300], *line = NULL;
	size_t size = 0;
	pid_t last = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", n);
	f = fopen(path, "re");
	if (!f)
		return 0;
	/* Whole lines: NSpid lists one pid per nested namespace. */
	while (getline(&line, &size, f) > 0) {
		char *p = line + 6, *end;

		if (strncmp(line, "NSpid:", 6) != 0)
			continue;
		for (;;) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			last = (pid_t)v;
			p = end;
		}
		break;
	}
	free(line);
	fclose(f);
	return last;
}

pid_t pidns_find(uint32_t ns, pid_t local)
{
	struct dirent *d;
	pid_t found = 0;
	DIR *dir;

	if (!ns || local <= 0 || !(dir = opendir("/proc")))
		return 0;
	while (!found && (d = readdir(dir)) != NULL) {
		char path[300];
		struct stat st;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/pid", d->d_name);
		if (stat(path, &st) == 0 && (uint32_t)st.st_ino == ns &&
		    innermost_pid(d->d_name) == local)
			found = (pid_t)atoi(d->d_name);
	}
	closedir(dir);
	return found;
}
