/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config-default.h: the default config from its compiled form (config-default.c). */
#ifndef LTRUSS_CONFIG_DEFAULT_H
#define LTRUSS_CONFIG_DEFAULT_H

#include <stdbool.h>

#include "conf.h"

struct default_table;

/*
 * Load the default config at path from table t, as parsing it would, if
 * the file holds the text t was compiled from and its rules fit; else
 * change nothing and return false: the caller parses it.
 */
bool config_default_compiled(struct config *cfg, const char *path,
			     const struct default_table *t);

#endif
