/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safe-read.c: copy the program's memory without ever faulting.
 *
 * An argument said to be a string may be any pointer: NULL, freed, a small
 * integer the prototype got wrong.  Reading it directly could kill the
 * program, and a SIGSEGV handler of our own would fight the program's.
 * process_vm_readv(2) on our own pid copies through the kernel instead: a
 * bad address makes it return short or fail with EFAULT, nothing more.
 * (Reading one's own memory needs no ptrace permission.)  The kernel does
 * not split one iovec on a fault, so the source is given page by page and
 * the copy stops at the first page that cannot be read.
 *
 * Both functions first try the fast copy (fault-copy.c), a plain copy that
 * survives a fault; the system call is the path when that one is off.
 */
#include <sys/syscall.h>
#include <sys/uio.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "interposer.h"

#define PAGE 4096u
#define MAX_PAGES 8

size_t ltr_read_mem(int pid, void *dst, uintptr_t src, size_t len)
{
	struct iovec local, remote[MAX_PAGES];
	size_t n = 0, done = 0;
	long got;

	if (!len || src < PAGE || !ltr_sys_ok(SYS_process_vm_readv))
		return 0;
	if (len > MAX_PAGES * PAGE - src % PAGE) /* as much as the syscall reads */
		len = MAX_PAGES * PAGE - src % PAGE;
	if (ltr_fault_copy(dst, src, len, false, &done))
		return done;
	while (done < len && n < MAX_PAGES) {
		size_t chunk = PAGE - (src + done) % PAGE;

		if (chunk > len - done)
			chunk = len - done;
		remote[n].iov_base = (void *)(src + done);
		remote[n].iov_len = chunk;
		n++;
		done += chunk;
	}
	local.iov_base = dst;
	local.iov_len = done;
	got = ltr_syscall6(SYS_process_vm_readv, pid,
			   (long)&local, 1, (long)remote, (long)n, 0);
	return got > 0 ? (size_t)got : 0;
}

long ltr_read_word(int pid, uintptr_t src, uint64_t *v)
{
	struct iovec local = { v, sizeof(*v) }, remote = { (void *)src, sizeof(*v) };
	size_t done = 0;
	long got;

	if (ltr_fault_copy(v, src, sizeof(*v), false, &done))
		return done == sizeof(*v) ? 0 : -14 /* EFAULT */;
	if (!ltr_sys_ok(SYS_process_vm_readv))
		return -1 /* EPERM: cannot tell */;
	got = ltr_syscall6(SYS_process_vm_readv, pid, (long)&local, 1,
			   (long)&remote, 1, 0);

	return got == sizeof(*v) ? 0 : got < 0 ? got : -14 /* EFAULT */;
}

long ltr_read_string(int pid, char *dst, uintptr_t src, size_t max,
		     bool *cut)
{
	size_t have = 0;

	*cut = false;
	if (src >= PAGE && ltr_fault_copy(dst, src, max + 1, true, &have)) {
		if (have && dst[have - 1] == '\0')
			return (long)have - 1;
		if (have == max + 1) {
			*cut = true;
			return (long)max;
		}
		*cut = have > 0; /* a fault after have bytes */
		return have ? (long)have : -1;
	}
	while (have < max + 1) {
		size_t want = PAGE - (src + have) % PAGE, got, i;

		if (want > max + 1 - have)
			want = max + 1 - have;
		got = ltr_read_mem(pid, dst + have, src + have, want);
		for (i = 0; i < got; i++)
			if (dst[have + i] == '\0')
				return (long)(have + i);
		have += got;
		if (got < want) { /* the next page cannot be read */
			*cut = have > 0;
			return have ? (long)have : -1;
		}
	}
	*cut = true;
	return (long)max;
}

