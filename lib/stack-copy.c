/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stack-copy.c: -k, the caller's registers and the top of its stack at a call.
 *
 * Why a copy.  Naming the frames that led to a call needs DWARF call-frame
 * information, which the interposer cannot parse (libc only, tiny, a few
 * nanoseconds a call), and cannot be done later from the live process:
 * the stack has moved on by the time ltruss reads the event.  So, as perf
 * does, the entry event carries what an unwinder needs, and ltruss unwinds
 * it afterwards with libdw (bin/symbols/stack.c): the callee-saved registers as the
 * caller left them (the trampoline saves them, trampoline.S), the return
 * address, and the bytes of the stack from the return slot up, where every
 * caller's frame lies.
 *
 * How much.  ltr_stack_size bytes (the session's, 8 KiB by default), cut
 * at the end of the thread's frames when it is known: the stack pointer
 * the main thread started with (found once, at attach), or glibc's thread
 * pointer, which sits just above the stack of a thread it made.  Above
 * those lies nothing of the thread's frames, and a shallow stack costs a
 * short copy.  A stack of another kind (a
 * coroutine's, an alternate signal stack) is copied up to the first page
 * that cannot be read.  Every byte is read with the copy that survives a
 * fault (fault-copy.c, or process_vm_readv when that is off), since even
 * a known stack may end in a guard page.
 *
 * When ltruss says how far its walk of a stack will go, the copy stops
 * there, or holds only the return addresses it will read (stack-hints.c).
 *
 * The copy must show the frames the program will see, not ours: the
 * return slots of traced calls in progress hold the trampoline, so in the
 * copy each is given back its real return address.
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "capture.h"
#include "frames.h"
#include "interposer.h"
#include "process.h"

uint32_t ltr_stack_size;
static uintptr_t main_stack_end; /* above the main thread's first frame */

/*
 * Where the main thread's frames end: the stack pointer the kernel gave
 * the program (/proc/self/stat's startstack, field 28; above it are only
 * argv, the environment and the auxiliary vector), past the return slot
 * _start's call leaves below it; 0 if unknown.
 */
static uintptr_t start_stack(void)
{
	char buf[1024], *p, *close_paren = NULL;
	uintptr_t v = 0;
	long fd, len;
	int field = 2;

	fd = ltr_syscall3(SYS_open, (long)"/proc/self/stat", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	len = ltr_syscall3(SYS_read, fd, (long)buf, sizeof(buf) - 1);
	ltr_syscall3(SYS_close, fd, 0, 0);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	/* "pid (comm) S ...": comm may hold ')' and spaces. */
	for (p = buf; *p; p++)
		if (*p == ')')
			close_paren = p;
	for (p = close_paren; p && *p && field < 28; p++)
		if (*p == ' ')
			field++;
	for (; p && *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uintptr_t)(*p - '0');
	return field == 28 && v ? v + 8 : 0;
}

void ltr_stack_init(void)
{
	struct ltr_mapping m;
	char here;

	ltr_stack_size = ltr_session->stack_size & ~7u;
	if (ltr_stack_size > LTR_STACK_SIZE_MAX)
		ltr_stack_size = LTR_STACK_SIZE_MAX;
	if (!ltr_stack_size)
		return;
	/* Only a live trace's walk reads so few frames (not -w's). */
	ltr_stack_frames = ltr_session->stack_frames;
	if (ltr_stack_frames > LTR_STACK_FRAMES_MAX)
		ltr_stack_frames = 0;
	main_stack_end = start_stack();
	if (!main_stack_end && ltr_maps_find((uintptr_t)&here, &m))
		main_stack_end = m.hi;
}

size_t ltr_stack_blob_max(void)
{
	if (!ltr_stack_size)
		return 0;
	return sizeof(struct ltr_blob) + sizeof(struct ltr_stack_regs) +
	       ltr_stack_size;
}

/* Where the stack holding sp ends, if known (else 0: where reads fail). */
static uintptr_t stack_end(const struct ltr_tstate *ts, uintptr_t sp)
{
	/* The main thread's thread pointer lies below its stack, not above. */
	if (sp < ts->tp && ts->tp - sp < LTR_SAME_STACK)
		return ts->tp;
	if (sp < main_stack_end && main_stack_end - sp < LTR_SAME_STACK)
		return main_stack_end;
	return 0;
}

/* The word at off of copy, if a trampoline entry: its real address. */
static void unhijack_word(const struct ltr_tstate *ts, unsigned char *copy,
			  size_t off)
{
	uint64_t w;

	__builtin_memcpy(&w, copy + off, 8);
	if (!ltr_is_tramp(w))
		return;
	w = ts->rets[ltr_tramp_index(w)].ret;
	__builtin_memcpy(copy + off, &w, 8);
}

/*
 * In the copy of [sp, sp + len), give hijacked return slots their real
 * address.  Each hijacked slot holds a trampoline entry of its own
 * (rets.c), so any word that is one names its real address, also for a
 * frame that was dropped while its stack was away.  Looking at every word
 * costs more than the copy; but while every entry the thread took is a
 * frame in progress (none dropped, so none away), the hijacked slots are
 * those frames' slots, and only those are looked at.  A trampoline's
 * address elsewhere is then no return slot (a stale word, a copy the
 * program made): the unwinder reads return slots and saved registers.
 */
static void unhijack(const struct ltr_tstate *ts, unsigned char *copy,
		     uintptr_t sp, size_t len)
{
	size_t off;
	uint32_t i;

	if (ts->fresh - ts->nfree == ts->depth) {
		for (i = 0; i < ts->depth; i++) {
			off = (uintptr_t)ts->frames[i].slot - sp;
			if (off < len && len - off >= 8 && !(off % 8))
				unhijack_word(ts, copy, off);
		}
		return;
	}
	for (off = 0; off + 8 <= len; off += 8)
		unhijack_word(ts, copy, off);
}

size_t ltr_stack_copy(void *dst, size_t room, struct ltr_tstate *ts,
		      const struct ltr_regs *regs, uint64_t ret)
{
	struct ltr_blob *b = dst;
	struct ltr_stack_regs *r = (struct ltr_stack_regs *)b->data;
	unsigned char *copy = (unsigned char *)(r + 1);
	uintptr_t sp = (uintptr_t)&regs->ret, end;
	size_t head = sizeof(*b) + sizeof(*r), len, got;
	bool faulted;

	/* A hook's call (ltr_note_entry) has no return slot of its own. */
	if (!ltr_stack_size || !ret || !regs->ret || room < head + 8)
		return 0;
	len = room - head < ltr_stack_size ? (room - head) & ~(size_t)7
					   : ltr_stack_size;
	end = stack_end(ts, sp);
	if (end && end - sp < len)
		len = (end - sp) & ~(size_t)7;
	if (ltr_stack_frames && ts->slot && !ts->shared_slot) {
		got = ltr_stack_sparse_copy(ts, copy, room - head, sp, ret,
					    len);
		if (got) {
			b->flags = LTR_BLOBF_SPARSE;
			goto regs;
		}
		got = ltr_stack_hinted_copy(ts, copy, sp, ret, len, &faulted);
	} else {
		got = ltr_read_mem(ts->pid, copy, sp, len) & ~(size_t)7;
		faulted = got < len;
	}
	if (got >= 8)
		*(uint64_t *)copy = ret;
	unhijack(ts, copy, sp, got);
	b->flags = faulted ? LTR_BLOBF_TRUNCATED : 0;
regs:
	r->sp = sp;
	r->rip = ret;
	r->rbp = regs->rbp;
	r->rbx = regs->rbx;
	r->r12 = regs->r12;
	r->r13 = regs->r13;
	r->r14 = regs->r14;
	r->r15 = regs->r15;
	b->type = LTR_BLOB_CALLSTACK;
	b->index = 0;
	b->reserved = 0;
	b->len = (uint32_t)(sizeof(*r) + got);
	return head + got;
}
