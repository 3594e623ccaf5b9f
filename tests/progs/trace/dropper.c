/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dropper: a root daemon's pattern, to check what a worker that drops
 * privileges without exec can do to the session.  The worker drops to
 * nobody (65534) by HOW ("libc": setgroups, setgid, setuid; "syscall":
 * the same through syscall(); "setresuid": setresgid and setresuid),
 * then the root parent reads SECRETFILE and calls strlen on it.  The
 * worker then looks for the secret in every ltruss mapping it still has,
 * tries to write one (a forged event) and to open the session again
 * through /proc, and says what it could do, one line each.
 *
 * usage: dropper SECRETFILE HOW
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

/* Drop to nobody as how says; exit 3 if it did not work. */
static void drop(const char *how)
{
	gid_t none[1] = { NOBODY };
	int r;

	if (strcmp(how, "syscall") == 0)
		r = syscall(SYS_setgroups, 1, none) || syscall(SYS_setgid, NOBODY) ||
		    syscall(SYS_setuid, NOBODY);
	else if (strcmp(how, "setresuid") == 0)
		r = setgroups(1, none) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY);
	else
		r = setgroups(1, none) || setgid(NOBODY) || setuid(NOBODY);
	if (r || getuid() != NOBODY || geteuid() != NOBODY)
		exit(3);
}

/* Is secret in the pages of [start, end) that are in memory (the rest are holes)? */
static int resident_has(unsigned long start, unsigned long end,
			const char *secret)
{
	size_t pages = (end - start) / 4096, i, run;
	unsigned char *vec = malloc(pages);
	int found = 0;

	if (!vec || mincore((void *)start, end - start, vec) != 0) {
		free(vec);
		return 0;
	}
	for (i = 0; i < pages && !found; i += run + 1) {
		for (run = 0; i + run < pages && (vec[i + run] & 1); run++)
			;
		if (run && memmem((char *)start + i * 4096, run * 4096, secret,
				  strlen(secret)))
			found = 1;
	}
	free(vec);
	return found;
}

/* Look for secret in the ltruss mappings of this process, and write into them. */
static void search(const char *secret)
{
	char line[512];
	int mapped = 0, found = 0, written = 0;
	FILE *maps = fopen("/proc/self/maps", "r");

	while (maps && fgets(line, sizeof(line), maps)) {
		unsigned long start, end;
		char perms[8];

		if (!strstr(line, "ltruss-session") ||
		    sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3)
			continue;
		mapped++;
		if (perms[0] == 'r')
			found += resident_has(start, end, secret);
		if (perms[1] == 'w') {
			/* A forged event header at the start of the mapping's last page. */
			memset((char *)end - 4096, 0xff, 64);
			written++;
		}
	}
	if (maps)
		fclose(maps);
	printf("worker: %d session mappings, secret %s, %d written\n", mapped,
	       found ? "READ" : "not seen", written);
}

/* Try to open any process's session memfd through /proc/PID/fd. */
static void reopen(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	int opened = 0;

	while (proc && (p = readdir(proc))) {
		char dir[300], link[300], target[300];
		struct dirent *f;
		DIR *fds;

		snprintf(dir, sizeof(dir), "/proc/%s/fd", p->d_name);
		if (!(fds = opendir(dir)))
			continue;
		while ((f = readdir(fds))) {
			ssize_t n;
			int fd;

			snprintf(link, sizeof(link), "%s/%s", dir, f->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (!strstr(target, "ltruss-session"))
				continue;
			fd = open(link, O_RDONLY);
			if (fd >= 0) {
				opened++;
				close(fd);
			}
		}
		closedir(fds);
	}
	if (proc)
		closedir(proc);
	printf("worker: %d sessions opened through /proc\n", opened);
}

int main(int argc, char **argv)
{
	char secret[128] = "";
	int dropped[2], done[2], status;
	ssize_t n;
	pid_t pid;
	char c;
	int fd;

	if (argc != 3 || pipe(dropped) || pipe(done))
		return 2;
	pid = fork();
	if (pid == 0) {
		drop(argv[2]);
		if (write(dropped[1], "d", 1) != 1 || read(done[0], &c, 1) != 1)
			return 4;
		search("TOPSECRET");
		reopen();
		return 0;
	}
	if (pid < 0 || read(dropped[0], &c, 1) != 1)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || (n = read(fd, secret, sizeof(secret) - 1)) <= 0)
		return 5;
	secret[n] = '\0';
	close(fd);
	printf("parent: %zu\n", strlen(secret));
	fflush(stdout);
	if (write(done[1], "r", 1) != 1 || waitpid(pid, &status, 0) != pid)
		return 6;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 7;
}
