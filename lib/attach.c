/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attach.c: find and map the session, then give the program its environment back.
 *
 * ltruss passes the session as an inherited memfd: LTRUSS_SESSION names
 * its descriptor, ltruss's pid and the memfd's inode.  The descriptor is
 * closed once mapped, so the program's descriptors stay its own; a process
 * that did not inherit it (exec'd by a traced process, with -f) opens the
 * same memfd as /proc/PID/fd/FD.  The inode must match, the file must be
 * our uid's and the header must say it was made for our uid with this
 * contract version.  The variables ltruss added are then removed from the
 * environment array in place (the program's libc reads the same array
 * later) and a user's own LD_AUDIT is put back, so the program and its
 * children see exactly the environment they would have had (GLIBC_TUNABLES
 * too, which ltruss sets for the loader: common/tunables.c); an exec, and
 * with -f a spawn, carries them again into the next program (lib/exec.c).
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#include "arch/x86_64/cpu.h"
#include "frames.h"
#include "hooks.h"
#include "interposer.h"
#include "process.h"
#include "sys.h"
#include "../common/tunables.h"

struct ltr_session *ltr_session;
uint32_t ltr_flags;
uint32_t ltr_ring_size;
bool ltr_no_hijack;

#define ARCH_SHSTK_STATUS 0x5005
#define ARCH_SHSTK_SHSTK 0x1

/*
 * A CET shadow stack makes every hijacked return fault: the hardware
 * compares each ret with its own copy of the return address.  With one
 * enabled, calls are traced on entry only (no return values, no times).
 * glibc 2.39 and later enable it after the audit modules are loaded, so
 * this is asked at each thread's first traced call (the first return that
 * could be hijacked), not at attach: threads inherit it, or get their own.
 * A thread with one gets a shadow stack of depth 0 (capture.c).
 */
bool ltr_check_shadow_stack(void)
{
	static int warned;
	unsigned long features = 0;

	if (!ltr_sys_ok(158 /* SYS_arch_prctl */) ||
	    ltr_syscall3(158 /* SYS_arch_prctl */, ARCH_SHSTK_STATUS,
			 (long)&features, 0) != 0 ||
	    !(features & ARCH_SHSTK_SHSTK))
		return false;
	__atomic_store_n(&ltr_no_hijack, true, __ATOMIC_RELAXED);
	if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		ltr_warn("warning", "the CET shadow stack is on: calls are traced on entry only, without return values or times");
	return true;
}

#define SIGPIPE_BIT (1ull << (SIGPIPE - 1))

/*
 * Write n bytes of buf to the program's stderr, which may be a pipe whose
 * reader is gone: SIGPIPE is blocked meanwhile, and one the write raised
 * is taken back, so that a message of ours never kills the program.
 */
static void write_stderr(const char *buf, size_t n)
{
	uint64_t block = SIGPIPE_BIT, old, pending = 0;
	struct timespec zero = { 0, 0 };
	bool was_pending;

	ltr_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&block, (long)&old,
		     8, 0, 0);
	ltr_syscall3(SYS_rt_sigpending, (long)&pending, 8, 0);
	was_pending = pending & SIGPIPE_BIT;
	ltr_syscall3(SYS_write, 2, (long)buf, (long)n);
	pending = 0;
	ltr_syscall3(SYS_rt_sigpending, (long)&pending, 8, 0);
	if (!was_pending && (pending & SIGPIPE_BIT))
		ltr_syscall6(SYS_rt_sigtimedwait, (long)&block, 0, (long)&zero,
			     8, 0, 0);
	ltr_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

/*
 * Does the session trace a process other than pid (as ltruss sees it)?
 * Then, as trace lines do, ltruss's messages say whose they are.
 */
static bool others_traced(int32_t pid)
{
	uint32_t n, i;

	n = __atomic_load_n(&ltr_session->nprocs, __ATOMIC_ACQUIRE);
	for (i = 0; i < n && i < LTR_MAX_PROCS; i++) {
		int32_t other = __atomic_load_n(&ltr_session->procs[i].pid,
						__ATOMIC_RELAXED);

		if (other > 0 && other != pid)
			return true;
	}
	return false;
}

/* "[pid N] " at line when several processes are traced (N: this thread's id); its length. */
static size_t pid_prefix(char *line)
{
	int32_t pid, tid;
	size_t n;

	if (!ltr_session || !(ltr_flags & LTR_F_FOLLOW) ||
	    ltr_creds_left_here() || !ltr_sys_ok(SYS_getpid) ||
	    !ltr_sys_ok(SYS_gettid))
		return 0;
	ltr_pidns_view((int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0),
		       (int32_t)ltr_syscall3(SYS_gettid, 0, 0, 0), &pid, &tid);
	if (!others_traced(pid))
		return 0;
	ltr_strlcpy(line, "[pid ", 6);
	n = 5 + ltr_utoa(line + 5, (uint32_t)tid);
	ltr_strlcpy(line + n, "] ", 3);
	return n + 2;
}

void ltr_warn(const char *msg, const char *detail)
{
	char line[512];
	size_t n = pid_prefix(line);

	ltr_strlcpy(line + n, "ltruss: ", sizeof(line) - n);
	n = ltr_strlen(line);
	ltr_strlcpy(line + n, msg, sizeof(line) - n);
	n = ltr_strlen(line);
	if (detail) {
		ltr_strlcpy(line + n, ": ", sizeof(line) - n);
		n = ltr_strlen(line);
		ltr_strlcpy(line + n, detail, sizeof(line) - n);
		n = ltr_strlen(line);
	}
	if (n < sizeof(line) - 1)
		line[n++] = '\n';
	write_stderr(line, n);
}

/* The value of environment variable name (name without '='), or NULL. */
static char **env_find(const char *name)
{
	char **e;

	for (e = ltr_environ; e && *e; e++)
		if (ltr_env_is(*e, name))
			return e;
	return NULL;
}

const char *ltr_getenv(const char *name)
{
	char **e = env_find(name);

	return e ? *e + ltr_strlen(name) + 1 : NULL;
}

/* Remove the entry at e from the environment array, keeping the order. */
static void env_remove(char **e)
{
	for (; *e; e++)
		e[0] = e[1];
}

/* Parse a decimal number ending at a ':' or the end of s; -1 if it is not one. */
static long long parse_number(const char **s)
{
	long long v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > 100000000000000000LL)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (*p != ':' && *p != '\0')
		return -1;
	*s = *p ? p + 1 : p;
	return v;
}

/* Is fd the session memfd: a regular file of ours, 0600, with this inode? */
static bool is_session_fd(int fd, long long ino)
{
	struct stat st;

	return fd >= 0 && ltr_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (long long)st.st_ino == ino && st.st_uid == ltr_geteuid() &&
	       !(st.st_mode & 077) &&
	       (size_t)st.st_size >= sizeof(struct ltr_session);
}

/*
 * Why a process cannot open ltruss's session, when it is in another user
 * or pid namespace than ltruss (userns, pidns from LTRUSS_SESSION; 0 if
 * not given): into why (size bytes); false if it is not that.
 */
static bool other_namespace(long long userns, long long pidns,
			    long long pid, char *why, size_t size)
{
	unsigned long mine;

	if (userns > 0 && (mine = ltr_ns_inode("user")) &&
	    (long long)mine != userns) {
		ltr_format(why, size, "this process is in another user namespace (user:[%llu]) than ltruss (user:[%llu]), which may not open its session",
			   (unsigned long long)mine, (unsigned long long)userns);
		return true;
	}
	if (pidns > 0 && (mine = ltr_ns_inode("pid")) &&
	    (long long)mine != pidns) {
		ltr_format(why, size, "this process is in another pid namespace (pid:[%llu]) than ltruss (pid:[%llu]), whose /proc does not show ltruss's pid %llu",
			   (unsigned long long)mine, (unsigned long long)pidns,
			   (unsigned long long)pid);
		return true;
	}
	return false;
}

/*
 * Write "/proc/PID/fd/FD" into path (64 bytes), "/proc/thread-self/fd/FD"
 * if pid < 0 (not /proc/self: once the main thread has called
 * pthread_exit, /proc/self is a zombie's, with no descriptors to show,
 * while the other threads still take slots).
 */
static void proc_fd_path(char *path, long long pid, long long fd)
{
	size_t n;

	ltr_strlcpy(path, pid < 0 ? "/proc/thread-self" : "/proc/", 64);
	n = ltr_strlen(path);
	if (pid >= 0)
		n += ltr_utoa(path + n, (uint32_t)pid);
	ltr_strlcpy(path + n, "/fd/", 5);
	ltr_utoa(path + n + 4, (uint32_t)fd);
}

/* is_session_fd for ltr_peer_open: arg points to the inode. */
static bool is_session(int fd, const void *arg)
{
	return is_session_fd(fd, *(const long long *)arg);
}

int ltr_peer_open(long long pid, long long fd, int flags,
		  bool (*is)(int fd, const void *arg), const void *arg)
{
	char path[64];
	int pfd, rfd;

	/*
	 * Whatever the number names is looked at through O_PATH before it
	 * is opened, so that a stale or made-up value never opens a device
	 * (a terminal would become the controlling one) or a FIFO.
	 */
	proc_fd_path(path, pid, fd);
	pfd = ltr_open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (!is(pfd, arg)) {
		ltr_close(pfd);
		return -1;
	}
	proc_fd_path(path, -1, pfd);
	rfd = ltr_open(path, flags | O_CLOEXEC | O_NOCTTY);
	ltr_close(pfd);
	return rfd < 0 ? -1 : rfd;
}

/* Whose the session is, as LTRUSS_SESSION names it: ltruss's pid; taken as inherited. */
static long long session_pid = -1;
static bool session_inherited;

/*
 * Open the session named by value "FD:PID:INODE[:USERNS:PIDNS]"; -1 if it
 * cannot be had, with why (size bytes) saying so.  The descriptor FD is
 * taken as it is only if inherited (at attach): later, that number may be
 * the program's.
 */
static int session_open(const char *value, bool inherited, char *why,
			size_t size)
{
	long long fd, pid, ino, userns = 0, pidns = 0;
	int rfd;

	ltr_strlcpy(why, "the session in " LTR_ENV_SESSION " is gone or not this user's",
		    size);
	fd = parse_number(&value);
	pid = fd < 0 ? -1 : parse_number(&value);
	ino = pid < 0 ? -1 : parse_number(&value);
	if (ino < 0 || fd > 1000000 || pid > 10000000)
		return -1;
	if (*value) {
		userns = parse_number(&value);
		pidns = userns < 0 ? -1 : parse_number(&value);
	}
	session_pid = pid;
	session_inherited = inherited && is_session_fd((int)fd, ino);
	if (session_inherited)
		return (int)fd;
	/* Not inherited (exec'd by a traced process): ltruss still has it. */
	rfd = ltr_peer_open(pid, fd, O_RDWR, is_session, &ino);
	if (rfd < 0)
		other_namespace(userns, pidns, pid, why, size);
	return rfd;
}

/*
 * GLIBC_TUNABLES back as the user had it, or gone (common/tunables.c): the
 * saved entry without its "LTRUSS_SAVED_" is the user's whole entry.
 */
static void tunables_restore(void)
{
	char **saved = env_find(LTR_ENV_SAVED_TUNABLES), **e;
	char *user = saved ? *saved + LTR_SAVED_PREFIX_LEN : NULL;

	if (saved)
		env_remove(saved);
	e = env_find(LTR_TUNABLES);
	if (e && user)
		*e = user;
	else if (e)
		env_remove(e);
}

/* Remove ltruss's variables; restore the user's LD_AUDIT if there was one. */
static void env_restore(void)
{
	static char saved_audit[4096] = "LD_AUDIT=";
	char **e;

	if ((e = env_find(LTR_ENV_SESSION)))
		env_remove(e);
	e = env_find(LTR_ENV_SAVED_AUDIT);
	if (e) {
		ltr_strlcpy(saved_audit + 9, *e + sizeof(LTR_ENV_SAVED_AUDIT),
			    sizeof(saved_audit) - 9);
		env_remove(e);
		if ((e = env_find("LD_AUDIT")))
			*e = saved_audit;
	} else if ((e = env_find("LD_AUDIT"))) {
		env_remove(e);
	}
	tunables_restore();
}

/*
 * Do the slots' bounds, as the session's header gives them, make sense
 * and lie within the file fd?  Only then are they mapped.
 */
static bool rings_fit(const struct ltr_session *s, int fd)
{
	uint32_t size = s->ring_size;
	struct stat st;

	return size >= LTR_RING_SIZE_MIN && size <= LTR_RING_SIZE_MAX &&
	       !(size & (size - 1)) && s->total_size == ltr_session_size(size) &&
	       ltr_fstat(fd, &st) == 0 && (uint64_t)st.st_size >= s->total_size;
}

/*
 * Warn that the session cannot be mapped (what), saying why (err, the
 * mmap's errno); tell ltruss too (in the header s, mapped writable), which
 * would otherwise look for a reason in the loader.
 */
static void map_failed(struct ltr_session *s, const char *what, int err)
{
	char why[160];

	if (s && err == ENOMEM)
		__atomic_store_n(&s->attach_enomem, 1, __ATOMIC_RELAXED);

	ltr_format(why, sizeof(why), "%s: %s%s", what,
		   err == ENOMEM ? "no address space left (ENOMEM)"
				 : "mmap failed",
		   err == ENOMEM ? ", raise the limit (ulimit -v)" : "");
	ltr_warn("not tracing", why);
}

/*
 * ltruss starts the command before its session is complete
 * (bin/ltruss.c), so that the command's exec and loading run on another
 * core while ltruss loads the config and fills the session.  The
 * command's own process finds the magic LTR_SESSION_PENDING, which
 * ltruss wrote when it made the memfd, and waits here, in la_version,
 * before any of the program's code has run, until ltruss stores
 * LTR_SESSION_MAGIC and wakes the futex on its first word.  Any other
 * file (zeros, another version's) is checked at once, as ever.  An
 * ltruss that exits on an error first kills the command (bin/launch.c).
 * An ltruss killed or crashed meanwhile cannot: the wait is bounded by
 * its life, the process checks every READY_CHECK_NS that its parent is
 * still ltruss.  With ltruss gone nobody would trace the command nor see
 * its trace, and it was asked to run traced, not half or not at all: it
 * exits with 127 and a line saying why, none of its code run.
 */
#define READY_CHECK_NS 10000000L

/* Wait until ltruss made session s ready (its magic), or exit if ltruss is gone. */
static void session_wait_ready(struct ltr_session *s)
{
	const uint32_t *word = (const uint32_t *)&s->magic;
	const uint32_t pending = (uint32_t)LTR_SESSION_PENDING;
	struct timespec check = { 0, READY_CHECK_NS }, nap = { 0, 100000 };
	long ret;

	_Static_assert((uint32_t)LTR_SESSION_MAGIC !=
			       (uint32_t)LTR_SESSION_PENDING,
		       "the magic's first word says the session is ready");
	/* Only a session ltruss made waits: any other file is checked at once. */
	if (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != LTR_SESSION_PENDING)
		return;
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == pending) {
		if (ltr_syscall3(SYS_getppid, 0, 0, 0) != session_pid) {
			ltr_warn("not tracing",
				 "ltruss ended before the command's session was ready: the command was not run");
			ltr_syscall3(SYS_exit_group, 127, 0, 0);
		}
		ret = ltr_syscall6(SYS_futex, (long)word, FUTEX_WAIT, pending,
				   (long)&check, 0, 0);
		/* Refused (seccomp): nap, and look again. */
		if (ret != 0 && ret != -EAGAIN && ret != -ETIMEDOUT &&
		    ret != -EINTR)
			ltr_syscall3(SYS_nanosleep, (long)&nap, 0, 0);
	}
}

/*
 * Map the session of fd, once its header checks out: the part of the
 * header the interposer uses, and the slot shared by the threads that get
 * none of their own (the others are mapped as threads take them,
 * slot-map.c); NULL if not.
 */
/*
 * What is mapped first, to check the header's first fields (session_map)
 * before the rest of it is: one page.
 */
#define SESSION_PROBE 4096
_Static_assert(offsetof(struct ltr_session, total_size) +
		       sizeof(uint64_t) <= SESSION_PROBE &&
	       offsetof(struct ltr_session, ring_size) + sizeof(uint32_t) <=
		       SESSION_PROBE,
	       "the fields session_map checks lie in its first mapping");

static struct ltr_session *session_map(int fd)
{
	struct ltr_session *s, *whole;
	uint32_t ring;
	void *shared;

	s = ltr_mmap(NULL, SESSION_PROBE, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	if (ltr_map_error(s)) {
		map_failed(NULL, "cannot map the session", ltr_map_error(s));
		return NULL;
	}
	if (session_inherited)
		session_wait_ready(s);
	if (s->magic != LTR_SESSION_MAGIC || s->version != LTR_SESSION_VERSION ||
	    s->header_size != sizeof(*s) || s->owner_uid != ltr_geteuid() ||
	    !rings_fit(s, fd)) {
		ltr_warn("not tracing",
			 "the session was made by another ltruss version or user");
		ltr_munmap(s, SESSION_PROBE);
		return NULL;
	}
	ring = s->ring_size;
	whole = ltr_mmap(NULL, ltr_header_size_lib(), PROT_READ | PROT_WRITE,
		     MAP_SHARED, fd, 0);
	if (ltr_map_error(whole)) {
		map_failed(s, "cannot map the session", ltr_map_error(whole));
		ltr_munmap(s, SESSION_PROBE);
		return NULL;
	}
	ltr_munmap(s, SESSION_PROBE);
	shared = ltr_mmap(NULL, ltr_page_up(sizeof(struct ltr_thread)),
		      PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)ltr_slot_offset(LTR_MAX_THREADS - 1, ring));
	if (ltr_map_error(shared)) {
		map_failed(whole, "cannot map the session's thread slots",
			   ltr_map_error(shared));
		ltr_munmap(whole, ltr_header_size_lib());
		return NULL;
	}
	ltr_slot_shared = shared;
	ltr_ring_size = ring;
	return whole;
}

/* LTRUSS_SESSION's value, for ltr_session_reopen. */
static char session_value[128];

int ltr_session_reopen(void)
{
	char why[256];

	return session_open(session_value, false, why, sizeof(why));
}

void ltr_attach(void)
{
	struct ltr_session *s;
	char why[256];
	char **e, **audit;
	int fd;

	e = env_find(LTR_ENV_SESSION);
	if (!e)
		return; /* loaded without ltruss: stay inert */
	ltr_strlcpy(session_value, *e + sizeof(LTR_ENV_SESSION),
		    sizeof(session_value));
	fd = session_open(session_value, true, why, sizeof(why));
	if (fd < 0) {
		ltr_warn("not tracing", why);
		env_restore();
		return;
	}
	s = session_map(fd);
	ltr_close(fd);
	if (!s) {
		env_restore();
		return;
	}
	/* What an exec must carry into the next program (lib/exec.c). */
	audit = env_find("LD_AUDIT");
	ltr_exec_remember(*e, audit ? *audit + sizeof("LD_AUDIT") : NULL);
	env_restore();
	ltr_flags = s->flags;
	ltr_session = s;
	ltr_shipped_map(s, session_pid, session_inherited);
	ltr_stack_init();
	ltr_fork_guard_init();
}
