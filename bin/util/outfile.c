/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile.c: open the files ltruss writes (-o, -w, --folded, --chrome)
 * as the kernel's protected_symlinks rule would.
 *
 * Each is created or truncated at a path the user gives, often in a
 * shared directory such as /tmp.  Where fs.protected_symlinks is 0 (a
 * container, an old kernel), root writing there would follow another
 * user's symbolic link and overwrite whatever it points to.  So the path
 * is walked first, each symbolic link on the way (the last component,
 * a directory, a link inside a link's target) read and checked as
 * fs/namei.c's may_follow_link() checks it: a link in a sticky,
 * world-writable directory is followed only if it belongs to the
 * directory's owner or to the caller (the effective uid).  Nobody else
 * can then swap such a link between the check and the open (the sticky
 * bit), and a link created at the last component meanwhile makes the
 * open, with O_NOFOLLOW, fail: the walk is done again.
 *
 * A link elsewhere is followed as ever: -o /dev/stderr, -o
 * /proc/self/fd/3.  An existing regular file of another user in such a
 * directory is written (protected_regular is not imitated): its owner
 * chose to let ltruss's user write it, and no link is involved.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "outfile.h"
#include "xmalloc.h"

#define LINKS_MAX 40 /* as the kernel's MAXSYMLINKS */

/* a + "/" + b, allocated ("" + "/" + b is "/b", "." + "/" + b is b). */
static char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s/%s", a, b);
	if (strcmp(a, ".") == 0)
		memmove(s, s + 2, n - 2);
	return s;
}

/* Die if following link (lstat lst), in directory dir, breaks the rule. */
static void link_check(const char *file, const char *option, const char *dir,
		       const char *link, const struct stat *lst)
{
	struct stat d;

	if (stat(*dir ? dir : "/", &d) < 0 || !(d.st_mode & S_ISVTX) ||
	    !(d.st_mode & S_IWOTH) || lst->st_uid == d.st_uid ||
	    lst->st_uid == geteuid())
		return;
	error_msg_and_die("refusing to write '%s' (%s): '%s' is a symbolic link of uid %u in the sticky world-writable directory '%s', whose owner is uid %u (the kernel's protected_symlinks rule): remove the link, or write elsewhere",
			  file, option, link, (unsigned)lst->st_uid,
			  *dir ? dir : "/", (unsigned)d.st_uid);
}

/* The target of symbolic link path, allocated, or NULL. */
static char *link_read(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * Walk file's components as the kernel resolves them, checking each
 * symbolic link met; stop quietly where the open will fail anyway (a
 * missing component: the last one is created), or find what it finds.
 */
static void path_check(const char *file, const char *option)
{
	char *done = xstrdup(*file == '/' ? "" : "."), *rest = xstrdup(file);
	unsigned links = 0;
	size_t pos = 0;

	for (;;) {
		char *comp, *next, *target, *spliced;
		struct stat st;
		size_t len;

		while (rest[pos] == '/')
			pos++;
		if (!rest[pos])
			break;
		len = strcspn(rest + pos, "/");
		comp = xmalloc(len + 1);
		memcpy(comp, rest + pos, len);
		comp[len] = '\0';
		pos += len;
		if (strcmp(comp, ".") == 0) {
			free(comp);
			continue;
		}
		/* done has no link in it: its ".." is the physical parent. */
		next = path_join(done, comp);
		free(comp);
		if (lstat(next, &st) < 0) {
			free(next);
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			free(done);
			done = next;
			continue;
		}
		link_check(file, option, done, next, &st);
		target = ++links <= LINKS_MAX ? link_read(next) : NULL;
		free(next);
		if (!target)
			break;
		/* The target's components come before the rest. */
		len = strlen(target) + strlen(rest + pos) + 2;
		spliced = xmalloc(len);
		snprintf(spliced, len, "%s/%s", target, rest + pos);
		if (target[0] == '/') {
			free(done);
			done = xstrdup("");
		}
		free(target);
		free(rest);
		rest = spliced;
		pos = 0;
	}
	free(done);
	free(rest);
}

/*
 * Opening an existing file with O_TRUNC waits until the writeback of its
 * old pages is done (ext4: 0.3-5 ms after a file was written and closed,
 * 60 us of it CPU), creating one costs 60-100 us: time the traced command
 * would wait for at its start.  So ltruss begins the open on a thread
 * (outfile_open_begin) as soon as it knows the command, and the open it
 * asks for later takes that descriptor (outfile_open).  The thread only
 * opens: the path's links are checked before it starts, the errors are
 * told after it is joined, as without it.
 */
static struct {
	pthread_t thread;
	bool started, link;
	const char *file;
	mode_t mode;
	int flags;
	int fd, err;
} early;

/* The thread: open the file as outfile_open would. */
static void *early_open(void *arg)
{
	(void)arg;
	early.fd = open(early.file, early.flags, early.mode);
	early.err = errno;
	return NULL;
}

/* file opened as outfile_open() would, once; false if it was not. */
static bool open_once(const char *file, mode_t mode, const char *option,
		      int *fd)
{
	struct stat st;
	bool link;

	path_check(file, option);
	link = lstat(file, &st) == 0 && S_ISLNK(st.st_mode);
	/* Not a link when checked: one made since is not followed. */
	*fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
				 (link ? 0 : O_NOFOLLOW),
		   mode);
	return *fd >= 0 || errno != ELOOP || link;
}

void outfile_open_begin(const char *file, mode_t mode, const char *option)
{
	pthread_attr_t attr;
	struct stat st;

	path_check(file, option);
	early.link = lstat(file, &st) == 0 && S_ISLNK(st.st_mode);
	early.file = file;
	early.mode = mode;
	early.flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		      (early.link ? 0 : O_NOFOLLOW);
	/* It makes one system call: a small stack. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	early.started = pthread_create(&early.thread, &attr, early_open,
				       NULL) == 0;
	pthread_attr_destroy(&attr);
}

/* The early open of file with mode, joined: true and its result in *fd if it was that one. */
static bool early_taken(const char *file, mode_t mode, int *fd)
{
	if (!early.started)
		return false;
	early.started = false;
	pthread_join(early.thread, NULL);
	if (strcmp(file, early.file) != 0 || mode != early.mode) {
		if (early.fd >= 0)
			close(early.fd);
		return false;
	}
	*fd = early.fd;
	errno = early.err;
	/* A link made at the last component since the check: walk again. */
	return early.fd >= 0 || early.err != ELOOP || early.link;
}

int outfile_open(const char *file, mode_t mode, const char *option)
{
	int fd = -1, tries;

	if (early_taken(file, mode, &fd))
		return fd;
	for (tries = 0; tries < 8; tries++)
		if (open_once(file, mode, option, &fd))
			return fd;
	return fd;
}

FILE *outfile_stream(const char *file, const char *option)
{
	int fd = outfile_open(file, 0666, option);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		perror_msg_and_die("cannot write '%s' (%s)", file, option);
	return f;
}
