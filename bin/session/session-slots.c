/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session-slots.c: ltruss's view of the session's thread slots, mapped as
 * they come into use.
 *
 * The session file holds 512 slots (counters, then a ring: 1.8 MB each
 * with the default ring); mapping them all took some 900 MB of address
 * space, more than `ulimit -v` leaves many a run.  ltruss maps the header,
 * and a slot when it first reads it once a thread has taken it (a slot a
 * process could not map is handed back, and never read).  A console does
 * the same with the session it attaches to.  One session at a time.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "error.h"
#include "session-slots.h"

static const struct ltr_session *owner;
static int slots_fd = -1;
static uint32_t ring;
static struct ltr_thread *mapped[LTR_MAX_THREADS];

void session_slots_init(const struct ltr_session *s, int fd,
			uint32_t ring_size)
{
	if (slots_fd >= 0 && slots_fd != fd)
		close(slots_fd);
	owner = s;
	slots_fd = fd;
	ring = ring_size;
	memset(mapped, 0, sizeof(mapped));
}

/* Bytes of slot i mapped: the last, shared, has no ring (it sends no events). */
static uint64_t slot_bytes(uint32_t i)
{
	return i == LTR_MAX_THREADS - 1 ? ltr_page_up(sizeof(struct ltr_thread))
					: ltr_slot_size(ring);
}

struct ltr_thread *session_slot(const struct ltr_session *s, uint32_t i)
{
	void *p;

	if (i >= LTR_MAX_THREADS || s != owner || slots_fd < 0)
		return NULL;
	if (mapped[i])
		return mapped[i];
	if (__atomic_load_n(&s->slot_used[i], __ATOMIC_ACQUIRE) != LTR_SLOT_TAKEN)
		return NULL;
	p = mmap(NULL, slot_bytes(i), PROT_READ | PROT_WRITE, MAP_SHARED,
		 slots_fd, (off_t)ltr_slot_offset(i, ring));
	if (p == MAP_FAILED)
		error_msg_and_die("cannot map thread slot %u of the session: %s%s",
				  i, strerror(errno),
				  errno == ENOMEM ? ", raise the address space limit (ulimit -v) or make rings smaller (--buffer)" : "");
	mapped[i] = p;
	return p;
}

const unsigned char *session_ring(const struct ltr_session *s, uint32_t i)
{
	struct ltr_thread *slot = session_slot(s, i);

	return slot && i < LTR_MAX_THREADS - 1 ? (const unsigned char *)slot +
			      ltr_page_up(sizeof(*slot))
		    : NULL;
}
