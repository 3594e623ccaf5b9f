/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * launch.c: start the traced command and wait for it.
 *
 * The interposer enters the program through LD_AUDIT, the loader's own hook
 * for this job: it is loaded before any of the program's objects and sees
 * every binding.  The session and the trace output reach it as inherited
 * file descriptors named in LTRUSS_SESSION; the interposer removes its
 * variables (and restores a user's own LD_AUDIT) so that the program sees
 * its own environment and its children run untraced.  GLIBC_TUNABLES gives
 * the loader the static TLS that the audit module costs the program
 * (common/tunables.c), and is put back as the user had it likewise.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/forward-mark.h"
#include "lib/session.h"
#include "common/tunables.h"
#include "clock.h"
#include "error.h"
#include "forward.h"
#include "launch.h"
#include "paths.h"
#include "session.h"
#include "xmalloc.h"

extern char **environ;

/*
 * Build the child's environment: the caller's, plus the interposer's
 * variables, which are malloc'd and start at index *own.  Without a
 * session (session_fd -1), the loader's dry run instead: it loads and
 * relocates every object as it would for the program (LD_WARN), then
 * exits without running any of its code (LD_TRACE_LOADED_OBJECTS).
 */
static char **child_environment(const char *interposer, int session_fd,
				size_t *own)
{
	const char *user_audit = getenv("LD_AUDIT");
	const char *user_tunables = getenv(LTR_TUNABLES);
	size_t n = 0, i, k = 0;
	struct stat st;
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 7, sizeof(*env));
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], "LD_AUDIT=", 9) == 0 ||
		    strncmp(environ[i], LTR_ENV_SESSION "=",
			    sizeof(LTR_ENV_SESSION)) == 0 ||
		    strncmp(environ[i], LTR_ENV_SAVED_AUDIT "=",
			    sizeof(LTR_ENV_SAVED_AUDIT)) == 0 ||
		    strncmp(environ[i], LTR_TUNABLES "=",
			    sizeof(LTR_TUNABLES)) == 0 ||
		    strncmp(environ[i], LTR_ENV_SAVED_TUNABLES "=",
			    sizeof(LTR_ENV_SAVED_TUNABLES)) == 0)
			continue;
		env[k++] = environ[i];
	}
	*own = k;
	if (user_audit && *user_audit) {
		env[k++] = xasprintf("LD_AUDIT=%s:%s", interposer, user_audit);
		env[k++] = xasprintf(LTR_ENV_SAVED_AUDIT "=%s", user_audit);
	} else {
		env[k++] = xasprintf("LD_AUDIT=%s", interposer);
	}
	env[k] = xmalloc(ltr_tunables_size(user_tunables));
	ltr_tunables_merge(env[k++], user_tunables);
	/* Even an empty one: the program gets back what it had. */
	if (user_tunables)
		env[k++] = xasprintf(LTR_ENV_SAVED_TUNABLES "=%s", user_tunables);
	if (session_fd < 0) {
		env[k++] = xstrdup("LD_TRACE_LOADED_OBJECTS=1");
		env[k++] = xstrdup("LD_WARN=1");
		env[k] = NULL;
		return env;
	}
	if (fstat(session_fd, &st) < 0)
		perror_msg_and_die("cannot stat the session");
	/*
	 * FD:PID:INODE: exec'd children without the fd reopen it from ltruss;
	 * then ltruss's user and pid namespaces, to say why one in another
	 * namespace cannot.
	 */
	env[k++] = xasprintf(LTR_ENV_SESSION "=%d:%d:%llu:%u:%u", session_fd,
			     (int)getpid(), (unsigned long long)st.st_ino,
			     session_ns_inode("user"), session_ns_inode("pid"));
	env[k] = NULL;
	return env;
}

static volatile pid_t child_pid;
static volatile sig_atomic_t interrupts_seen, stop_signal;
/* Set by SIGCHLD (and at the start): a child may have ended, reap. */
static volatile sig_atomic_t children_changed = 1;

/*
 * A first SIGINT or SIGTERM is the program's to act on; a second one,
 * while the program still runs (it ignores them, or ltruss cannot make
 * progress), stops ltruss itself: launch_wait() returns and the program
 * runs on untraced.  Only SIGKILL could end ltruss otherwise.
 */
static void count_interrupt(int sig)
{
	if ((sig == SIGINT || sig == SIGTERM) && ++interrupts_seen >= 2)
		stop_signal = sig;
}

/*
 * Pass sig on to the program as sent by the process that sent it to us,
 * marked (lib/forward-mark.h) with when we got it (now): when it was sent
 * to the whole process group, the program got it already and the
 * interposer drops one of the two copies (lib/forward-once.c).
 */
static void pass_on(int sig, const siginfo_t *si, uint32_t now)
{
	siginfo_t fw;

	memset(&fw, 0, sizeof(fw));
	fw.si_signo = sig;
	fw.si_code = SI_QUEUE;
	fw.si_pid = si->si_pid;
	fw.si_uid = si->si_uid;
	fw.si_ptr = (void *)(uintptr_t)ltr_forward_mark(now);
	if (syscall(SYS_rt_sigqueueinfo, child_pid, sig, &fw) < 0)
		kill(child_pid, sig);
}

/*
 * Is this signal, got at now, a second copy of the last one, from the same
 * sender within SAME_EVENT_MS?  GNU timeout signals its child (ltruss) and
 * then its process group, one system call after the other: two sends of
 * one request, which the kernel merges in an untraced program that has not
 * handled the first yet.  Passed on twice, the program would take it
 * twice; counted twice, ltruss would stop tracing.  The window is short,
 * so that a second kill a script sends on purpose still counts.
 */
#define SAME_EVENT_MS 50

static bool same_event(int sig, const siginfo_t *si, uint32_t now)
{
	static volatile sig_atomic_t last_sig;
	static volatile pid_t last_pid;
	static volatile uint32_t last_ms;
	bool same = si->si_code == SI_USER && last_sig == sig &&
		    last_pid == si->si_pid && now - last_ms < SAME_EVENT_MS;

	last_sig = sig;
	last_pid = si->si_code == SI_USER ? si->si_pid : 0;
	last_ms = now;
	return same;
}

/*
 * Pass termination requests on to the traced command, unless it got them
 * too (forward.c).  The program's own (kill(0, ...)) are no request to
 * ltruss either: they do not count as interrupts.
 */
static void forward_signal(int sig, siginfo_t *si, void *context)
{
	int saved = errno;
	/* the millisecond, wrapping: clock_gettime is async-signal-safe */
	uint32_t now = (uint32_t)(clock_mono_ns() / 1000000);

	(void)context;
	if (!signal_from_program(si) && !same_event(sig, si, now)) {
		if (child_pid > 0 && si->si_code != SI_KERNEL)
			pass_on(sig, si, now);
		count_interrupt(sig);
	}
	errno = saved;
}

/*
 * A child changed state: launch_wait() calls waitpid only then, not at
 * every pass over the rings (a system call each, thousands a second).
 * The signal also cuts short the sleep between passes.
 */
static void note_child(int sig)
{
	(void)sig;
	children_changed = 1;
}

/*
 * Forward termination requests and interrupts to the program.  An
 * interrupt ltruss was started with ignored (a background job, nohup)
 * stays ignored, as it does in the program, which inherits it.  SIGPIPE
 * is ignored (the program, forked before, keeps its own): when the reader
 * of the trace goes away (`ltruss prog 2>&1 | head`), ltruss goes on
 * draining the rings and waiting, quietly, so that the program runs on
 * unharmed, as strace does.
 */
static void install_signal_handlers(void)
{
	struct sigaction sa, old;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward_signal;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	/* The signals the interposer expects (LTR_FORWARDED_SIGS), no other. */
	for (sig = 1; sig < 64; sig++) {
		if (!ltr_forwarded_sig(sig))
			continue;
		if ((sig == SIGINT || sig == SIGQUIT) &&
		    sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sig, &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
	sa.sa_handler = note_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/* Block the signals ltruss passes on; *old gets the mask as it was. */
static void block_forwarded(sigset_t *old)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	for (sig = 1; sig < 64; sig++)
		if (ltr_forwarded_sig(sig))
			sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * In the child: keep the session fd and the compiled prototypes' (table_fd,
 * -1 if none: lib/shipped.c maps it) open, restore the signal mask, exec.
 * Signals are as ltruss found them (its handlers are installed after the
 * fork).  The report pipe's read end is close-on-exec.
 */
static void exec_child(const char *path, char **argv, char **env,
		       int session_fd, int table_fd, int report_fd,
		       const sigset_t *mask)
{
	int err;

	fcntl(session_fd, F_SETFD, 0);
	if (table_fd >= 0)
		fcntl(table_fd, F_SETFD, 0);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execve(path, argv, env);
	err = errno;
	if (write(report_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Start the child with vfork: it shares ltruss's memory until it execs,
 * and ltruss waits that long.  A fork would copy ltruss's page tables and
 * leave its pages copy-on-write, so that ltruss's first writes after it
 * fault again: about 60 page faults and 0.2 ms of every start.  The child
 * only makes system calls (exec_child) before it execs or exits; its own
 * function, so that no variable of launch_start lives across the vfork.
 *
 * The signals ltruss passes on stay blocked in ltruss until its handlers
 * are in place: the program may run before ltruss is scheduled again, and
 * a SIGTERM meant for it must not end ltruss instead.
 */
static pid_t spawn(const char *path, char **argv, char **env, int session_fd,
		   int table_fd, int report_fd, sigset_t *mask)
{
	pid_t pid;

	block_forwarded(mask);
	pid = vfork();
	if (pid == 0)
		exec_child(path, argv, env, session_fd, table_fd, report_fd,
			   mask);
	return pid;
}

/*
 * The command, started before its session is ready, waits in the
 * interposer (lib/attach.c) while ltruss loads the config and fills the
 * session.  An error meanwhile ends ltruss through exit(): the command is
 * killed and reaped first, so that it never runs untraced or half traced.
 */
static pid_t held_pid;

/* At ltruss's exit: kill the command still held, and reap it. */
static void held_kill(void)
{
	pid_t pid = held_pid;

	if (pid <= 0)
		return;
	held_pid = 0;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void launch_release(void)
{
	held_pid = 0;
}

pid_t launch_start(const char *path, char **argv, int session_fd,
		   int table_fd)
{
	size_t own, i;
	char **env = child_environment(paths_interposer(), session_fd,
				       &own);
	int report[2], err;
	sigset_t mask;
	pid_t pid;
	ssize_t n;

	if (pipe2(report, O_CLOEXEC) < 0)
		perror_msg_and_die("cannot create a pipe");
	fflush(NULL);
	pid = spawn(path, argv, env, session_fd, table_fd, report[1], &mask);
	if (pid < 0)
		perror_msg_and_die("cannot fork");
	child_pid = pid;
	install_signal_handlers();
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(report[1]);
	do
		n = read(report[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	for (i = own; env[i]; i++)
		free(env[i]);
	free(env);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		errno = err;
		perror_msg_and_die("cannot run '%s'", path);
	}
	held_pid = pid;
	atexit(held_kill);
	return pid;
}

/* In a child: exec path, stdin and stdout on /dev/null, stderr to fd. */
static void __attribute__((noreturn)) capture_exec(const char *path,
						   char **argv, char **env,
						   int fd)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	dup2(fd, STDERR_FILENO);
	execve(path, argv, env);
	_exit(127);
}

void launch_capture(const char *path, char **argv, char **env, char *buf,
		    size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fds[2];
	pid_t pid;

	buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0)
		capture_exec(path, argv, env, fds[1]);
	close(fds[1]);
	while (pid > 0 && len < size - 1 &&
	       ((n = read(fds[0], buf + len, size - 1 - len)) > 0 ||
		(n < 0 && errno == EINTR)))
		len += n > 0 ? (size_t)n : 0;
	buf[len] = '\0';
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

void launch_dry_run(const char *path, char *buf, size_t size)
{
	size_t own, i;
	char *argv[] = { (char *)path, NULL };
	char **env = child_environment(paths_interposer(), -1, &own);

	launch_capture(path, argv, env, buf, size);
	for (i = own; env[i]; i++)
		free(env[i]);
	free(env);
}

/* The outcome of a wait status. */
static struct outcome outcome_of(int status)
{
	struct outcome o = { 0, 0, 0 };

	if (WIFSIGNALED(status)) {
		o.signal = WTERMSIG(status);
		o.core_dumped = WCOREDUMP(status);
		o.exit_status = 128 + o.signal;
	} else {
		o.exit_status = WEXITSTATUS(status);
	}
	return o;
}

/*
 * Reap the children that have ended (all of them with follow, else pid);
 * report each to ended.  Returns false once there is nothing left to wait
 * for; *main_o gets pid's outcome.
 */
static bool reap(pid_t pid, bool follow, struct outcome *main_o,
		 void (*ended)(pid_t, const struct outcome *))
{
	for (;;) {
		struct outcome o;
		int status;
		pid_t r = waitpid(follow ? -1 : pid, &status, WNOHANG);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ECHILD)
			return false;
		if (r < 0)
			perror_msg_and_die("cannot wait for the traced command");
		if (r == 0)
			return true;
		o = outcome_of(status);
		if (r == pid)
			*main_o = o;
		if (ended)
			ended(r, &o);
		if (r == pid && !follow)
			return false;
	}
}

/* At most this long between two idle() calls while passes find little. */
#define IDLE_EVERY_NS 1000000

/* Sleep ns nanoseconds, or less if a child ends meanwhile (pfd, SIGCHLD). */
static void pause_ns(struct pollfd *pfd, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	if (ppoll(pfd, pfd->fd >= 0, &ts, NULL) > 0)
		children_changed = 1;
}

/*
 * How long to sleep after idle rounds with nothing to do: a pace, twice
 * as long at each round up to 1 ms (a program between two bursts), then
 * 10 ms.  It used to stay at a pace for 64 rounds: a program that makes a
 * traced call now and then (jq -n 1: 80 calls in 25 ms) kept ltruss
 * waking every 65 us all along, 200 wakes that cost more CPU time than
 * the rest of ltruss's start and end (medians of 21, perf stat).  A burst
 * that begins while ltruss sleeps waits for room in a full ring at most
 * once, as it did after the 64 rounds.
 */
static uint64_t idle_sleep_ns(unsigned idle, uint64_t pace)
{
	uint64_t ns = pace << (idle < 16 ? idle : 16);

	return idle >= 1064 ? 10000000 : ns < 1000000 ? ns : 1000000;
}

/*
 * Pacing.  The traced threads write their rings on one core while ltruss
 * reads them on another.  A reader that comes back as soon as it has
 * caught up reads each cache line right after the program wrote it (or
 * while it writes the rest of it), and loads the ring's head that the
 * program stores at every event: both cores then pay a transfer for every
 * line, several times over.  So a pass that took less than pace sleeps
 * the rest of it: ltruss takes the events a pace's worth at a time, from
 * lines the program is done with, and spends nothing spinning.  A pass
 * that took longer (ltruss is the slower side) is followed by the next at
 * once.  The caller chooses pace so that the fastest writer fills at most
 * half a ring in it: the program never waits for room because ltruss slept.
 * A child that ends wakes the sleep (its pidfd without follow, SIGCHLD),
 * and only then is waitpid called.
 */
struct outcome launch_wait(pid_t pid, bool follow, uint64_t pace,
			   size_t (*pump)(void), void (*idle)(void),
			   void (*ended)(pid_t, const struct outcome *))
{
	struct outcome o = { 0, 0, 0 };
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	unsigned idle_rounds = 0;
	uint64_t last_idle = 0;
	int slack = prctl(PR_GET_TIMERSLACK);

	/* Sleeps of a pace, not of the default 50 us slack more (this thread only). */
	prctl(PR_SET_TIMERSLACK, 1000UL);
	/* With follow, the main child's pidfd would stay readable after it. */
	if (!follow)
		pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		uint64_t start = clock_mono_ns(), took;
		size_t done = pump ? pump() : 0;

		if (children_changed) {
			children_changed = 0;
			if (!reap(pid, follow, &o, ended))
				break;
		}
		if (stop_signal) {
			warning_msg("interrupted twice (SIG%s): ltruss stops, and the program (pid %d) runs on untraced",
				    sigabbrev_np(stop_signal), (int)pid);
			o.exit_status = 128 + stop_signal;
			o.signal = 0;
			break;
		}
		if (done) {
			idle_rounds = 0;
			took = clock_mono_ns() - start;
			if (took >= pace)
				continue;
			/*
			 * ltruss keeps up: what idle() does (lines out,
			 * blocking calls, ended processes) is due even when
			 * every pass finds a call or two, but once a while.
			 */
			if (idle && start - last_idle >= IDLE_EVERY_NS) {
				idle();
				last_idle = start;
			}
			pause_ns(&pfd, pace - took);
			continue;
		}
		if (idle)
			idle();
		last_idle = start;
		if (!pump) {
			/* Nothing to drain: sleep until a child ends. */
			siginfo_t info;

			if (pfd.fd >= 0)
				poll(&pfd, 1, -1);
			else
				waitid(P_ALL, 0, &info, WEXITED | WNOWAIT);
			children_changed = 1;
		} else {
			pause_ns(&pfd, idle_sleep_ns(idle_rounds, pace));
		}
		idle_rounds++;
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack);
	if (pump)
		pump();
	return o;
}

bool launch_stopped(void)
{
	return stop_signal != 0;
}
