/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * processes.c: one "+++ exited" or "+++ killed" line per traced process.
 *
 * Sources: ltruss's own wait (its child, and orphans it adopts as a
 * subreaper); what traced processes record in the session (lib/process.c):
 * their own exit status, and the wait status of children they reap;
 * /proc/PID/stat of a zombie, whose exit_code field is the wait status.
 * A process whose end none of these saw (reaped inside libc, by system()
 * say) is reported with an unknown status.
 *
 * Traced processes write the session: what they record is a hint of when
 * to look, and the status shown is the kernel's whenever it still has one
 * (ltruss's wait, a zombie's exit_code).  Only for a process another
 * process reaped is the recorded status used, and only if it is one a
 * process can end with; entries whose pid no traced process can have are
 * ignored (session-check.c).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "clock.h"
#include "error.h"
#include "format.h"
#include "pidns.h"
#include "processes.h"
#include "reader.h"
#include "refusal.h"
#include "slots.h"
#include "session-check.h"
#include "trace.h"
#include "tracefile-write.h"

static struct ltr_session *session;
static int trace_on;
/* The pid whose end each entry was reported for (0: not yet). */
static pid_t reported[LTR_MAX_PROCS];
/* Whether each entry's recorded exit was counted in procs_released. */
static bool released[LTR_MAX_PROCS];

void processes_init(struct ltr_session *s, int tracing)
{
	session = s;
	trace_on = tracing;
}

/* Number of registered process entries. */
static uint32_t nprocs(void)
{
	return session_procs_used(session);
}

/*
 * Entry i's pid in its own namespace, and the pid ltruss found for it;
 * lookups: how many /proc scans it has cost.
 */
struct seen {
	uint32_t ns;
	pid_t local, pid; /* pid -1: not found */
	uint32_t lookups;
};

/*
 * Scans of /proc an entry may cost: one at its registration, one at an
 * exec or two.  The session is the program's to write: an entry that
 * keeps changing its namespace and pid would make every look at it a
 * scan of all processes; past this, it keeps what was found last.
 */
#define SEEN_LOOKUPS_MAX 4

static struct seen seen[LTR_MAX_PROCS];

/*
 * The pid ltruss sees of entry i, which registered under its pid in
 * namespace ns, which could not tell it (bin/pidns.c): looked up once
 * for each (ns, pid) it names, a few times at most.
 */
static pid_t seen_pid(uint32_t i, uint32_t ns, pid_t local)
{
	struct seen *s = &seen[i];

	if ((s->ns != ns || s->local != local || !s->pid) &&
	    s->lookups < SEEN_LOOKUPS_MAX) {
		s->lookups++;
		s->ns = ns;
		s->local = local;
		s->pid = pidns_find(ns, local);
		if (!s->pid)
			s->pid = -1;
	}
	return s->pid;
}

/* The pid of entry i, or 0 if no traced process can have it. */
static pid_t entry_pid(uint32_t i)
{
	const struct ltr_process *p = &session->procs[i];
	pid_t pid = __atomic_load_n(&p->pid, __ATOMIC_RELAXED);
	uint32_t ns = __atomic_load_n(&p->pidns, __ATOMIC_RELAXED);

	/* Its own pid, from a namespace other than ltruss's. */
	if (ns && ns != __atomic_load_n(&session->reader_pidns,
					 __ATOMIC_RELAXED) &&
	    pid == __atomic_load_n(&p->local_pid, __ATOMIC_RELAXED))
		pid = seen_pid(i, ns, pid);
	return check_pid(pid) ? pid : 0;
}

/* Is entry i an earlier image of a pid that exec'd since (or no process)? */
static bool superseded(uint32_t i, uint32_t n)
{
	pid_t pid = entry_pid(i);
	uint32_t j;

	for (j = i + 1; j < n && pid; j++)
		if (entry_pid(j) == pid)
			return true;
	return !pid;
}

/*
 * Mark every entry of pid reported; false if one already was for pid (an
 * entry reported for another pid and rewritten since does not count).
 */
static bool mark_reported(pid_t pid)
{
	uint32_t i, n = nprocs();
	bool fresh = true;

	for (i = 0; i < n; i++) {
		if (reported[i] == pid)
			fresh = false;
		if (entry_pid(i) == pid)
			reported[i] = pid;
	}
	return fresh;
}

/*
 * Count pid's entries that recorded their exit as released (its slots
 * were just handed back): a thread that finds no slot free waits while
 * some exited process is not released yet (lib/thread.c).
 */
static void exits_released(pid_t pid)
{
	uint32_t i, n = nprocs(), k = 0;

	for (i = 0; i < n; i++)
		if (reported[i] == pid && !released[i] &&
		    __atomic_load_n(&session->procs[i].state,
				    __ATOMIC_ACQUIRE) == LTR_PROC_EXITED) {
			released[i] = true;
			k++;
		}
	if (k)
		__atomic_fetch_add(&session->procs_released, k,
				   __ATOMIC_RELEASE);
}

/*
 * Did the loader stop pid before its program started, pid being other
 * than the program ltruss started (ltruss.c explains that one)?
 */
static bool stopped_loading(pid_t pid)
{
	int which = processes_never_started(pid);

	return which == 2 || (which == 1 && pid != entry_pid(0));
}

/* Print pid's end once: exit status, or killing signal. */
static void report(pid_t pid, int exit_status, int sig, bool core)
{
	uint32_t i, n = nprocs();
	uint64_t now = clock_tsc();

	if (!mark_reported(pid))
		return;
	if (exit_status == 127 && !sig && stopped_loading(pid))
		refusal_warn(pid);
	/* Lines say whose they are once there are several processes (-c's "+++ killed" too). */
	for (i = 1; i < n && !fmt_seen.processes; i++)
		if (entry_pid(i) && entry_pid(i) != entry_pid(0))
			format_seen_process();
	if (trace_on) {
		if (tracefile_recording())
			tracefile_process_end(pid, now, exit_status, sig, core,
					      fmt_seen.processes);
		trace_process_end(pid, now, exit_status, sig, core);
	}
	/* Last: its events are out (drained, then reported) before its slots go. */
	slots_release(session, pid);
	exits_released(pid);
}

/* Report pid's end from a wait status. */
static void report_wait_status(pid_t pid, int status)
{
	if (WIFSIGNALED(status))
		report(pid, 128 + WTERMSIG(status), WTERMSIG(status),
		       WCOREDUMP(status));
	else
		report(pid, WEXITSTATUS(status), 0, false);
}

static int zombie_status(pid_t pid);

/*
 * Report pid, which recorded that it exited with status or (state
 * LTR_PROC_REAPED) that its parent reaped it with wait status status:
 * with the kernel's status when it is a zombie, else the recorded one if
 * a process can end so, else as unknown.
 */
static void report_recorded(pid_t pid, uint32_t state, int status)
{
	int kernel = zombie_status(pid);

	if (kernel >= 0)
		report_wait_status(pid, kernel);
	else if (state == LTR_PROC_EXITED && status >= 0 && status <= 255)
		report(pid, status, 0, false);
	else if (state == LTR_PROC_REAPED && check_wait_status(status))
		report_wait_status(pid, status);
	else
		report(pid, -1, 0, false);
}

/*
 * Has pid stopped running: reaped, or a zombie?  A process records
 * LTR_PROC_EXITED from an exit handler, and may still make traced calls
 * after it (the loader's destructors, __cxa_finalize): its end is reported
 * only once it runs no more, so that those calls come before it.
 */
static bool process_gone(pid_t pid)
{
	return (kill(pid, 0) < 0 && errno == ESRCH) || zombie_status(pid) >= 0;
}

size_t processes_pump(void)
{
	uint32_t n = nprocs(), i;
	uint32_t state[LTR_MAX_PROCS];
	size_t done;

	/* Read the states first: their events are in the rings by then. */
	for (i = 0; i < n; i++) {
		state[i] = reported[i] || !entry_pid(i) ? 0 :
			   __atomic_load_n(&session->procs[i].state,
					   __ATOMIC_ACQUIRE);
		/* Still running its exit (or a record was forged): later. */
		if ((state[i] == LTR_PROC_EXITED ||
		     state[i] == LTR_PROC_REAPED) &&
		    !process_gone(entry_pid(i)))
			state[i] = 0;
	}
	done = reader_drain(session);
	for (i = 0; i < n; i++) {
		/* Most entries are running: look for a later image only when needed. */
		if (state[i] != LTR_PROC_EXITED && state[i] != LTR_PROC_REAPED)
			continue;
		if (!superseded(i, n))
			report_recorded(entry_pid(i), state[i],
					__atomic_load_n(&session->procs[i].status,
							__ATOMIC_RELAXED));
	}
	return done;
}

void processes_reaped(pid_t pid, const struct outcome *o)
{
	reader_drain(session);
	report(pid, o->exit_status, o->signal, o->core_dumped);
}

/*
 * The wait status of zombie pid from /proc, or -1.  A thread group leader
 * that called pthread_exit() is a zombie too while its other threads run
 * on (its exit_code is 0 then): only a zombie that is the last of its
 * threads (num_threads 1) has ended.
 */
static int zombie_status(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long field, threads = 0;
	int i, status = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		/* After "pid (comm)": state is field 3, num_threads field
		 * 20, exit_code field 52. */
		if (p && p[1] == ' ' && p[2] == 'Z') {
			p += 3;
			for (i = 4; i <= 52 && p; i++) {
				p = strchr(p, ' ');
				if (p && (i == 20 || i == 52) &&
				    sscanf(p, " %llu", &field) == 1) {
					if (i == 20)
						threads = field;
					else if (threads == 1)
						status = (int)field;
				}
				if (p)
					p++;
			}
		}
	}
	fclose(f);
	return status;
}

/* Slots of the table of pids latest_entries() fills: a power of two, over twice LTR_MAX_PROCS. */
#define PID_SLOTS (2 * LTR_MAX_PROCS)

/*
 * The pids of the entries not reported yet that no later entry of the
 * same pid supersedes, each read once, into todo[]; their number.  One
 * pass from the end, with a table of the pids met (superseded() for all
 * entries at once).  The table is emptied slot by slot after the pass,
 * not cleared whole before it: 32 KiB cleared at each look cost a short
 * run 9 page faults for the few slots it uses.
 */
static uint32_t latest_entries(uint32_t n, pid_t *todo)
{
	static pid_t met[PID_SLOTS];            /* all 0 between calls */
	static uint32_t filled[LTR_MAX_PROCS]; /* the slots this pass set */
	uint32_t i, k = 0, h, nfilled = 0;

	for (i = n; i-- > 0;) {
		pid_t pid = entry_pid(i);

		if (!pid)
			continue;
		h = ((uint32_t)pid * 2654435761u) & (PID_SLOTS - 1);
		while (met[h] && met[h] != pid)
			h = (h + 1) & (PID_SLOTS - 1);
		if (met[h])
			continue;
		met[h] = pid;
		filled[nfilled++] = h;
		if (!reported[i])
			todo[k++] = pid;
	}
	while (nfilled)
		met[filled[--nfilled]] = 0;
	return k;
}

/*
 * Look for processes that ended without recording it (killed): each look
 * reads /proc/PID/stat of every process not reported yet, so it is made
 * at most every ZOMBIE_SCAN_NS, not at each idle moment (with -f and
 * hundreds of processes asleep, that was most of a core).
 */
#define ZOMBIE_SCAN_NS 50000000ull

/* Report the processes not reported yet that are zombies now. */
static void zombies_report(void)
{
	pid_t todo[LTR_MAX_PROCS];
	uint32_t n, i;

	n = latest_entries(nprocs(), todo);
	for (i = 0; i < n; i++) {
		int status = zombie_status(todo[i]);

		if (status < 0)
			continue;
		reader_drain(session);
		report_wait_status(todo[i], status);
	}
}

void processes_idle(void)
{
	static uint64_t last_scan;
	uint64_t now = clock_mono_ns();

	if (now - last_scan < ZOMBIE_SCAN_NS)
		return;
	last_scan = now;
	zombies_report();
}

void processes_finish(void)
{
	pid_t left[LTR_MAX_PROCS];
	uint32_t n, i;

	processes_pump();
	/* Those that ended since the last look, with their status. */
	zombies_report();
	n = latest_entries(nprocs(), left);
	/* In the order the processes registered (left[] is latest first). */
	for (i = n; i-- > 0;)
		report(left[i], -1, 0, false);
}

bool processes_registered(pid_t pid)
{
	uint32_t n = nprocs(), i;

	for (i = 0; i < n; i++)
		if (session->procs[i].pid == pid)
			return true;
	return false;
}

int processes_never_started(pid_t pid)
{
	uint32_t n = nprocs(), i, images = 0, last = 0;

	for (i = 0; i < n; i++)
		if (entry_pid(i) == pid)
			images++, last = i;
	if (!images || __atomic_load_n(&session->procs[last].started,
				       __ATOMIC_ACQUIRE))
		return 0;
	return images == 1 ? 1 : 2;
}

bool processes_any(void)
{
	return nprocs() > 0;
}
