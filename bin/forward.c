/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forward.c: which signals ltruss gets the program got too.
 *
 * ltruss runs in the program's process group: it is the job the shell
 * started.  A signal sent to ltruss alone (kill PID, a script's timeout,
 * a supervisor that knows only its child) must reach the program as if
 * ltruss were not there, so ltruss passes it on.  A signal sent to the
 * group reached the program already; passed on, it would come twice, and
 * a program that takes a second SIGTERM for "force quit" would change
 * its behaviour.  The siginfo tells:
 *  - SI_KERNEL: the terminal signalled its foreground group (^C, ^\, a
 *    hangup), the program in it;
 *  - a signal sent by the program or by a process it started (si_pid
 *    descends from ltruss): kill(0, ...) and kill(-pgid, ...) reached the
 *    program; one sent to ltruss alone (its parent, as the program sees
 *    it) was meant for its parent, not for itself.
 * So ltruss passes on what it gets, but for these two.
 * What siginfo does not say is whether a process outside sent the signal
 * to the group (kill -TERM -PGID) or to ltruss alone (kill PID): both are
 * SI_USER from the same pid.  Those are passed on, marked: the
 * interposer drops the mark of one the program got too
 * (lib/forward-once.c).
 */
#include <fcntl.h>
#include <unistd.h>

#include "forward.h"

/* How many parents are looked up before giving up (a deep tree of children). */
#define ANCESTORS_MAX 64

/* Append s at d; returns the end.  (snprintf is not async-signal-safe.) */
static char *put(char *d, const char *s)
{
	while (*s)
		*d++ = *s++;
	return d;
}

/* The parent of pid, from /proc/PID/stat; 0 if unknown.  Async-signal-safe. */
static pid_t parent_of(pid_t pid)
{
	char path[32], digits[12], buf[512], *d = digits + sizeof(digits);
	const char *p = NULL;
	unsigned spaces = 0;
	long ppid = 0;
	ssize_t n, i;
	int fd;

	*--d = '\0';
	do
		*--d = (char)('0' + pid % 10);
	while ((pid /= 10) > 0);
	*put(put(put(path, "/proc/"), d), "/stat") = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The name may hold anything: the fields start after its last ')'. */
	for (i = 0; i < n; i++)
		if (buf[i] == ')')
			p = buf + i + 1;
	/* ") S PPID ...": the state, then the parent. */
	for (; p && *p && spaces < 2; p++)
		spaces += *p == ' ';
	for (; p && *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return (pid_t)ppid;
}

/* Is pid a descendant of ltruss (the program, or a process it started)? */
static bool descends_from_us(pid_t pid)
{
	pid_t self = getpid();
	unsigned i;

	for (i = 0; i < ANCESTORS_MAX && pid > 1; i++) {
		pid = parent_of(pid);
		if (pid == self)
			return true;
	}
	return false;
}

bool signal_from_program(const siginfo_t *si)
{
	/* Sent by a process (kill, sigqueue, tgkill): which one? */
	return si->si_code <= 0 && si->si_pid > 0 && si->si_pid != getpid() &&
	       descends_from_us(si->si_pid);
}
