/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * default-table.h: the default config (conf/ltruss.yaml) as the loader
 * leaves it in a struct config, compiled at build time by
 * maint/compile-default into bin/config/default-table.c.
 */
#ifndef LTRUSS_DEFAULT_TABLE_H
#define LTRUSS_DEFAULT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/session.h"

struct default_table {
	/*
	 * The text it was compiled from: a file holding exactly this gets
	 * the table; NULL when the source cannot be compiled in (it has
	 * prototypes, types or includes), and is always parsed.
	 */
	const char *text;
	size_t size;               /* of text, without a NUL of its own */
	bool selected;             /* it has a "trace" key */
	bool depth_set, strsize_set;
	unsigned depth, strsize;
	size_t nrules;
	const struct ltr_rule *rules; /* as the loader appends them */
	size_t nfrom;
	const char (*from)[LTR_GLOB_MAX];
};

/* The installed default config's table (bin/config/default-table.c). */
extern const struct default_table default_table;

#endif
