/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slot-map.c: map the session's thread slots as this process's threads take them.
 *
 * A slot (counters, then ring) is 1.8 MB with the default ring, and the
 * session has 512: mapped whole in every traced process, they took more
 * address space than many programs have under `ulimit -v`.  So a process
 * maps the header and the shared slot at attach (lib/attach.c), and each
 * other slot when one of its threads takes it, through ltruss's
 * /proc/PID/fd (the descriptor it inherited is closed by then: the
 * program's descriptors stay its own).  A mapping stays for the process's
 * life, and is inherited by a forked child, which maps its own slots the
 * same way (with -f).  When a slot cannot be mapped (no address space
 * left), the thread counts in the shared slot, without events.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "interposer.h"

struct ltr_thread *ltr_slot_shared;
static struct ltr_thread *mapped[LTR_MAX_THREADS]; /* atomic */

struct ltr_thread *ltr_slot_map(uint32_t i)
{
	struct ltr_thread *slot, *none = NULL;
	static int warned;
	long p;
	int fd;

	if (i >= LTR_MAX_THREADS - 1)
		return ltr_slot_shared;
	slot = __atomic_load_n(&mapped[i], __ATOMIC_ACQUIRE);
	if (slot)
		return slot;
	if (!ltr_sys_ok(SYS_mmap) || (fd = ltr_session_reopen()) < 0)
		return NULL;
	p = ltr_syscall6(SYS_mmap, 0, (long)ltr_slot_size(ltr_ring_size),
			 PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (long)ltr_slot_offset(i, ltr_ring_size));
	ltr_syscall3(SYS_close, fd, 0, 0);
	if (p < 0 && p > -4096) {
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			ltr_warn("warning", p == -ENOMEM
				? "no address space left for a thread's ring (ENOMEM): threads are counted, not traced, until there is (raise ulimit -v, or make rings smaller with --buffer)"
				: "cannot map a thread's ring: threads are counted, not traced");
		return NULL;
	}
	slot = (struct ltr_thread *)p;
	if (!__atomic_compare_exchange_n(&mapped[i], &none, slot, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		ltr_syscall3(SYS_munmap, p, (long)ltr_slot_size(ltr_ring_size), 0);
		slot = none;
	}
	return slot;
}

void ltr_slots_leave(void)
{
	uint32_t i;

	for (i = 0; i < LTR_MAX_THREADS; i++) {
		struct ltr_thread *slot = i < LTR_MAX_THREADS - 1
			? __atomic_load_n(&mapped[i], __ATOMIC_ACQUIRE)
			: ltr_slot_shared;
		uint64_t size = i < LTR_MAX_THREADS - 1
			? ltr_slot_size(ltr_ring_size)
			: ltr_page_up(sizeof(*slot));
		long p;

		if (!slot)
			continue;
		p = ltr_syscall6(SYS_mmap, (long)slot, (long)size,
				 PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
					 MAP_NORESERVE, -1, 0);
		/* Without spare address space, unmapping is still better than leaking. */
		if (p != (long)slot)
			ltr_syscall3(SYS_munmap, (long)slot, (long)size, 0);
	}
}
