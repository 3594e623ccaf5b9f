/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format-pieces.h: text a format builds once per function ("LIB:FUNC(", JSON's names). */
#ifndef LTRUSS_FORMAT_PIECES_H
#define LTRUSS_FORMAT_PIECES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"
#include "format.h"

/* One function's piece: NULL until built. */
struct format_piece {
	char *text;
	size_t len;
};

/*
 * How a format makes a function's piece from its names (lib, a bytes;
 * func as displayed, b bytes): the text, from xmalloc, with room for
 * FORMAT_COPY_ROOM of its *len bytes (format_copy copies whole pieces).
 */
typedef char *format_piece_make(const char *lib, size_t a, const char *func,
				size_t b, size_t *len);

/* Build piece, of function fn, with make; false while fn's entry is not filled in. */
bool format_piece_build(struct format_piece *piece, uint32_t fn,
			format_piece_make *make);

/*
 * The piece of function fn in pieces (LTR_MAX_FUNCS of them), made once
 * by make and copied from then on by every line: *len bytes, NULL until
 * fn's entry is filled in.  Inline: only the building is a call.
 */
static inline const char *format_piece_of(struct format_piece *pieces,
					  uint32_t fn, format_piece_make *make,
					  size_t *len)
{
	if (fn >= LTR_MAX_FUNCS ||
	    (__builtin_expect(!pieces[fn].text, 0) &&
	     !format_piece_build(&pieces[fn], fn, make)))
		return NULL;
	*len = pieces[fn].len;
	return pieces[fn].text;
}

/*
 * struct format's warm of function fn for a format whose lines start
 * with its piece (piece: the format's lookup, as name_of): the view of
 * its values (args_warm()), then its piece.
 */
enum format_warm format_piece_warm(uint32_t fn,
				   const char *(*piece)(uint32_t fn, size_t *len));

#endif
