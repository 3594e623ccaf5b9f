/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compile-prototypes.c: compile the shipped prototypes into the table
 * ltruss maps at start-up instead of parsing them (bin/config/shipped.c), at
 * build time, with ltruss's own loader, parser and capture compiler, so
 * that a mistake in them is the same error, at the same file:line:column,
 * as ltruss would give.
 *
 * Usage: compile-prototypes DIR OUT
 *   DIR holds prototypes/\*.yaml, types.yaml and annotations.yaml.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bin/config/captures.h"
#include "bin/config/conf.h"
#include "bin/util/error.h"
#include "bin/config/shipped.h"
#include "bin/util/xmalloc.h"

int main(int argc, char **argv)
{
	struct ltr_session *s;
	struct config cfg;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR OUT\n", argv[0]);
		return EXIT_LTRUSS_ERROR;
	}
	config_init(&cfg);
	cfg.keep_decls = true;
	config_parse_shipped(&cfg, argv[1]);
	config_check(&cfg);
	/* A session's worth of zero pages, touched only where captures go. */
	s = xcalloc(1, sizeof(*s));
	captures_compile(s, &cfg);
	shipped_write(argv[2], argv[1], &cfg, s, captures_proto);
	free(s);
	config_free(&cfg);
	return 0;
}
