/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rets.c: the real return addresses of hijacked calls, kept where a return
 * can always find them.
 *
 * A hijacked slot does not hold one trampoline address for all calls but
 * the entry k of a table of LTR_RETS (ltr_tramp_of(k)), and
 * entry k of the thread's rets[] keeps the real return address.  So a
 * return finds its address from the value it returned through, not from
 * the shadow stack: a frame dropped while its stack was away (a coroutine
 * library that copies stacks out and back in: the others overwrite its
 * slots meanwhile) returns where it should whenever its bytes come back,
 * and two coroutines suspended at the same stack place cannot take each
 * other's return.
 *
 * An entry is freed when its return passes, or when nothing can return
 * through it any more.  A dropped frame is either dead (longjmp) or away
 * (copied out), and nothing tells them apart: its slot was overwritten in
 * both cases.  So the entries of dropped frames stay taken; when a thread
 * runs out of them, a reclaim looks for each entry's value in every
 * private writable mapping of the process (the copies of stacks live
 * there), and frees those of dropped frames found nowhere: a slot can only
 * come back holding a value that is still somewhere in memory.  What the
 * reclaim cannot see: bytes another thread moves from a part not yet read
 * to a part already read while it runs, and bytes kept in shared memory,
 * out of memory, or transformed; a process with more than SCAN_MAX of such
 * memory gets no reclaim at all.  If nothing can be freed,
 * the thread's further calls are traced on entry only until returns free
 * entries again: never an address lost.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "interposer.h"
#include "process.h"

#define SCAN_BUF (32u << 10)  /* read at a time: ltr_read_mem's most */
/*
 * The buffer a reclaim maps: 8 bytes carried over, a read, then the text
 * of /proc/self/maps (not on the stack: a coroutine's may be small).
 */
#define MAPS_BUF 4096
#define SCAN_MAP (SCAN_BUF + 4096 + MAPS_BUF)
#define SCAN_MAX (1ull << 30) /* bytes read at most by one reclaim */
#define RECLAIM_FIRST (LTR_RETS / 4) /* frames dropped before a reclaim */
#define RECLAIM_MAX (1u << 24)

/* What a reclaim found: which entries some word of memory holds. */
struct scan {
	const struct ltr_tstate *ts;
	unsigned char *buf;          /* 8 bytes carried over, then a read */
	uintptr_t next;              /* the address after the last read */
	uint64_t carry;              /* its last 8 bytes */
	uint64_t bytes;              /* read so far */
	bool cut;                    /* past SCAN_MAX: nothing may be freed */
	uint64_t seen[LTR_RETS / 64];
};

void ltr_rets_forget(struct ltr_tstate *ts)
{
	uint32_t k;

	/* Only the entries ever taken: the others' pages stay untouched. */
	for (k = 0; k < ts->fresh && k < LTR_RETS; k++)
		ts->rets[k].slot = NULL;
	ts->nfree = 0;
	ts->fresh = 0;
	ts->dropped = 0;
	ts->reclaim_at = RECLAIM_FIRST;
}

/*
 * Mark in s->seen the entries held by the n bytes at p, at any alignment
 * (a stack copied from an odd address keeps its words misaligned).  A
 * candidate is found by its byte 5, which every entry shares.
 */
static void scan_bytes(struct scan *s, const unsigned char *p, size_t n)
{
	const unsigned char b5 = (unsigned char)(ltr_tramp_of(0) >> 40);
	uint64_t v;
	uint32_t k;
	size_t i;

	for (i = 0; i + 8 <= n; i++) {
		if (p[i + 5] != b5)
			continue;
		__builtin_memcpy(&v, p + i, 8);
		if (!ltr_is_tramp(v))
			continue;
		k = ltr_tramp_index(v);
		s->seen[k / 64] |= 1ull << (k % 64);
	}
}

/* Mark in s->seen the entries that the bytes of [lo, hi) hold. */
static void scan_range(struct scan *s, uintptr_t lo, uintptr_t hi)
{
	size_t got;

	while (lo < hi && !s->cut) {
		/* A value across two reads: the last 8 bytes come along. */
		if (lo != s->next)
			s->carry = 0;
		__builtin_memcpy(s->buf, &s->carry, 8);
		got = ltr_read_mem(s->ts->pid, s->buf + 8, lo,
				   hi - lo < SCAN_BUF ? hi - lo : SCAN_BUF);
		if (!got) { /* an unreadable page: the next one */
			lo = (lo | 4095) + 1;
			continue;
		}
		scan_bytes(s, s->buf, got + 8);
		__builtin_memcpy(&s->carry, s->buf + got, 8);
		lo += got;
		s->next = lo;
		s->bytes += got;
		s->cut = s->bytes > SCAN_MAX;
	}
}

/*
 * ltr_maps_walk's step: read a private writable mapping (not a device's),
 * but for our own buffer (the kernel may have merged it with its neighbours).
 */
static bool scan_mapping(const struct ltr_mapping *m, void *arg)
{
	struct scan *s = arg;
	uintptr_t buf = (uintptr_t)s->buf;

	if (!m->readable || !m->writable || !m->private || m->device ||
	    m->lo == (uintptr_t)ltr_session)
		return true;
	if (buf >= m->lo && buf < m->hi) {
		scan_range(s, m->lo, buf);
		scan_range(s, buf + SCAN_MAP, m->hi);
	} else {
		scan_range(s, m->lo, m->hi);
	}
	return !s->cut;
}

/*
 * Free the entries of ts's dropped frames whose value no word of memory
 * holds: nothing can return through them.  None if memory could not be
 * read whole.
 */
static void reclaim(struct ltr_tstate *ts)
{
	struct scan s = { .ts = ts };
	uint32_t k;
	void *p;

	if (!ltr_sys_ok(SYS_mmap) || !ltr_sys_ok(SYS_munmap) ||
	    !ltr_sys_ok(SYS_open) || !ltr_sys_ok(SYS_read) ||
	    !ltr_sys_ok(SYS_close) || !ltr_sys_ok(SYS_process_vm_readv))
		return;
	p = (void *)ltr_syscall6(SYS_mmap, 0, SCAN_MAP, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((unsigned long)p > -4096ul)
		return;
	s.buf = p;
	if (ltr_maps_walk(scan_mapping, &s, (char *)p + SCAN_MAP - MAPS_BUF,
			  MAPS_BUF) && !s.cut)
		for (k = 0; k < ts->fresh; k++)
			if (ts->rets[k].slot && ts->rets[k].away &&
			    !(s.seen[k / 64] & (1ull << (k % 64))))
				ltr_ret_give(ts, k);
	ltr_syscall3(SYS_munmap, (long)p, SCAN_MAP, 0);
}

_Static_assert(LTR_RETS == 2048, "rets_full() names the number");

/* No entry is free, even after a reclaim: say once what that means. */
static void rets_full(void)
{
	static int warned;

	if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		ltr_warn("warning", "more than 2048 traced calls of a thread in progress or suspended at once (coroutines?): the others are shown on entry only, as <no return ...>");
}

bool ltr_rets_refill(struct ltr_tstate *ts)
{
	/*
	 * A reclaim reads all memory: only once many frames were dropped
	 * since the last one, twice as many each time one freed little (the
	 * entries are those of coroutines suspended, not of dead frames).
	 */
	if (ts->dropped >= ts->reclaim_at) {
		ts->dropped = 0;
		reclaim(ts);
		if (ts->nfree >= RECLAIM_FIRST / 2)
			ts->reclaim_at = RECLAIM_FIRST;
		else if (ts->reclaim_at < RECLAIM_MAX)
			ts->reclaim_at *= 2;
	}
	if (!ts->nfree)
		rets_full();
	return ts->nfree != 0;
}

uint64_t ltr_ret_elsewhere(const struct ltr_tstate *ts, uint32_t k,
			   const uint64_t *slot)
{
	const struct ltr_tstate *o;

	/* Left taken there: that thread frees it when it reclaims. */
	for (o = ltr_threads(); o; o = o->next)
		if (o != ts && o->rets[k].slot == slot && o->rets[k].ret)
			return o->rets[k].ret;
	return 0;
}
