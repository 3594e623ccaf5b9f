/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-pieces.c: the per-function pieces of text the formats build once.
 *
 * Every line of a call starts with its function's names: "LIB:FUNC(" in
 * text, `,"lib":"LIB","func":"FUNC","depth":` in JSON.  Each format keeps
 * them by function (format-pieces.h), built here when the function's
 * entry is first filled in, and copies them whole from then on.
 */
#include "config.h"

#include <string.h>

#include "catalog.h"
#include "format.h"
#include "format-pieces.h"

bool format_piece_build(struct format_piece *piece, uint32_t fn,
			format_piece_make *make)
{
	const char *lib, *func;

	if (!catalog_func_ready(fn))
		return false;
	lib = format_lib(fn);
	func = format_func(fn);
	piece->text = make(lib, strlen(lib), func, strlen(func), &piece->len);
	return true;
}
