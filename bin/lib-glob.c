/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib-glob.c: a library glob against an object's names, the one matcher
 * of bin/ (--list, and --read's -u), kept in step with what the
 * interposer decides at run time (lib/select.c, lib/objects.c): a
 * selection that reads the same must pick the same libraries whether it
 * is applied live, listed or applied to a recorded file.
 */
#include "config.h"

#include <fnmatch.h>
#include <string.h>

#include "lib-glob.h"
#include "xmalloc.h"

bool lib_glob_match(const char *glob, const struct lib_names *o)
{
	const char *base;

	if (fnmatch(glob, o->main ? "a.out" : o->short_name, 0) == 0)
		return true;
	if (o->soname && fnmatch(glob, o->soname, 0) == 0)
		return true;
	if (o->main || !o->path || !*o->path)
		return false;
	base = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
	return (*base && fnmatch(glob, base, 0) == 0) ||
	       fnmatch(glob, o->path, FNM_PATHNAME) == 0;
}

char *lib_short_name(const char *soname, const char *path, bool main)
{
	const char *name = soname ? soname : path ? path : "", *base, *p;
	char *s;
	size_t len;

	if (main)
		return xstrdup("a.out");
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	for (p = base; *p; p++)
		if (p[0] == '.' && p[1] == 's' && p[2] == 'o' &&
		    (p[3] == '\0' || p[3] == '.'))
			break;
	len = (size_t)(p - base);
	if (len == 0)
		return xstrdup("?");
	s = xmalloc(len + 1);
	memcpy(s, base, len);
	s[len] = '\0';
	return s;
}
