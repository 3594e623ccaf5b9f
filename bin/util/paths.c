/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * paths.c: where ltruss finds its interposer and its shipped files.
 *
 * They are looked for beside the ltruss executable first, then at the
 * configured paths, so that a build tree or an installed tree moved
 * elsewhere (make install DESTDIR=..., then mv) uses its own files and
 * never another copy's, or none:
 *
 *   1. the build tree: BINDIR/../lib/libltruss.so, and the data of the
 *      source tree (BINDIR/../$(top_srcdir) when that is relative), so
 *      that an edit to filters/ or conf/ shows at once;
 *   2. an installed tree: the configured directories taken relative to
 *      the configured bindir (BINDIR/../lib/ltruss, BINDIR/../share/ltruss
 *      and BINDIR/../etc/ltruss with the default prefix);
 *   3. the configured absolute paths.
 *
 * An installed tree with a bundled/ directory beside its interposer is a
 * bundle (make bundle, maint/bundle): the shared libraries ltruss itself
 * needs are in there, found through its $ORIGIN run path, never by the
 * traced program.  --version says so, and where they are.
 *
 * The first layout whose interposer exists is used whole: the data always
 * comes from the tree the interposer comes from.  When none has one, the
 * configured layout stands, and the start-up check (bin/interposer.c) says
 * where it looked.
 */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "paths.h"
#include "xmalloc.h"
#include "bin/reldirs.h"

/*
 * One layout: the interposer, the shipped data and the default config.
 * Its paths are allocated to their length: PATH_MAX buffers, here and on
 * the stack while they were made, were 20 page faults of every start.
 */
struct layout {
	const char *name;
	char *interposer;
	char *filters;
	char *prototypes;
	char *shipped;
	char *compiled;
	char *config;
	char *bundled; /* a bundle's own libraries, or NULL */
};

static struct layout chosen;
static bool resolved;
static char searched[2 * PATH_MAX];
static bool found; /* the chosen layout's interposer is there */

/* A path made as printf does, allocated; one of PATH_MAX or more is an error. */
static char *__attribute__((format(printf, 1, 2))) path_new(const char *fmt,
							     ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		error_msg_and_die("out of memory");
	if (n >= PATH_MAX)
		error_msg_and_die("the path of ltruss's own files is too long (%.64s...); install ltruss in a shorter directory",
				  p);
	return p;
}

/* Free l's paths (a layout tried, not found). */
static void layout_free(struct layout *l)
{
	free(l->interposer);
	free(l->filters);
	free(l->prototypes);
	free(l->shipped);
	free(l->compiled);
	free(l->config);
	free(l->bundled);
	*l = (struct layout){ 0 };
}

/*
 * path without its "." components and doubled slashes, which name the
 * same file in any case: so that equal directories spelt apart
 * ("BIN/../././conf", the source tree's conf/ in a build in place, and
 * "BIN/../conf") compare equal.  Each realpath costs a readlink a
 * component.
 */
static char *path_tidy(const char *path)
{
	char *out = xmalloc(strlen(path) + 2);
	const char *p = path;
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.')) {
			if (n == 0 && path[0] == '/')
				out[n++] = '/';
		} else {
			if (n && out[n - 1] != '/')
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	if (n == 0)
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

/*
 * Fill l: the interposer in lib, filters/ under top, the prototypes,
 * types and annotations in shipped, ltruss.yaml in conf, and the
 * prototypes compiled from shipped in compiled.  Each directory is made
 * canonical when it exists (the interposer's path goes into LD_AUDIT, and
 * --version shows them).
 */
static void layout_fill(struct layout *l, const char *name, const char *lib,
			const char *top, const char *shipped, const char *conf,
			const char *compiled)
{
	char *tidy[5], *real[5];
	const char *dirs[5] = { lib, top, shipped, conf, compiled };
	int i, k;

	for (i = 0; i < 5; i++) {
		tidy[i] = path_tidy(dirs[i]);
		/* The build tree's conf/ is three of them: resolved once. */
		for (k = 0; k < i && strcmp(tidy[k], tidy[i]) != 0; k++)
			;
		if (k < i)
			real[i] = xstrdup(real[k]);
		else if (!(real[i] = realpath(tidy[i], NULL)))
			real[i] = path_new("%s", dirs[i]);
	}
	layout_free(l);
	l->name = name;
	l->interposer = path_new("%s/libltruss.so", real[0]);
	l->filters = path_new("%s/filters", real[1]);
	l->shipped = path_new("%s", real[2]);
	l->prototypes = path_new("%s/prototypes", real[2]);
	l->config = path_new("%s/ltruss.yaml", real[3]);
	l->compiled = path_new("%s/prototypes.tbl", real[4]);
	for (i = 0; i < 5; i++) {
		free(tidy[i]);
		free(real[i]);
	}
}

/* Is the interposer of layout l there?  Records where it looked. */
static bool layout_found(const struct layout *l)
{
	size_t len = strlen(searched);

	found = access(l->interposer, F_OK) == 0;
	if (found)
		return true;
	snprintf(searched + len, sizeof(searched) - len, "%s%s",
		 len ? ", " : "", l->interposer);
	return false;
}

/* An installed tree with bundled/ beside the interposer (in lib) is a bundle. */
static void layout_bundle(struct layout *l, const char *lib)
{
	char *dir = path_new("%s/bundled", lib);
	struct stat st;

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	    (l->bundled = realpath(dir, NULL)) != NULL)
		l->name = "bundle";
	free(dir);
}

/* Try the build tree beside the executable in dir, then an installed tree. */
static bool layout_beside(const char *dir)
{
	char *lib, *top, *shipped, *conf;
	bool found_here;

	/* The build tree: the table is built into its own conf/. */
	lib = path_new("%s/../lib", dir);
	conf = path_new("%s/../conf", dir);
	if (LTRUSS_BUILD_SRCDIR[0] == '/')
		top = path_new("%s", LTRUSS_BUILD_SRCDIR);
	else
		top = path_new("%s/../%s", dir, LTRUSS_BUILD_SRCDIR);
	shipped = path_new("%s/conf", top);
	layout_fill(&chosen, "build tree", lib, top, shipped, shipped, conf);
	free(lib);
	free(top);
	free(shipped);
	free(conf);
	if (layout_found(&chosen))
		return true;
	lib = path_new("%s/%s", dir, LTRUSS_REL_PKGLIBDIR);
	top = path_new("%s/%s", dir, LTRUSS_REL_PKGDATADIR);
	conf = path_new("%s/%s/ltruss", dir, LTRUSS_REL_SYSCONFDIR);
	layout_fill(&chosen, "installed", lib, top, top, conf, top);
	found_here = layout_found(&chosen);
	if (found_here)
		layout_bundle(&chosen, lib);
	free(lib);
	free(top);
	free(conf);
	return found_here;
}

/* Choose the layout, once: build tree, installed tree, configured paths. */
static const struct layout *layout(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (resolved)
		return &chosen;
	resolved = true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (layout_beside(exe))
				return &chosen;
		}
	}
	layout_fill(&chosen, "configured", LTRUSS_PKGLIBDIR, LTRUSS_PKGDATADIR,
		    LTRUSS_PKGDATADIR, LTRUSS_SYSCONFDIR "/ltruss",
		    LTRUSS_PKGDATADIR);
	layout_found(&chosen);
	return &chosen;
}

const char *paths_interposer(void)
{
	return layout()->interposer;
}

void paths_require(void)
{
	layout();
	if (!found)
		error_msg_and_die("cannot find the interposer libltruss.so (looked for %s); run 'make install', or run ltruss from its build tree",
				  searched);
}

const char *paths_filters_dir(void)
{
	return layout()->filters;
}

const char *paths_shipped_dir(void)
{
	return layout()->shipped;
}

const char *paths_compiled(void)
{
	return layout()->compiled;
}

const char *paths_default_config(void)
{
	return layout()->config;
}

void paths_print(FILE *out)
{
	const struct layout *l = layout();

	fprintf(out, "interposer: %s (%s)\n", l->interposer, l->name);
	fprintf(out, "filters: %s\n", l->filters);
	fprintf(out, "prototypes: %s\n", l->prototypes);
	fprintf(out, "compiled prototypes: %s\n", l->compiled);
	fprintf(out, "default config: %s\n", l->config);
	if (l->bundled)
		fprintf(out, "bundled libraries: %s\n", l->bundled);
}
