/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * yaml-lazy.c: the libyaml functions the filter loader calls, loaded at
 * the first (lazylib.c): a run whose only config is the compiled default
 * (config-default.c) never loads libyaml.
 */
#include "config.h"

#include <yaml.h>

#include "lazylib.h"

static struct lazylib libyaml = { YAML_SONAME,
				  "reading YAML filters and configs",
				  "libyaml-0-2", NULL };

LAZYLIB_FN(libyaml, int, yaml_parser_initialize, (yaml_parser_t *parser),
	   (parser))
LAZYLIB_VOID(libyaml, yaml_parser_set_input_string,
	     (yaml_parser_t *parser, const unsigned char *input, size_t size),
	     (parser, input, size))
LAZYLIB_FN(libyaml, int, yaml_parser_parse,
	   (yaml_parser_t *parser, yaml_event_t *event), (parser, event))
LAZYLIB_VOID(libyaml, yaml_event_delete, (yaml_event_t *event), (event))
LAZYLIB_VOID(libyaml, yaml_parser_delete, (yaml_parser_t *parser), (parser))
