/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * console-attach.c: open a registered session and make sure it is one.
 *
 * An entry of the registry (registry.c) names ltruss's pid, its descriptor
 * of the session memfd and the memfd's inode.  The console opens the memfd
 * through /proc/PID/fd/FD and trusts it only when every check passes:
 *  - the process exists (else: stale) and is the user's (kill(pid, 0)
 *    fails with EPERM otherwise; the kernel would refuse the open anyway);
 *  - the descriptor is still the memfd named (same inode; else the ltruss
 *    is gone and its pid reused: stale), a file of the user's;
 *  - the header is the contract's (magic, version, size), made for this
 *    user (owner_uid) by that very ltruss (owner_pid).
 * Stale entries are reported and removed; the others are refused.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "console.h"
#include "error.h"
#include "registry.h"
#include "session-check.h"
#include "session-slots.h"

/* What the checks found. */
enum verdict {
	SESSION_OK,
	SESSION_STALE,   /* its ltruss has exited */
	SESSION_FOREIGN, /* another user's */
	SESSION_BAD,     /* cannot be used: why says */
};

/* Open and check the session of entry e; *out is its mapping if OK. */
static enum verdict session_map(const struct registry_entry *e,
				struct ltr_session **out, char *why,
				size_t size)
{
	struct ltr_session *s;
	char path[64];
	struct stat st;
	int fd;

	if (kill(e->pid, 0) < 0)
		return errno == ESRCH ? SESSION_STALE : SESSION_FOREIGN;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", e->pid, e->fd);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return SESSION_STALE;
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		return SESSION_FOREIGN;
	if (fd < 0) {
		snprintf(why, size, "cannot open %s: %s", path, strerror(errno));
		return SESSION_BAD;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_ino != (ino_t)e->ino) {
		close(fd);
		return SESSION_STALE;
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		return SESSION_FOREIGN;
	}
	s = (size_t)st.st_size < sizeof(*s) ? MAP_FAILED :
		mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED) {
		close(fd);
		snprintf(why, size, "cannot map %s", path);
		return SESSION_BAD;
	}
	if (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != LTR_SESSION_MAGIC ||
	    s->version != LTR_SESSION_VERSION || s->header_size != sizeof(*s)) {
		close(fd);
		munmap(s, sizeof(*s));
		snprintf(why, size, "it was made by another version of ltruss");
		return SESSION_BAD;
	}
	if (s->owner_uid != geteuid() || s->owner_pid != e->pid) {
		close(fd);
		munmap(s, sizeof(*s));
		return s->owner_uid != geteuid() ? SESSION_FOREIGN : SESSION_STALE;
	}
	/* Its thread slots (counters) are mapped as they are read. */
	session_slots_init(s, fd, s->ring_size);
	*out = s;
	return SESSION_OK;
}

/*
 * Check the session of e: say what is wrong (an error if fatal, else a
 * warning); a stale entry is removed.
 */
static enum verdict session_check(const struct registry_entry *e,
				  struct ltr_session **out, bool fatal)
{
	char why[256] = "", msg[512];
	enum verdict v = session_map(e, out, why, sizeof(why));

	if (v == SESSION_OK)
		return v;
	if (v == SESSION_STALE) {
		registry_forget(e->pid);
		snprintf(msg, sizeof(msg),
			 "session %d is stale (ltruss exited): its entry is removed",
			 e->pid);
	} else if (v == SESSION_FOREIGN) {
		snprintf(msg, sizeof(msg),
			 "session %d is not yours: only the user who runs an ltruss can attach to it",
			 e->pid);
	} else {
		snprintf(msg, sizeof(msg), "cannot attach to session %d: %s",
			 e->pid, why);
	}
	if (fatal)
		error_msg_and_die("%s", msg);
	warning_msg("%s", msg);
	return v;
}

void console_attach(struct console *c, int pid)
{
	struct registry_entry e, *list;
	struct ltr_session *s = NULL, *newest = NULL;
	size_t n, i;

	memset(c, 0, sizeof(*c));
	if (pid) {
		if (!registry_find(pid, &e))
			error_msg_and_die("no ltruss session %d in %s: 'sessions' in the console lists them",
					  pid, registry_path());
		session_check(&e, &newest, true);
		c->pid = pid;
	} else {
		n = registry_list(&list);
		for (i = 0; i < n; i++) {
			if (session_check(&list[i], &s, false) != SESSION_OK)
				continue;
			if (newest && newest->start_time >= s->start_time) {
				munmap(s, sizeof(*s));
				continue;
			}
			if (newest)
				munmap(newest, sizeof(*newest));
			newest = s;
			c->pid = list[i].pid;
		}
		free(list);
		if (!newest)
			error_msg_and_die("no running ltruss session of yours (in %s): start one, e.g. 'ltruss -o FILE COMMAND'",
					  registry_path());
	}
	c->s = newest;
}

/* The start of session s as local time, "YYYY-MM-DD HH:MM:SS". */
static const char *start_text(const struct ltr_session *s, char *buf,
			      size_t size)
{
	time_t t = (time_t)(s->start_time / 1000000000ull);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%F %T", &tm))
		snprintf(buf, size, "?");
	return buf;
}

const char *console_command_line(const struct ltr_session *s)
{
	static char command[4 * sizeof(s->command) + 1];
	char raw[sizeof(s->command)];

	/*
	 * The traced program can write there: nothing for the terminal to
	 * obey, a C1 control in UTF-8 (CSI as 0xc2 0x9b) no more than ESC.
	 */
	memcpy(raw, s->command, sizeof(raw));
	raw[sizeof(raw) - 1] = '\0';
	return check_text(command, sizeof(command), raw);
}

/* Print session s of ltruss pid (mine: the console's own). */
static void session_print(FILE *out, const struct ltr_session *s, int pid,
			  bool mine)
{
	char start[32];

	fprintf(out, "%c %7d  %-19s  %s\n", mine ? '*' : ' ', pid,
		start_text(s, start, sizeof(start)), console_command_line(s));
}

void console_sessions(const struct console *c, FILE *out)
{
	struct registry_entry *list;
	size_t n = registry_list(&list), i;

	fprintf(out, "      PID  STARTED              COMMAND\n");
	for (i = 0; i < n; i++) {
		struct ltr_session *s;

		if (list[i].pid == c->pid) {
			session_print(out, c->s, c->pid, true);
			continue;
		}
		fflush(out);
		if (session_check(&list[i], &s, false) != SESSION_OK)
			continue;
		session_print(out, s, list[i].pid, false);
		munmap(s, sizeof(*s));
	}
	free(list);
}
