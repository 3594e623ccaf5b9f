/* SPDX-License-Identifier: GPL-2.0-or-later */
/* yaml-files.h: the *.yaml files of a directory, sorted. */
#ifndef LTRUSS_YAML_FILES_H
#define LTRUSS_YAML_FILES_H

#include <stddef.h>

/* The names of the *.yaml files in dir, sorted; NULL when dir is missing. */
char **yaml_files(const char *dir, size_t *n);

/* Free what yaml_files() returned. */
void yaml_files_free(char **names, size_t n);

#endif
