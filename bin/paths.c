/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * paths.c: where ltruss finds its shipped files.  Run from the build tree
 * (tests, a developer's checkout), it uses the source tree's data, so that
 * an edit to filters/ or conf/ shows at once and nothing needs installing.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

bool paths_in_build_tree(void)
{
	static int cached = -1;
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (cached >= 0)
		return cached;
	cached = 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			cached = strcmp(exe, LTRUSS_BUILD_BINDIR) == 0;
		}
	}
	return cached;
}

/* The build tree's path, or the installed one. */
static const char *pick(const char *built, const char *installed)
{
	return paths_in_build_tree() ? built : installed;
}

const char *paths_filters_dir(void)
{
	return pick(LTRUSS_SRCDIR "/filters", LTRUSS_PKGDATADIR "/filters");
}

const char *paths_prototypes_dir(void)
{
	return pick(LTRUSS_SRCDIR "/conf/prototypes",
		    LTRUSS_PKGDATADIR "/prototypes");
}

const char *paths_types(void)
{
	return pick(LTRUSS_SRCDIR "/conf/types.yaml",
		    LTRUSS_PKGDATADIR "/types.yaml");
}

const char *paths_annotations(void)
{
	return pick(LTRUSS_SRCDIR "/conf/annotations.yaml",
		    LTRUSS_PKGDATADIR "/annotations.yaml");
}

const char *paths_default_config(void)
{
	return pick(LTRUSS_SRCDIR "/conf/ltruss.yaml",
		    LTRUSS_SYSCONFDIR "/ltruss/ltruss.yaml");
}
