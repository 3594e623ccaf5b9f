/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yaml-files.c: the *.yaml files of a directory, in the order they load:
 * the filters and prototypes directories (config.c), and the check of
 * the compiled prototypes against their sources (shipped.c).
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "yaml-files.h"

/* Compare two strings through pointers to them, for qsort. */
static int strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **yaml_files(const char *dir, size_t *n)
{
	size_t cap = 0;
	char **names = NULL;
	struct dirent *de;
	DIR *d = opendir(dir);

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), strcmp_p);
	return names;
}

void yaml_files_free(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}
