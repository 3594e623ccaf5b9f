/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session-check.h: every value ltruss reads from the session, checked once. */
#ifndef LTRUSS_SESSION_CHECK_H
#define LTRUSS_SESSION_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/session.h"

/* The traced command is pid; with follow, its descendants are traced too. */
void check_init(pid_t pid, bool follow);

/* Can a ring whose consumer is at tail hold head (8-aligned, at most size bytes ahead)? */
bool check_ring_span(uint64_t tail, uint64_t head, uint32_t size);

/*
 * The smallest size of an event of type; 0 for a type no ring carries.
 * Asked several times for every event read: inline.
 */
static inline size_t check_event_min_size(uint8_t type)
{
	switch (type) {
	case LTR_EV_ENTER:
	case LTR_EV_CALL:
		return sizeof(struct ltr_event) + 8 * LTR_ENTER_WORDS;
	case LTR_EV_EXIT:
		return sizeof(struct ltr_event) + 8 * LTR_EXIT_WORDS;
	case LTR_EV_THREAD:
		return sizeof(struct ltr_event) + 8;
	case LTR_EV_GUEST:
		return sizeof(struct ltr_event) + 16;
	case LTR_EV_UNTRACED:
		return sizeof(struct ltr_event) + 8 * LTR_UNTRACED_WORDS;
	case LTR_EV_UNWOUND:
		return sizeof(struct ltr_event);
	}
	return 0;
}

/* check_event() of an event that is not a plain entry or exit. */
bool check_event_full(const struct ltr_event *ev);

/*
 * Is event ev (size bytes, copied out of a ring) whole and well-formed?
 * Asked of every event: a plain entry or exit (no blobs, no other field
 * to check) answered inline.
 */
static inline bool check_event(const struct ltr_event *ev)
{
	if ((ev->type == LTR_EV_ENTER || ev->type == LTR_EV_CALL ||
	     ev->type == LTR_EV_EXIT) &&
	    ev->size == check_event_min_size(ev->type))
		return true;
	return check_event_full(ev);
}

/* Could pid be one of the session's processes? */
bool check_pid(long long pid);

/* Could tid be a thread id (of any process)? */
bool check_tid(long long tid);

/* Could a thread have dropped that many events in a run of run_ns nanoseconds? */
bool check_dropped(uint64_t dropped, uint64_t run_ns);

/* Is status a wait status a process can end with (exit or signal)? */
bool check_wait_status(int status);

/*
 * Thread slots and process entries of s in use: at most the tables'
 * sizes, and never fewer than seen before (the counts only grow; a
 * program that writes a smaller one hides nothing).
 */
uint32_t session_threads_used(const struct ltr_session *s);
uint32_t session_procs_used(const struct ltr_session *s);

/*
 * Count in the thread slots taken past a count the program wrote down:
 * those of s (mapped from the memfd fd, rings of ring bytes) that hold
 * anything at all.
 */
void session_threads_find(const struct ltr_session *s, int fd, uint32_t ring);

/* Entries of s's funcs[] in use (registered, maybe not yet filled in). */
uint32_t session_funcs_used(const struct ltr_session *s);

/* Is entry fn of s's funcs[] filled in (name, library, flags)? */
bool session_func_ready(const struct ltr_session *s, uint32_t fn);

/*
 * How long a claimed object record may stay unwritten before ltruss goes
 * on without it: its process was killed between the claim and the write.
 */
#define SESSION_OBJECT_WAIT_NS 1000000000ull

/*
 * Whether object record i (the i-th claim) is written: a process claims
 * a record (nobjects) before it fills it, and writes its seq last.
 */
bool session_object_ready(const struct ltr_session *s, uint32_t i);

/*
 * The slot of object record i in the session's ring: record i once
 * session_object_ready() says so, and until ltruss has said it copied it
 * (objects_copied), after which a later claim may take the slot.
 */
const struct ltr_objrec *session_object(const struct ltr_session *s,
					uint32_t i);

/*
 * When record o's object was mapped (TSC): 0, since the start, if it says
 * a time to come (forged: a process records an object before ltruss
 * copies it).
 */
uint64_t session_object_mapped(const struct ltr_objrec *o);

/*
 * The string at offset off of the session's string area, or NULL if it
 * is not a whole string there (the traced process writes that memory).
 * Raw bytes: to open a file by; print only what check_name() gives.
 */
const char *session_string(const struct ltr_session *s, uint32_t off);

/* The printable copy of name, its odd bytes as \xNN, into buf; returns buf. */
const char *check_name(char *buf, size_t size, const char *name);
/* The same for text whose spaces are its own (a command line): kept. */
const char *check_text(char *buf, size_t size, const char *text);


#endif
