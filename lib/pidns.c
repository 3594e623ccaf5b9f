/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidns.c: a thread's pid and tid as ltruss sees them, in its pid namespace.
 *
 * A traced program may start processes in a pid namespace of their own
 * (unshare -p, containers, sandboxes): there, getpid() is 1, 2, ... and
 * means nothing to ltruss, which waits for processes, reads their /proc
 * and prints "[pid N]" and exit lines in its own namespace, the one the
 * user sees.  So what a process writes into the session for ltruss (its
 * process entry, its threads' slots and THREAD events) is in ltruss's
 * namespace, and what the interposer uses for its own system calls stays
 * local.  ltruss records its namespace (the inode of /proc/self/ns/pid) in
 * the session; a thread of another one reads its ids from
 * /proc/thread-self/status (Tgid, Pid), which are those of the namespace
 * of the /proc mounted there: ltruss's, unless the namespace has its own
 * /proc, and then nothing of ltruss can be seen anyway.  Only raw system
 * calls: this runs at a thread's first traced call.  The namespaces are
 * also what lib/attach.c names when a process cannot reach the session.
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "interposer.h"
#include "process.h"

/* The decimal number after the first occurrence of key in s, or -1. */
static long long number_after(const char *s, const char *key)
{
	size_t klen = ltr_strlen(key);
	long long v = -1;

	for (; *s; s++) {
		size_t i;

		for (i = 0; i < klen && s[i] == key[i]; i++)
			;
		if (i < klen)
			continue;
		for (s += klen; *s == ' ' || *s == '\t'; s++)
			;
		for (v = 0; *s >= '0' && *s <= '9' && v < 1000000000; s++)
			v = v * 10 + (*s - '0');
		return v;
	}
	return v;
}

uint32_t ltr_ns_inode(const char *kind)
{
	char path[32] = "/proc/self/ns/", link[64], key[16];
	long long ino;
	long n;

	ltr_strlcpy(path + 14, kind, sizeof(path) - 14);
	n = ltr_syscall6(SYS_readlinkat, AT_FDCWD, (long)path, (long)link,
			 sizeof(link) - 1, 0, 0);
	link[n > 0 ? n : 0] = '\0';
	ltr_strlcpy(key, kind, sizeof(key) - 2);
	ltr_strlcpy(key + ltr_strlen(key), ":[", 3);
	ino = number_after(link, key);
	return ino > 0 ? (uint32_t)ino : 0;
}

uint32_t ltr_pidns_of(int32_t pid)
{
	static int32_t cached_pid; /* the process the cache is for (fork) */
	static uint32_t cached_ns;

	if (pid == __atomic_load_n(&cached_pid, __ATOMIC_ACQUIRE))
		return cached_ns;
	if (!ltr_sys_ok(SYS_readlinkat))
		return 0;
	cached_ns = ltr_ns_inode("pid");
	__atomic_store_n(&cached_pid, pid, __ATOMIC_RELEASE);
	return cached_ns;
}

uint32_t ltr_pidns_self(void)
{
	return ltr_pidns_of((int32_t)ltr_syscall3(SYS_getpid, 0, 0, 0));
}

/*
 * The pid and tid of the calling thread as the /proc mounted sees them
 * (ltruss's namespace), into *pid and *tid if they can be read.  Its
 * own frame: the first traced call of a thread, maybe in a handler on a
 * small stack, has the buffer on it only in another namespace.
 */
static __attribute__((noinline)) void view_read(int32_t *pid, int32_t *tid)
{
	char buf[512]; /* Tgid and Pid are lines 4 and 6 */
	long long p, t;
	long fd, n;

	fd = ltr_syscall6(SYS_openat, AT_FDCWD, (long)"/proc/thread-self/status",
			  O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return;
	n = ltr_syscall3(SYS_read, fd, (long)buf, sizeof(buf) - 1);
	ltr_syscall3(SYS_close, fd, 0, 0);
	buf[n > 0 ? n : 0] = '\0';
	p = number_after(buf, "\nTgid:");
	t = number_after(buf, "\nPid:");
	if (p > 0 && t > 0) {
		*pid = (int32_t)p;
		*tid = (int32_t)t;
	}
}

void ltr_pidns_view(int32_t local_pid, int32_t local_tid, int32_t *pid,
		    int32_t *tid)
{
	uint32_t ns = ltr_pidns_of(local_pid);

	*pid = local_pid;
	*tid = local_tid;
	if (ns == 0 || ns == ltr_session->reader_pidns ||
	    !ltr_sys_ok(SYS_openat) || !ltr_sys_ok(SYS_read) ||
	    !ltr_sys_ok(SYS_close))
		return;
	view_read(pid, tid);
}
