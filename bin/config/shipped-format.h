/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shipped-format.h: the layout of the compiled table of shipped
 * prototypes (conf/prototypes.tbl), written by bin/config/shipped-write.c at
 * build time and mapped by bin/config/shipped.c at every start.  Offsets are
 * from the start of the file, sections 8-byte aligned; strings are
 * offsets into a pool of NUL-terminated names.
 */
#ifndef LTRUSS_SHIPPED_FORMAT_H
#define LTRUSS_SHIPPED_FORMAT_H

#include <stdint.h>

#define SHIPPED_MAGIC "LTRPROTO"
#define SHIPPED_VERSION 1
#define SHIPPED_ALIAS 0x80000000u /* in capture_protos[]: a "64" alias */

/* The header, at offset 0. */
struct shipped_header {
	char magic[8];
	uint32_t version;          /* SHIPPED_VERSION */
	uint32_t session_version;  /* LTR_SESSION_VERSION the captures are for */
	uint32_t capture_size;     /* sizeof(struct ltr_capture) */
	uint32_t hash_size;        /* LTR_CAPTURE_HASH */
	uint64_t size;             /* of the whole file */
	uint32_t nsources, sources;   /* struct shipped_source[] */
	uint32_t nprotos, protos;     /* struct shipped_proto[] */
	uint32_t ntypes, types;       /* struct shipped_type[], sorted by name */
	uint32_t nvalues, values;     /* struct shipped_value[] */
	uint32_t ncaptures, captures; /* struct ltr_capture[] */
	uint32_t capture_protos;      /* uint32_t[ncaptures]: proto | ALIAS */
	uint32_t index;               /* uint32_t[hash_size]: capture + 1 */
	uint32_t sstrings, nsstrings; /* the session's strings[0, n) */
	uint32_t strings, nstrings;   /* the table's own names */
};

/* A file the table was made from: stale when it changed. */
struct shipped_source {
	uint32_t name;     /* relative to the shipped directory */
	uint32_t reserved;
	uint64_t size;
	int64_t mtime_ns;  /* when equal, the content is not hashed */
	uint64_t hash;     /* shipped_hash() of the content */
};

/* A prototype: its declaration, parsed when a traced function needs it. */
struct shipped_proto {
	uint32_t decl;
	uint32_t source;   /* index in sources[] */
	uint32_t line, col;
};

/* A named type (struct named_type), its values in values[]. */
struct shipped_type {
	uint32_t name;
	uint32_t source;
	uint32_t line, col;
	uint64_t mask;
	uint32_t size;
	uint32_t enums, nenums; /* index and count in values[] */
	uint32_t flags, nflags;
	uint32_t reserved;
};

/* One name of an enum or flags type. */
struct shipped_value {
	uint32_t name;
	uint32_t reserved;
	uint64_t value;
};

#endif
