/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.c: create and fill the shared-memory session (lib/session.h). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <time.h>
#include <unistd.h>

#include "captures.h"
#include "error.h"
#include "fd-util.h"
#include "session.h"
#include "session-slots.h"

/* The command line argv, joined by spaces, into buf (cut with "..."). */
static void command_line(char *buf, size_t size, char *const *argv)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; *argv && n < size; argv++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      n ? " " : "", *argv);
	if (n >= size)
		memcpy(buf + size - 4, "...", 4);
}

uint32_t session_ns_inode(const char *kind)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", kind);
	return stat(path, &st) == 0 ? (uint32_t)st.st_ino : 0;
}

void session_create(struct session_handle *h, uint32_t ring_size)
{
	uint64_t size = ltr_session_size(ring_size);
	struct ltr_session *s;
	int fd;

	fd = memfd_create("ltruss-session", MFD_CLOEXEC);
	if (fd < 0)
		perror_msg_and_die("cannot create the shared-memory session");
	fd = fd_move_high(fd);
	/*
	 * A memfd is made 0777.  Only the user can reach it anyway (through
	 * /proc/PID/fd, which the kernel guards), but a descriptor inherited
	 * by a process that changes its uid must not open it again through
	 * /proc: 0600, and the interposer checks it (lib/attach.c).
	 */
	if (fchmod(fd, 0600) < 0)
		perror_msg_and_die("cannot make the shared-memory session private");
	/* The slots are mapped as they are taken (session-slots.c). */
	if (ftruncate(fd, (off_t)size) < 0)
		perror_msg_and_die("cannot size the shared-memory session");
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		perror_msg_and_die("cannot map the shared-memory session");
	/* Not valid yet: the command started meanwhile waits for it. */
	s->magic = LTR_SESSION_PENDING;
	h->s = s;
	h->fd = fd;
	h->ring_size = ring_size;
}

void session_fill(struct session_handle *h, const struct options *opts,
		  bool events)
{
	struct ltr_session *s = h->s;
	struct timespec now;

	s->version = LTR_SESSION_VERSION;
	s->header_size = (uint32_t)sizeof(*s);
	s->total_size = ltr_session_size(h->ring_size);
	s->ring_size = h->ring_size;
	s->owner_uid = (uint32_t)geteuid();
	/* Shared by the threads that find no slot of their own: always taken. */
	s->slot_used[LTR_MAX_THREADS - 1] = LTR_SLOT_TAKEN;
	/* Always counted: a console may ask for the numbers at any time. */
	s->flags = (events ? LTR_F_TRACE : 0) | LTR_F_COUNT |
		   (opts->drop ? LTR_F_DROP : 0) |
		   (opts->follow ? LTR_F_FOLLOW : 0);
	s->reader_pid = getpid();
	s->reader_pidns = session_ns_inode("pid");
	s->owner_pid = getpid();
	clock_gettime(CLOCK_REALTIME, &now);
	s->start_time = (uint64_t)now.tv_sec * 1000000000ull +
			(uint64_t)now.tv_nsec;
	command_line(s->command, sizeof(s->command), opts->argv);
	s->depth_limit = opts->cfg.depth;
	/* Printed at -s; copied whole for a playback (-w --whole). */
	s->strsize = opts->whole ? LTR_WHOLE_MAX : opts->cfg.strsize;
	s->stack_size = opts->stack ? LTR_STACK_SIZE_DEFAULT : 0;
	s->nrules = (uint32_t)opts->cfg.sel.nrules;
	memcpy(s->rules, opts->cfg.sel.rules,
	       opts->cfg.sel.nrules * sizeof(s->rules[0]));
	s->nfrom = (uint32_t)opts->cfg.sel.nfrom;
	memcpy(s->from, opts->cfg.sel.from,
	       opts->cfg.sel.nfrom * sizeof(s->from[0]));
	captures_compile(s, &opts->cfg);
	session_slots_init(s, h->fd, h->ring_size);
}

void session_ready(struct session_handle *h)
{
	/* The magic goes last: a session is valid only once it is complete. */
	__atomic_store_n(&h->s->magic, LTR_SESSION_MAGIC, __ATOMIC_RELEASE);
	/* The command may wait on its first word (lib/attach.c). */
	syscall(SYS_futex, &h->s->magic, FUTEX_WAKE, 1, NULL, NULL, 0);
}
