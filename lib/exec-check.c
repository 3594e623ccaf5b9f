/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec-check.c: will the program an exec runs load the interposer?
 *
 * The session reaches the next program through LD_AUDIT, which only the
 * dynamic loader of this architecture reads, and not in secure mode.  So
 * an exec into a statically linked program, a program for another
 * architecture (32-bit x86, say) or a set-user-ID or set-group-ID one
 * runs untraced, and the user must be told: ltruss cannot see it from
 * outside, since that program never joins the session.  The exec hooks
 * (exec.c) ask here first, once per exec, with the file they are about
 * to run; a script is judged by its interpreter, as the kernel runs it.
 *  - another architecture: the session is not carried at all, or that
 *    loader would print its own error about LD_AUDIT into the program's
 *    output;
 *  - set-user-ID or set-group-ID: not carried either (the loader ignores
 *    it, and the program would only find LTRUSS_SESSION in its
 *    environment);
 *  - statically linked: still carried, so that the programs it runs in
 *    turn (a static shell's commands) are traced again, and what it loads
 *    (valgrind's tools are static programs that load the program with its
 *    own dynamic loader, which reads LD_AUDIT).
 * Only raw system calls: this runs in a vfork child too.
 */
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"
#include "process.h"

#define INTERP_DEPTH 4   /* scripts run by scripts, as the kernel allows */
#define PHDRS_MAX 64     /* program headers read to find PT_INTERP */
#define PHDRS_READ 8     /* ... so many at a time: the stack may be small */

/* Why a program will not load the interposer. */
enum untraceable {
	LOADS_US,
	SECURE,
	STATIC,
	FOREIGN,
};

static const char *const why_text[] = {
	[SECURE] = "not tracing a set-user-ID or set-group-ID program",
	/* valgrind's tools are static, and the program they load is traced. */
	[STATIC] = "statically linked, not traced itself (what it runs or loads still is)",
	[FOREIGN] = "not tracing a program for another architecture",
};

/* Read n bytes of fd at off into buf: the bytes read, or -1. */
static long read_at(int fd, void *buf, size_t n, long off)
{
	return ltr_syscall6(SYS_pread64, fd, (long)buf, (long)n, off, 0, 0);
}

/* Has the ELF file fd (header eh) a PT_INTERP program header? */
static bool has_interp(int fd, const Elf64_Ehdr *eh)
{
	Elf64_Phdr ph[PHDRS_READ];
	unsigned n = eh->e_phnum < PHDRS_MAX ? eh->e_phnum : PHDRS_MAX, i, k;

	if (eh->e_phentsize != sizeof(Elf64_Phdr))
		return true; /* cannot tell: let the loader decide */
	for (i = 0; i < n; i += k) {
		unsigned j;

		k = n - i < PHDRS_READ ? n - i : PHDRS_READ;
		if (read_at(fd, ph, k * sizeof(*ph),
			    (long)(eh->e_phoff + i * sizeof(*ph))) !=
		    (long)(k * sizeof(*ph)))
			return true;
		for (j = 0; j < k; j++)
			if (ph[j].p_type == PT_INTERP)
				return true;
	}
	return false;
}

/*
 * The interpreter of the "#!" line in buf (n bytes), copied to interp
 * (size bytes); false if there is none.
 */
static bool script_interp(const char *buf, long n, char *interp, size_t size)
{
	long i = 2, k = 0;

	while (i < n && (buf[i] == ' ' || buf[i] == '\t'))
		i++;
	while (i < n && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' &&
	       k < (long)size - 1)
		interp[k++] = buf[i++];
	interp[k] = '\0';
	return k > 0 && interp[0] == '/';
}

static enum untraceable untraceable_at(int dirfd, const char *path, int depth);

/*
 * What makes the script whose first n bytes are buf untraceable: its
 * interpreter's.  Its own frame, so that only a script's check (nested
 * at most INTERP_DEPTH deep) has the interpreter's path on the stack.
 */
static __attribute__((noinline)) enum untraceable
untraceable_script(const char *buf, long n, int depth)
{
	char interp[256];

	return depth < INTERP_DEPTH &&
			       script_interp(buf, n, interp, sizeof(interp))
		       ? untraceable_at(AT_FDCWD, interp, depth + 1)
		       : LOADS_US;
}

/* What makes the program in file fd untraceable (see untraceable_at). */
static enum untraceable untraceable_fd(int fd, int depth)
{
	union {
		Elf64_Ehdr eh;
		char bytes[256]; /* the kernel reads no more of a "#!" line */
	} buf;
	long n = read_at(fd, buf.bytes, sizeof(buf.bytes), 0);

	if (n >= 2 && buf.bytes[0] == '#' && buf.bytes[1] == '!')
		return untraceable_script(buf.bytes, n, depth);
	if (n < (long)sizeof(Elf64_Ehdr) ||
	    buf.eh.e_ident[EI_MAG0] != ELFMAG0 ||
	    buf.eh.e_ident[EI_MAG1] != ELFMAG1 ||
	    buf.eh.e_ident[EI_MAG2] != ELFMAG2 ||
	    buf.eh.e_ident[EI_MAG3] != ELFMAG3)
		return LOADS_US; /* not a program the kernel runs: the exec fails */
	if (buf.eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    buf.eh.e_machine != EM_X86_64)
		return FOREIGN;
	return has_interp(fd, &buf.eh) ? LOADS_US : STATIC;
}

/*
 * Does the program at path (relative to dirfd), whose status is st, run
 * in secure mode: set-user-ID or set-group-ID to another id, on a file
 * system that honours it?  The mount is asked only of such a file,
 * through O_PATH, which needs no read permission (su is mode 4711).
 */
static bool runs_secure(int dirfd, const char *path, const struct stat *st)
{
	struct statfs fs;
	bool suid, sgid;
	long fd, r;

	suid = (st->st_mode & S_ISUID) &&
	       st->st_uid != (uid_t)ltr_syscall3(SYS_geteuid, 0, 0, 0);
	sgid = (st->st_mode & S_ISGID) && (st->st_mode & S_IXGRP) &&
	       st->st_gid != (gid_t)ltr_syscall3(SYS_getegid, 0, 0, 0);
	if (!suid && !sgid)
		return false;
	fd = ltr_syscall6(SYS_openat, dirfd, (long)path, O_PATH | O_CLOEXEC,
			  0, 0, 0);
	if (fd < 0)
		return false;
	r = ltr_syscall3(SYS_fstatfs, fd, (long)&fs, 0);
	ltr_syscall3(SYS_close, fd, 0, 0);
	return r == 0 && !(fs.f_flags & ST_NOSUID);
}

/*
 * Why the loader will not load the interposer into the program at path
 * (relative to dirfd; "" with AT_EMPTY_PATH: dirfd itself), if it won't.
 */
static enum untraceable untraceable_at(int dirfd, const char *path, int depth)
{
	enum untraceable why;
	struct stat st;
	long fd;

	if (!ltr_sys_ok(SYS_openat) || !ltr_sys_ok(SYS_pread64) ||
	    !ltr_sys_ok(SYS_close) || !ltr_sys_ok(SYS_newfstatat) ||
	    !ltr_sys_ok(SYS_fstatfs))
		return LOADS_US;
	if (!path[0])
		return untraceable_fd(dirfd, depth);
	/*
	 * Only a regular file is opened: opening a FIFO would wait for a
	 * writer, a device could act (a tape rewinds); neither can be run.
	 */
	if (ltr_syscall6(SYS_newfstatat, dirfd, (long)path, (long)&st, 0, 0,
			 0) != 0 || !S_ISREG(st.st_mode))
		return LOADS_US; /* the exec will say why itself */
	if (!depth && runs_secure(dirfd, path, &st))
		return SECURE;
	fd = ltr_syscall6(SYS_openat, dirfd, (long)path,
			  O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0, 0, 0);
	if (fd < 0)
		return LOADS_US;
	why = untraceable_fd((int)fd, depth);
	ltr_syscall3(SYS_close, fd, 0, 0);
	return why;
}

bool ltr_exec_carries_into(int dirfd, const char *path)
{
	enum untraceable why = untraceable_at(dirfd, path, 0);

	if (why != LOADS_US)
		ltr_warn(why_text[why], path[0] ? path : "(a file descriptor)");
	return why == LOADS_US || why == STATIC;
}

bool ltr_exec_search_carries(const char *file, const char *path)
{
	const char *dir = path ? path : "/bin:/usr/bin", *end;
	size_t len = ltr_strlen(file), n;
	struct ltr_scratch mem;
	bool carries = true;
	char *full;

	if (!ltr_sys_ok(SYS_faccessat) || !(full = ltr_scratch_take(&mem, 4096)))
		return true;
	for (;; dir = end + 1) {
		for (end = dir; *end && *end != ':'; end++)
			;
		n = (size_t)(end - dir);
		/* An empty entry is the current directory. */
		if (!n) {
			dir = ".";
			n = 1;
		}
		if (n + 2 + len <= 4096) {
			ltr_strlcpy(full, dir, n + 1);
			full[n] = '/';
			ltr_strlcpy(full + n + 1, file, len + 1);
			if (ltr_syscall3(SYS_faccessat, AT_FDCWD, (long)full,
					 X_OK) == 0) {
				carries = ltr_exec_carries_into(AT_FDCWD, full);
				break;
			}
		}
		if (!*end)
			break; /* not found: the exec fails itself */
	}
	ltr_scratch_give(&mem);
	return carries;
}
