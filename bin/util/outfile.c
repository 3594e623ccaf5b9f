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

/* Would following a link (lstat lst) in directory dir break the rule?  *dir_owner: its owner. */
static bool link_refused(const char *dir, const struct stat *lst,
			 uid_t *dir_owner)
{
	struct stat d;

	if (stat(*dir ? dir : "/", &d) < 0 || !(d.st_mode & S_ISVTX) ||
	    !(d.st_mode & S_IWOTH) || lst->st_uid == d.st_uid ||
	    lst->st_uid == geteuid())
		return false;
	*dir_owner = d.st_uid;
	return true;
}

/*
 * Refuse file (of option) for link, met in dir: the paths copied and the
 * walk's buffers (done, next, rest) freed first, so that nothing is left
 * allocated at the exit (a leak checker would add lines to the one error).
 */
static void __attribute__((noreturn))
refuse(const char *file, const char *option, char *done, char *next,
       char *rest, const struct stat *lst, uid_t dir_owner)
{
	char dir[PATH_MAX], link[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", *done ? done : "/");
	snprintf(link, sizeof(link), "%s", next);
	free(done);
	free(next);
	free(rest);
	error_msg_and_die("refusing to write '%s' (%s): '%s' is a symbolic link of uid %u in the sticky world-writable directory '%s', whose owner is uid %u (the kernel's protected_symlinks rule): remove the link, or write elsewhere",
			  file, option, link, (unsigned)lst->st_uid, dir,
			  (unsigned)dir_owner);
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
	uid_t owner;

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
		if (link_refused(done, &st, &owner))
			refuse(file, option, done, next, rest, &st, owner);
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

int outfile_open(const char *file, mode_t mode, const char *option)
{
	struct stat st;
	int fd = -1, tries;

	for (tries = 0; tries < 8; tries++) {
		bool link;

		path_check(file, option);
		link = lstat(file, &st) == 0 && S_ISLNK(st.st_mode);
		/* Not a link when checked: one made since is not followed. */
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
					(link ? 0 : O_NOFOLLOW),
			  mode);
		if (fd >= 0 || errno != ELOOP || link)
			return fd;
	}
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
