/* SPDX-License-Identifier: GPL-2.0-or-later */
/* paths.h: where ltruss finds its interposer and shipped files. */
#ifndef LTRUSS_PATHS_H
#define LTRUSS_PATHS_H

#include <stdio.h>

/* The interposer, libltruss.so, of the chosen layout (bin/util/paths.c). */
const char *paths_interposer(void);

/*
 * Die (exit 2) unless some layout has its interposer: without one, its
 * data is missing too, and the error says where ltruss looked.
 */
void paths_require(void);

/* The shipped filters: the source tree's filters/, or $(pkgdatadir)/filters. */
const char *paths_filters_dir(void);

/*
 * The shipped prototypes' directory: prototypes/\*.yaml, types.yaml and
 * annotations.yaml (the source tree's conf/, or $(pkgdatadir)).
 */
const char *paths_shipped_dir(void);

/* The table compiled from them at build time (bin/config/shipped.c). */
const char *paths_compiled(void);

/* The default config: conf/ltruss.yaml, or $(sysconfdir)/ltruss/ltruss.yaml. */
const char *paths_default_config(void);

/* Print which interposer and data ltruss uses (--version). */
void paths_print(FILE *out);

#endif
