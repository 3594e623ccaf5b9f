/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session-check.c: every value ltruss reads from the session, checked once.
 *
 * The session is mapped read-write by every traced process: a program can
 * write anything into it, at any time, while ltruss reads it (by a bug, or
 * on purpose).  Nothing read there is trusted, and the checks live here,
 * between the session and what uses it (the reader, the call state
 * machine, the formatters, the summaries), so that those can rely on:
 *  - ring indexes: a head at most one ring ahead of ltruss's own tail
 *    (a head 2^62 ahead would have the reader loop for ever, replaying);
 *  - events: a known type, a size that covers its fixed words, and blobs
 *    that tile the rest exactly, each blob's own layout inside its length
 *    (a length near 2^32 would wrap "(len + 7) & ~7" to nothing);
 *  - counts of dropped events no larger than the run's length in ns;
 *  - pids and thread ids in the kernel's range, and without -f the
 *    command's own pid only; wait statuses that a process can end with;
 *  - strings: whole inside strings[]; names printed only as copies in
 *    which control characters, bytes above 0x7e and backslashes are
 *    \xNN, made once (the program could change them between two reads).
 * How a process ended comes from the kernel (waitpid, /proc) whenever it
 * can see it (processes.c); ltruss's own memory, files and exit status are
 * never steered by the session.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "error.h"
#include "session-check.h"

/* The kernel's largest pid (PID_MAX_LIMIT on 64-bit systems). */
#define PID_LIMIT 4194304

static pid_t command_pid;
static bool follow_children;

void check_init(pid_t pid, bool follow)
{
	command_pid = pid;
	follow_children = follow;
}

bool check_ring_span(uint64_t tail, uint64_t head, uint32_t size)
{
	/* Records are 8-byte aligned, so is every head an interposer writes. */
	return head >= tail && head - tail <= size && head % 8 == 0;
}

/*
 * Does a Python blob b hold what its header says (PYFRAMES: its chain if
 * flagged, then whole frames; PYCODE: its strings, of whole characters,
 * and its line table)?  True for blobs of other types.
 */
static bool python_blob_ok(const struct ltr_blob *b)
{
	const struct ltr_py_code *c = (const void *)b->data;

	if (b->type == LTR_BLOB_PYFRAMES) {
		const struct ltr_py_head *h = (const void *)b->data;
		size_t head = sizeof(*h);

		if (b->len < head)
			return false;
		if (h->flags & LTR_PYF_CHAIN)
			head += sizeof(struct ltr_py_chain);
		return b->len >= head &&
		       (b->len - head) % sizeof(struct ltr_py_frame) == 0;
	}
	if (b->type != LTR_BLOB_PYCODE)
		return true;
	if (b->len < sizeof(*c))
		return false;
	if ((c->qualname_kind != 1 && c->qualname_kind != 2 &&
	     c->qualname_kind != 4) ||
	    (c->filename_kind != 1 && c->filename_kind != 2 &&
	     c->filename_kind != 4))
		return false;
	return c->qualname_len % c->qualname_kind == 0 &&
	       c->filename_len % c->filename_kind == 0 &&
	       (uint64_t)sizeof(*c) + c->qualname_len + c->filename_len +
			       c->linetable_len <= b->len;
}

/*
 * Does a Tcl blob b hold what its header says (TCLFRAMES: its frames,
 * each name within its bytes; TCLCODE: its lines, map and path, the map's
 * arrays in order)?  True for blobs of other types.
 */
static bool tcl_blob_ok(const struct ltr_blob *b)
{
	const struct ltr_tcl_head *h = (const void *)b->data;
	const struct ltr_tcl_frame *f = (const void *)(h + 1);
	const struct ltr_tcl_code *c = (const void *)b->data;
	size_t i;

	if (b->type == LTR_BLOB_TCLCODE)
		return b->len >= sizeof(*c) &&
		       (uint64_t)sizeof(*c) + (uint64_t)c->nloc * 8 +
				       c->map_len + c->path_len <= b->len &&
		       c->length_at <= c->srcdelta_at &&
		       c->srcdelta_at <= c->map_len;
	if (b->type != LTR_BLOB_TCLFRAMES)
		return true;
	if (b->len < sizeof(*h) ||
	    b->len != sizeof(*h) + h->nprocs * sizeof(*f) +
			      h->ncmds * sizeof(struct ltr_tcl_cmd))
		return false;
	for (i = 0; i < h->nprocs; i++)
		if (f[i].name_len > LTR_TCL_NAME_MAX)
			return false;
	return true;
}

/* Does the printf VARARGS blob b hold its n classes and their words? */
static bool varargs_ok(const struct ltr_blob *b)
{
	uint64_t need = ((uint64_t)b->index + 7) & ~(uint64_t)7;
	unsigned i;

	if (b->index > LTR_VARARGS_MAX || b->index > b->len)
		return false;
	for (i = 0; i < b->index; i++) {
		if (b->data[i] < LTR_VA_INT || b->data[i] > LTR_VA_POINTER)
			return false;
		need += b->data[i] == LTR_VA_LDOUBLE ? 16 : 8;
	}
	return need <= b->len;
}

/*
 * Is CALLSTACK blob b whole: its registers, then a copy, or a sparse
 * one's span and words, each inside the span (session.h)?
 */
static bool callstack_ok(const struct ltr_blob *b)
{
	const unsigned char *p = b->data + sizeof(struct ltr_stack_regs);
	struct ltr_stack_word w;
	uint64_t span;
	size_t n, i;

	if (b->len < sizeof(struct ltr_stack_regs))
		return false;
	if (!(b->flags & LTR_BLOBF_SPARSE))
		return true;
	n = b->len - sizeof(struct ltr_stack_regs);
	if (n < 8 || (n - 8) % sizeof(w))
		return false;
	memcpy(&span, p, 8);
	if (span > LTR_STACK_SIZE_MAX || span % 8)
		return false;
	for (i = 8; i < n; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		if (w.off % 8 || w.off >= span)
			return false;
	}
	return true;
}

/* Do the blobs of ev, after its fixed words, tile the rest of it? */
static bool blobs_ok(const struct ltr_event *ev)
{
	uint64_t off = check_event_min_size(ev->type) - sizeof(*ev);
	uint64_t end = ev->size - sizeof(*ev);
	const unsigned char *base = (const unsigned char *)ev->w;

	if (ev->type != LTR_EV_ENTER && ev->type != LTR_EV_CALL &&
	    ev->type != LTR_EV_EXIT)
		return off == end;
	while (off < end) {
		const struct ltr_blob *b = (const void *)(base + off);
		uint64_t size;

		if (end - off < sizeof(*b))
			return false;
		size = sizeof(*b) + (((uint64_t)b->len + 7) & ~(uint64_t)7);
		if (size > end - off || b->type < LTR_BLOB_STRING ||
		    b->type > LTR_BLOB_TCLCODE)
			return false;

		if (b->type == LTR_BLOB_CALLSTACK && !callstack_ok(b))
			return false;
		if (b->type == LTR_BLOB_VARARGS && !varargs_ok(b))
			return false;
		if (!python_blob_ok(b) || !tcl_blob_ok(b))
			return false;
		off += size;
	}
	return true;
}

bool check_event_full(const struct ltr_event *ev)
{
	size_t min = check_event_min_size(ev->type);

	if (!min || ev->size < min || ev->size % 8)
		return false;
	switch (ev->type) {
	case LTR_EV_THREAD:
		return ev->w[0] <= PID_LIMIT && check_tid((long long)ev->w[0]);
	case LTR_EV_GUEST:
		/* A vfork child's pid and nothing, or 0 and how it left. */
		if (ev->w[0] == 0)
			return ev->w[1] == LTR_END_EXITED ||
			       ev->w[1] == LTR_END_KILLED ||
			       ev->w[1] == LTR_END_EXEC;
		return ev->w[0] <= PID_LIMIT &&
		       check_pid((long long)ev->w[0]) && ev->w[1] == 0;
	case LTR_EV_UNWOUND: {
		uint8_t why = ev->flags & ~LTR_EVF_KEEP_ABOVE;

		/* KILLED and EXEC are ltruss's own (trace.c). */
		return (why >= LTR_END_UNWOUND && why <= LTR_END_PTHREAD_EXIT) ||
		       why == LTR_END_HIDDEN;
	}
	case LTR_EV_UNTRACED:
		/* The name of a credential function, NUL-terminated. */
		return memchr(ev->w, '\0', 8 * LTR_UNTRACED_WORDS) != NULL;
	}
	return blobs_ok(ev);
}

bool check_tid(long long tid)
{
	return tid > 0 && tid <= PID_LIMIT;
}

bool check_pid(long long pid)
{
	if (!check_tid(pid))
		return false;
	/* Without -f, only the command is traced (exec keeps its pid). */
	return follow_children || !command_pid || pid == command_pid;
}

bool check_wait_status(int status)
{
	if (status & ~0xffff)
		return false;
	if (WIFEXITED(status))
		return true;
	return WIFSIGNALED(status) && WTERMSIG(status) < 65;
}

bool check_dropped(uint64_t dropped, uint64_t run_ns)
{
	/* Dropping an event takes a thread far more than a nanosecond. */
	return dropped <= run_ns;
}

/* now, at most max, never less than *seen, which it updates. */
static uint32_t count_grown(uint32_t *seen, uint32_t now, uint32_t max)
{
	if (now > max)
		now = max;
	if (now > *seen)
		*seen = now;
	return *seen;
}

/* Thread slots in use: the count's highest, or past it (below). */
static uint32_t threads_seen;

uint32_t session_threads_used(const struct ltr_session *s)
{
	return count_grown(&threads_seen,
			   __atomic_load_n(&s->nthreads, __ATOMIC_ACQUIRE),
			   LTR_MAX_THREADS);
}

/*
 * A thread takes its slot by counting it in nthreads, but the program can
 * write the count down before ltruss first reads it: that thread's ring
 * then fills with nobody draining it, and the thread waits for room for
 * ever.  So the count is not the only witness: a slot past it that holds
 * anything at all (an owner, a head, counters) is in use.  Reading the
 * slots would map their pages; the memfd says where its written pages
 * are instead (SEEK_DATA: one call per slot found, pages swapped out
 * included), and the slots past the last written page are never read.
 */
void session_threads_find(const struct ltr_session *s, int fd, uint32_t ring)
{
	const off_t base = (off_t)ltr_slot_offset(0, ring);
	const off_t end = (off_t)ltr_session_size(ring);

	session_threads_used(s);
	while (threads_seen < LTR_MAX_THREADS) {
		off_t at = (off_t)ltr_slot_offset(threads_seen, ring);
		off_t data = lseek(fd, at, SEEK_DATA);

		if (data < at || data >= end)
			return;
		threads_seen = (uint32_t)((data - base) /
					  (off_t)ltr_slot_size(ring)) + 1;
	}
}

uint32_t session_procs_used(const struct ltr_session *s)
{
	static uint32_t seen;

	return count_grown(&seen, __atomic_load_n(&s->nprocs, __ATOMIC_ACQUIRE),
			   LTR_MAX_PROCS);
}

uint32_t session_funcs_used(const struct ltr_session *s)
{
	uint32_t n = __atomic_load_n(&s->nfuncs, __ATOMIC_ACQUIRE);

	return n < LTR_MAX_FUNCS ? n : LTR_MAX_FUNCS;
}

bool session_func_ready(const struct ltr_session *s, uint32_t fn)
{
	return fn < LTR_MAX_FUNCS &&
	       (__atomic_load_n(&s->funcs[fn].flags, __ATOMIC_ACQUIRE) &
		LTR_FN_READY);
}

bool session_object_ready(const struct ltr_session *s, uint32_t i)
{
	return __atomic_load_n(&session_object(s, i)->seq, __ATOMIC_ACQUIRE) ==
	       i + 1;
}

const struct ltr_objrec *session_object(const struct ltr_session *s,
					uint32_t i)
{
	return &s->objects[i % LTR_MAX_OBJECTS];
}

uint64_t session_object_mapped(const struct ltr_objrec *o)
{
	uint64_t t = o->mapped;

	return t > clock_tsc() ? 0 : t;
}

const char *session_string(const struct ltr_session *s, uint32_t off)
{
	if (off >= LTR_STRINGS_SIZE ||
	    !memchr(s->strings + off, '\0', LTR_STRINGS_SIZE - off))
		return NULL;
	return s->strings + off;
}

/* name into buf, its odd bytes (and spaces unless spaces) as \xNN. */
static const char *escape(char *buf, size_t size, const char *name,
			  bool spaces)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (; *name && n + 5 <= size; name++) {
		unsigned char c = (unsigned char)*name;

		if ((c > ' ' || (spaces && c == ' ')) && c < 0x7f && c != '\\') {
			buf[n++] = (char)c;
			continue;
		}
		buf[n++] = '\\';
		buf[n++] = 'x';
		buf[n++] = hex[c >> 4];
		buf[n++] = hex[c & 15];
	}
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return buf;
}

const char *check_name(char *buf, size_t size, const char *name)
{
	return escape(buf, size, name, false);
}

const char *check_text(char *buf, size_t size, const char *text)
{
	return escape(buf, size, text, true);
}
