/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile.h: the layout of a trace file (-w FILE, --read FILE), written
 * by bin/tracefile/tracefile-write.c and read by bin/tracefile/tracefile-read.c; described for
 * other readers in ltruss-trace(5).
 *
 * A file is a header, then blocks, each a struct tf_block and its payload
 * padded to 8 bytes.  A block is written whole or not at all as far as a
 * reader can tell: its length and CRC-32C say whether it is all there, so
 * a file cut anywhere (the program or ltruss killed, a full disk) reads up
 * to its last whole block.  Integers are little-endian (x86_64, the only
 * architecture ltruss traces).
 *
 * The format is ltruss's own, not the session's memory: the tables are
 * records of their own (a function, an object: fixed fields, then their
 * names), which the reader turns into whatever ltruss keeps, and the
 * events are the ring records in the layout "events layout 1" of
 * ltruss-trace(5), which tracefile-codec.c pins field by field to
 * lib/session.h.  So the session may change (LTR_SESSION_VERSION) without
 * touching a file.  From version 6 on, every later ltruss reads every
 * earlier file (tests/data/ keeps one of each version): a change of the
 * format adds a version and keeps reading the ones before; a record's
 * struct may only grow (its size field says how much of it there is), a
 * record type a reader does not know is skipped with a warning.
 */
#ifndef LTRUSS_TRACEFILE_H
#define LTRUSS_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>

#define TF_MAGIC "LTRUSS\0\1"
/*
 * 7: Python frames (blob types 9 and 10); 8: Tcl frames (11, 12); 9: Python
 * frames that reuse the outer ones of the blob before (LTR_PYF_CHAIN); 10:
 * rounds of blocks a thread slot each, merged by the reader (TF_EVENTS_ROUND).
 * maint/trace-corpus reads the number.
 */
#define TF_VERSION 10
#define TF_VERSION_FIRST 6 /* the first version later ones keep reading */
#define TF_EVENTS_LAYOUT 1 /* the events' layout (ltruss-trace(5)) */

/* Largest payload of one block. */
#define TF_BLOCK_MAX (4u << 20)
/*
 * Bytes of ring records (decoded) a writer puts in one EVENTS block, or
 * one record: small blocks keep most of a trace readable when a full
 * disk cuts a write short.
 */
#define TF_EVENTS_MAX (64u << 10)

/* The header, at offset 0. */
struct tf_header {
	char magic[8];             /* TF_MAGIC */
	uint32_t version;          /* TF_VERSION */
	uint32_t header_size;      /* sizeof(struct tf_header) */
	uint32_t events_layout;    /* TF_EVENTS_LAYOUT of the events */
	uint32_t strsize;          /* -s when recorded */
	uint32_t depth_limit;      /* -D when recorded; 0 = unlimited */
	uint32_t follow;           /* -f when recorded */
	uint64_t start_time;       /* CLOCK_REALTIME ns when the run started */
	char ltruss_version[32];   /* PACKAGE_VERSION of the writer */
	char host[64];             /* uname nodename */
	char command[256];         /* the traced command line, cut */
	uint32_t reserved;
	uint32_t crc;              /* CRC-32C of the header up to this field */
};

/* n rounded up to 8: blocks and records are padded so. */
static inline size_t tf_padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Block types. */
enum tf_block_type {
	TF_TABLES = 1, /* names, objects, prototypes added since the last one */
	TF_EVENTS,     /* one thread slot's events, in the order they were read */
	TF_PROC,       /* a process ended */
	TF_CLOCK,      /* the TSC's rate and anchor (the last one counts) */
	TF_COUNTS,     /* the interposer's counters at the end */
	TF_END,        /* a clean end: its absence means the file was cut */
};

struct tf_block {
	uint32_t type;  /* enum tf_block_type */
	uint32_t len;   /* bytes of payload, at most TF_BLOCK_MAX */
	uint32_t crc;   /* CRC-32C of the payload */
	uint32_t reserved;
};

/*
 * A TABLES payload is a sequence of records, each a struct tf_record and
 * its data padded to 8 bytes.  Tables only grow: every record appends.
 * Types 1 to 3 were versions 1-5's session tables, copied byte for byte.
 */
enum tf_record_type {
	TF_REC_PROTO = 4,   /* at: prototype index; data: its C declaration */
	TF_REC_TYPE,        /* data: a struct tf_type and its values */
	TF_REC_BUILD_ID,    /* at: object index; data: its GNU build ID */
	TF_REC_SONAME,      /* at: object index; data: its soname, NUL-ended */
	TF_REC_FUNC,        /* at: function index; data: struct tf_func, names */
	TF_REC_OBJECT,      /* at: object index; data: struct tf_object, path */
	TF_REC_KNOWN_LAST = TF_REC_OBJECT,
};

/* Function flags (struct tf_func). */
#define TF_FN_ENTRY_ONLY 0x1u /* its return was never hijacked (dlopen...) */
#define TF_FN_DISABLED 0x2u   /* (console) not shown: counted, no events */
#define TF_FN_SETJMP 0x4u     /* the setjmp family: a longjmp returns it again */
#define TF_FN_VFORK 0x8u      /* vfork: returns in the child, then the parent */

/*
 * A traced function, the one events with its index name: this, then its
 * name and its library's short name, each NUL-terminated.  size says how
 * many bytes of the struct the record has: a later version may add
 * fields at the end, which an earlier reader skips.
 */
struct tf_func {
	uint32_t size;   /* sizeof(struct tf_func) when written */
	int32_t proto;   /* its PROTO record's index, or -1: none */
	uint32_t depth;  /* from the rule that selected it; 0 = no limit */
	uint32_t flags;  /* TF_FN_* */
};

/*
 * An object a process loaded: this, then its file's path, NUL-terminated.
 * mapped came later (the struct was TF_OBJECT_MIN bytes before): a record
 * without it reads as 0, mapped since the start.
 */
struct tf_object {
	uint32_t size;   /* sizeof(struct tf_object) when written */
	int32_t pid;
	uint64_t start;  /* its segments' address range; start == end: none */
	uint64_t end;
	uint64_t bias;   /* load bias: address = bias + ELF virtual address */
	uint64_t mapped; /* TSC when it was loaded, as events' times; 0: unknown */
};
#define TF_OBJECT_MIN 32 /* the fields every version's records have */

struct tf_record {
	uint32_t type; /* enum tf_record_type */
	uint32_t at;
	uint32_t len;  /* bytes of data */
	uint32_t reserved;
};

/*
 * A named type (enum or flags): the header, then nenums + nflags struct
 * tf_value, then the names (NUL-terminated, name_len bytes in all: the
 * type's name first, then each value's in order).
 */
struct tf_type {
	uint64_t mask;
	uint32_t size;
	uint32_t nenums;
	uint32_t nflags;
	uint32_t name_len;
};

struct tf_value {
	uint64_t value;
};

/*
 * An EVENTS payload: this, then the ring records, each encoded against the
 * previous one (tracefile-codec.c); decoded, at most TF_EVENTS_MAX bytes.
 */
struct tf_events {
	uint32_t slot;  /* thread slot */
	int32_t pid;    /* the slot's process and thread when they were read */
	int32_t tid;
	uint32_t flags; /* TF_EVENTS_*; 0 before version 10 */
};

/*
 * The block is part of a round (version 10 on): the EVENTS blocks up to
 * the one with TF_EVENTS_ROUND_END, each slot's in its order, are the
 * events the rings held at one pass, and are read merged by time (oldest
 * first; a run of one slot goes on while its next event is no later than
 * the other slots' next; a tie goes to the lower slot): the order the
 * live reader gives.  Without it, blocks are in the order they are read.
 */
#define TF_EVENTS_ROUND 0x1u
#define TF_EVENTS_ROUND_END 0x2u /* the last block of its round */

/* Process flags (struct tf_proc). */
#define TF_PROC_CORE 0x1u  /* core dumped */
#define TF_PROC_MULTI 0x2u /* several processes were traced by then */

/* A PROC payload. */
struct tf_proc {
	int32_t pid;
	int32_t exit_status; /* -1: unknown */
	int32_t signal;      /* killed by it; 0: exited */
	uint32_t flags;      /* TF_PROC_* */
	uint64_t ts;         /* TSC when ltruss learnt it */
};

/* A CLOCK payload: wall time = real0 + (tsc - tsc0) / ticks_per_ns. */
struct tf_clock {
	uint64_t tsc0;
	uint64_t real0;        /* CLOCK_REALTIME ns at tsc0 */
	double ticks_per_ns;
};

/* A COUNTS payload: struct tf_count[], one per process and function. */
struct tf_count {
	int32_t pid;
	uint32_t fn;     /* function index */
	uint64_t calls;
	uint64_t errors;
	uint64_t total;  /* ticks, the callees' included */
	uint64_t self;   /* ticks, without traced callees */
	uint64_t min;
	uint64_t max;
};

/* An END payload. */
struct tf_end {
	uint64_t dropped;      /* events dropped (--drop) */
	uint32_t lost_returns; /* returns through dropped frames */
	int32_t signal;        /* the command was killed by it; 0: it exited */
	uint32_t core;         /* and dumped core */
	uint32_t reserved;
};

#endif
