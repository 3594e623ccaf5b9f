/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format-args.h: argument and return values as printed, typed by the
 * function's prototype (strings, floats, flags, errno, output arguments,
 * printf varargs), or as raw registers without one.  Text and JSON lines
 * both print these values.
 */
#ifndef LTRUSS_FORMAT_ARGS_H
#define LTRUSS_FORMAT_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"
#include "format.h"

/* Longest printed value: a string of -s 4096 bytes, every one escaped. */
#define ARG_TEXT_MAX (4 * LTR_STRSIZE_MAX + 64)

/* How many values call c shows: parameters and decoded varargs, or 3 registers. */
unsigned args_count(const struct call *c);

/*
 * How many of them can be shown at entry: all of them, up to the first
 * output argument (that one and the rest are shown on return).
 */
unsigned args_count_at_entry(const struct call *c);

/*
 * The arguments of c not shown, as bits (bit i: argument i): those whose
 * prototype gives them a condition ([if:argN:NAMES]) that the call's
 * parameter N does not meet, such as open's mode without O_CREAT or
 * O_TMPFILE.  Only parameters have conditions: values past 64 are shown.
 */
uint64_t args_hidden(const struct call *c);

/*
 * Value i of call c into buf, NUL-terminated; returns its length.  r is its
 * return (output arguments), or NULL.
 */
size_t args_value(char *buf, size_t size, int pid, const struct call *c,
		  const struct result *r, unsigned i);

/*
 * args_value for a --json value: *escaped says whether buf holds it as
 * the inside of a JSON string already (its strings escaped for JSON as
 * they were printed: the common case), or as text, to be escaped.
 */
size_t args_value_json(char *buf, size_t size, int pid, const struct call *c,
		       const struct result *r, unsigned i, bool *escaped);

/* Likewise args_return. */
size_t args_return_json(char *buf, size_t size, int pid, const struct call *c,
			const struct result *r, bool *escaped);

/*
 * Is value i of c (args_value), or its return (args_return), printed with
 * no byte that a quoted string must escape, whatever the value: a number,
 * an address, NULL?  Strings, characters, names and symbols may need one.
 */
bool args_value_plain(const struct call *c, unsigned i);
bool args_return_plain(const struct call *c);

/* The returned value of c ("3", "NULL", "0x7f..", "<void>") into buf; its length. */
size_t args_return(char *buf, size_t size, int pid, const struct call *c,
		   const struct result *r);

/* Room args_value_quick and args_return_quick need at dst. */
#define ARGS_QUICK_ROOM 24

/*
 * Value i of call c at dst, when its text is a number alone (an integer,
 * a pointer, a register of a call without prototype): the same text as
 * args_value's, without its NUL.  Returns its length, or 0 when the value
 * is of another kind: args_value prints it then.
 */
size_t args_value_quick(char *dst, const struct call *c, unsigned i);

/* Likewise the returned value of c (r->returned), as args_return prints it. */
size_t args_return_quick(char *dst, const struct call *c,
			 const struct result *r);

/* Room args_list_quick needs at dst. */
#define ARGS_LIST_ROOM (PROTO_MAX_ARGS * (ARGS_QUICK_ROOM + 4))

/*
 * Every value of call c at dst, when each is quick (args_value_quick),
 * none is hidden and there are no varargs: as text, "1, 0x2, NULL", or as
 * JSON, "\"1\",\"0x2\",\"NULL\"".  *len is their length; false (nothing
 * kept) when some value must be printed by args_value.
 */
bool args_list_quick(char *dst, const struct call *c, bool json, size_t *len);

/* Room args_call_quick_text and _json need at dst. */
#define ARGS_CALL_ROOM (ARGS_LIST_ROOM + ARGS_QUICK_ROOM + 16)

/*
 * The values of call c seen whole, when each is quick (args_list_quick,
 * args_return_quick) and it returned without an error: as text,
 * "1, 0x2) = 3", or as JSON, "\"1\",\"0x2\"],\"ret\":\"3\"": what follows
 * "LIB:FUNC(" or "\"args\":[".  Returns the length, or 0 (nothing kept)
 * when the call is printed value by value.
 */
size_t args_call_quick_text(char *dst, const struct call *c,
			    const struct result *r);
size_t args_call_quick_json(char *dst, const struct call *c,
			    const struct result *r);

struct arg_loc;

/* The prototype of c's function (NULL: none), and *locs where its parameters are. */
const struct proto *args_proto(const struct call *c,
			       const struct arg_loc **locs);

/* Word word of parameter i of c (a long double has two) into *v; false if not copied. */
bool args_word(const struct call *c, unsigned i, unsigned word, uint64_t *v);

/*
 * Keep function fn's view now (the warm of struct format, for the
 * values): WARM_NEVER if a value of its calls prints as a symbol's name.
 */
enum format_warm args_warm(uint32_t fn);

/* The errno of a failed call as "ENOENT", or NULL if it did not fail. */
const char *args_errno_name(const struct result *r);

/* ... and as "No such file or directory". */
const char *args_errno_text(const struct result *r);

#endif
