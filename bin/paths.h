/* SPDX-License-Identifier: GPL-2.0-or-later */
/* paths.h: where ltruss finds its shipped files, installed or in the build tree. */
#ifndef LTRUSS_PATHS_H
#define LTRUSS_PATHS_H

#include <stdbool.h>

/* Does ltruss run from its build tree (bin/ltruss), not from its prefix? */
bool paths_in_build_tree(void);

/* The shipped filters: the source tree's filters/, or $(pkgdatadir)/filters. */
const char *paths_filters_dir(void);

/* The shipped prototypes: conf/prototypes/, or $(pkgdatadir)/prototypes. */
const char *paths_prototypes_dir(void);

/* The shipped named types, loaded after the prototypes. */
const char *paths_types(void);

/* The shipped annotations, loaded last. */
const char *paths_annotations(void);

/* The default config: conf/ltruss.yaml, or $(sysconfdir)/ltruss/ltruss.yaml. */
const char *paths_default_config(void);

#endif
