/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sandboxed: a program that enters seccomp, then makes many traced calls.
 * MODE "strict": prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) (only read,
 * write, exit and sigreturn are left); "filter": seccomp(2) through
 * syscall() with a filter that kills the process on the system calls a
 * sandbox has no use for (sleeping, signalling, mapping, other processes'
 * memory), everything else allowed.  Then N calls of fix_add, the sum
 * written to stdout, and exit through SYS_exit (exit_group is not allowed
 * in strict mode).
 *
 * usage: sandboxed MODE N
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../binding/libfix.h"

#define AUDIT_ARCH_X86_64 0xc000003eu
#define KILL_ON(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

/* Enter seccomp as mode says; exit 3 if it cannot be done. */
static void enter(const char *mode)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		KILL_ON(SYS_sched_yield), KILL_ON(SYS_nanosleep),
		KILL_ON(SYS_kill), KILL_ON(SYS_tgkill), KILL_ON(SYS_mmap),
		KILL_ON(SYS_process_vm_readv), KILL_ON(SYS_getpid),
		KILL_ON(SYS_gettid), KILL_ON(SYS_sigaltstack),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };

	if (strcmp(mode, "strict") == 0) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) != 0)
			exit(3);
		return;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
		exit(3);
}

int main(int argc, char **argv)
{
	long i, n, sum = 0;
	char line[64];
	int len;

	if (argc != 3)
		return 2;
	n = atol(argv[2]);
	sum += fix_add(1, 2); /* traced before, so the thread has its state */
	enter(argv[1]);
	for (i = 0; i < n; i++)
		sum += fix_add((int)(i & 0xffff), 1);
	len = snprintf(line, sizeof(line), "sum %ld\n", sum);
	if (write(1, line, (size_t)len) != len)
		syscall(SYS_exit, 4);
	syscall(SYS_exit, 0);
	return 0;
}
