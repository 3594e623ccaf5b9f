/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefile-records.h: the TABLES records of a trace file, made from the session. */
#ifndef LTRUSS_TRACEFILE_RECORDS_H
#define LTRUSS_TRACEFILE_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "conf.h"

/* The longest TABLES record: a longer name or type is left out. */
#define RECORD_MAX (1u << 20)

/* Append a record of type for index at: n bytes at p, then tail_len at tail. */
typedef void records_put_fn(uint32_t type, uint32_t at, const void *p,
			    size_t n, const void *tail, size_t tail_len);

/* Make the records of session s (its prototypes and types from config) through put. */
void records_init(const struct ltr_session *s, const struct config *config,
		  records_put_fn *put);

/* The prototype of capture and its named types, unless written already. */
void records_proto(int32_t capture);

/* Function i's record: its fields, its name and its library's. */
void records_func(uint32_t i);

/*
 * Object i's record and, if its file has them, its build ID and soname.
 * One its process claimed and died before it wrote has no addresses
 * (start == end) and no path.
 */
void records_object(uint32_t i);

/* Forget what was written (at the end of the file). */
void records_done(void);

#endif
