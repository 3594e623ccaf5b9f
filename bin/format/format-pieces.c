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
#include "format-args.h"
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

enum format_warm format_piece_warm(uint32_t fn,
				   const char *(*piece)(uint32_t fn, size_t *len))
{
	enum format_warm w = args_warm(fn);
	size_t len;

	if (w == WARM_READY && !piece(fn, &len))
		return WARM_LATER;
	return w;
}
