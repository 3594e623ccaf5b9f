/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c: where the console finds the running sessions of its user.
 *
 * A session is a memfd: it has no name that another process could open.
 * What has one is ltruss's own descriptor of it, /proc/PID/fd/FD, which
 * the kernel lets only the same user (or root) open.  So each ltruss
 * writes one small file, named after its pid, into a directory private
 * to the user:
 *
 *     $XDG_RUNTIME_DIR/ltruss/PID    (else /dev/shm/ltruss-UID/PID,
 *                                     else /tmp/ltruss-UID/PID)
 *     FD:PID:INODE                   (as in LTRUSS_SESSION)
 *
 * Without XDG_RUNTIME_DIR (a root shell, a container), /dev/shm comes
 * before /tmp: it is memory (tmpfs), as XDG_RUNTIME_DIR is, where /tmp is
 * often a disk's file system; there, the entry's creation, rename and
 * removal were about 70 us of every run (a journalled inode), 28 on tmpfs.
 *
 * The console reads the entries and opens /proc/PID/fd/FD; it keeps the
 * file only if it is the memfd named (same inode, the user's), then
 * checks the session's header (console-attach.c).  An entry whose ltruss
 * is gone (no such process, or the descriptor is no longer that memfd: the
 * pid was reused) is stale: the console reports it and removes it.
 *
 * Nothing in a shared place is trusted blindly.  $XDG_RUNTIME_DIR is used
 * only when it is the user's own directory (not after sudo, say).  The
 * directory is made with mode 0700 and used only if it is a directory, not
 * a symbolic link, owned by the user (its mode is narrowed back to 0700 if
 * needed); entries are opened relative to it without following links, and
 * written whole under a temporary name, then renamed, so that a console
 * never reads half of one.  ltruss removes its entry when it exits (atexit:
 * also on error exits, and the signals it forwards end it normally); an
 * ltruss killed outright leaves a stale entry for the next console.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "registry.h"
#include "xmalloc.h"

static int dir_fd = -1;
static char dir_path[PATH_MAX];
static int registered_pid; /* this ltruss's entry, removed on exit */

/* Choose the directory: $XDG_RUNTIME_DIR/ltruss if it is ours, else /dev/shm's or /tmp's. */
static void dir_choose(void)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (xdg && xdg[0] == '/' && strlen(xdg) < PATH_MAX - 16 &&
	    stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid())
		snprintf(dir_path, sizeof(dir_path), "%s/ltruss", xdg);
	else
		snprintf(dir_path, sizeof(dir_path), "%s/ltruss-%u",
			 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
					 access("/dev/shm", W_OK | X_OK) == 0 ?
				 "/dev/shm" :
				 "/tmp",
			 (unsigned)geteuid());
}

/* Open the directory, making it if needed; NULL, or why it cannot be used. */
static const char *dir_open(void)
{
	static char why[PATH_MAX + 128];
	struct stat st;
	int fd;

	if (dir_fd >= 0)
		return NULL;
	dir_choose();
	if (mkdir(dir_path, 0700) < 0 && errno != EEXIST) {
		snprintf(why, sizeof(why), "cannot create %s: %s", dir_path,
			 strerror(errno));
		return why;
	}
	if (lstat(dir_path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(why, sizeof(why), "%s is not a directory (a link?): remove it",
			 dir_path);
		return why;
	}
	/* Not following links: it could have been replaced meanwhile. */
	fd = open(dir_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "cannot open %s: %s", dir_path,
			 strerror(errno));
		return why;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		snprintf(why, sizeof(why), "%s belongs to uid %u, not to you: remove it",
			 dir_path, (unsigned)st.st_uid);
		close(fd);
		return why;
	}
	if ((st.st_mode & 077) && fchmod(fd, 0700) < 0) {
		snprintf(why, sizeof(why), "%s is open to other users: %s",
			 dir_path, strerror(errno));
		close(fd);
		return why;
	}
	dir_fd = fd;
	return NULL;
}

/* Remove this ltruss's entry (at exit; not in its children). */
static void registry_remove(void)
{
	char name[16];

	if (registered_pid != getpid())
		return;
	snprintf(name, sizeof(name), "%d", registered_pid);
	unlinkat(dir_fd, name, 0);
	registered_pid = 0;
}

void registry_add(int session_fd)
{
	const char *why = dir_open();
	char tmp[32], name[16], line[80];
	struct stat st;
	int fd, n;

	if (why) {
		warning_msg("the console will not find this session: %s", why);
		return;
	}
	if (fstat(session_fd, &st) < 0)
		perror_msg_and_die("cannot stat the session");
	n = snprintf(line, sizeof(line), "%d:%d:%llu\n", session_fd,
		     (int)getpid(), (unsigned long long)st.st_ino);
	snprintf(name, sizeof(name), "%d", (int)getpid());
	snprintf(tmp, sizeof(tmp), ".%d.tmp", (int)getpid());
	fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			     O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line, (size_t)n) != n || close(fd) < 0 ||
	    renameat(dir_fd, tmp, dir_fd, name) < 0) {
		warning_msg("the console will not find this session: cannot write %s/%s: %s",
			    dir_path, name, strerror(errno));
		unlinkat(dir_fd, tmp, 0);
		return;
	}
	registered_pid = getpid();
	atexit(registry_remove);
}

const char *registry_path(void)
{
	const char *why = dir_open();

	if (why)
		error_msg_and_die("cannot look for sessions: %s", why);
	return dir_path;
}

/* Is name a pid: digits only, not too many? */
static bool is_pid_name(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (name[i] < '0' || name[i] > '9' || i > 9)
			return false;
	return i > 0;
}

/* Read the entry called name into *e: 1, or 0 if absent, -1 if malformed. */
static int entry_read(const char *name, struct registry_entry *e)
{
	char buf[80], end;
	struct stat st;
	ssize_t n;
	int fd;

	/* Not a FIFO's open waiting forever for a writer: it is refused below. */
	fd = openat(dir_fd, name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	n = -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == geteuid())
		n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%d:%d:%llu%c", &e->fd, &e->pid, &e->ino, &end) != 4 ||
	    end != '\n' || e->fd < 0 || e->pid != atoi(name))
		return -1;
	return 1;
}

/* Order entries by pid. */
static int entry_compare(const void *a, const void *b)
{
	const struct registry_entry *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

size_t registry_list(struct registry_entry **entries)
{
	size_t n = 0, cap = 8;
	struct dirent *d;
	DIR *dir;
	int fd;

	registry_path();
	fd = dup(dir_fd);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir)
		perror_msg_and_die("cannot read %s", dir_path);
	rewinddir(dir);
	*entries = xmalloc(cap * sizeof(**entries));
	while ((d = readdir(dir)) != NULL) {
		struct registry_entry e;
		int r;

		if (!is_pid_name(d->d_name))
			continue;
		r = entry_read(d->d_name, &e);
		if (r < 0) {
			warning_msg("removing %s/%s: not a session entry",
				    dir_path, d->d_name);
			unlinkat(dir_fd, d->d_name, 0);
		}
		if (r <= 0)
			continue;
		if (n == cap) {
			cap *= 2;
			*entries = xrealloc(*entries, cap * sizeof(**entries));
		}
		(*entries)[n++] = e;
	}
	closedir(dir);
	qsort(*entries, n, sizeof(**entries), entry_compare);
	return n;
}

bool registry_find(int pid, struct registry_entry *e)
{
	char name[16];

	registry_path();
	snprintf(name, sizeof(name), "%d", pid);
	return entry_read(name, e) > 0;
}

void registry_forget(int pid)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", pid);
	if (registry_path())
		unlinkat(dir_fd, name, 0);
}
