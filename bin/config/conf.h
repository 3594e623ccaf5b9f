/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * conf.h: YAML filter configs (ltruss.yaml(5)) and what they build: the
 * selection rules (shared with -u and --from), prototypes, named types,
 * depth and string size.  Options and filters apply left to right into one
 * struct config; later rules and later prototypes win.
 */
#ifndef LTRUSS_CONF_H
#define LTRUSS_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prototype.h"
#include "selection.h"

/* One name of an enum or flags type. */
struct type_value {
	char *name;
	uint64_t value;
};

/*
 * A named type, "types: { NAME: { enum: {...} } }" or "{ flags: {...},
 * mask: M, enum: {...} }": an enum prints the one name of its value; flags
 * print as A|B|0x40, and (value & mask) is first printed as one enum name
 * (O_RDONLY|O_CREAT).
 */
struct named_type {
	char *name;
	uint8_t size;              /* bytes (4 unless "size:" says otherwise) */
	uint64_t mask;             /* flags: the bits that form an enum field */
	struct type_value *enums;  /* the enum names (or the masked field's) */
	size_t nenums;
	struct type_value *flags;  /* flag bits, in declared order */
	size_t nflags;
	const char *file;          /* where it was declared */
	unsigned line, col;
};

struct config_index;

struct config {
	struct selection sel;      /* rules from -u and filters, and from globs */
	bool selected;             /* some rule or filter selection was given */
	unsigned depth;            /* "depth" / -D; 0 = unlimited */
	unsigned strsize;          /* "strsize" / -s */
	struct proto *protos;      /* in load order: a later one of a name wins */
	size_t nprotos;
	struct named_type *types;  /* in load order: a later one of a name wins */
	size_t ntypes;
	char **files;              /* every file loaded (owns the names above) */
	size_t nfiles;
	struct shipped *shipped;   /* the compiled shipped prototypes, or NULL */
	bool keep_decls;           /* keep each prototype's text (-w, the compiler) */
	/* The loader's own. */
	bool depth_set, strsize_set; /* by an option or a filter */
	size_t protos_cap, types_cap, files_cap;
	struct config_index *index; /* by name, built by config_check() */
};

#define CONFIG_STRSIZE_DEFAULT 32

/* An empty config: nothing selected, no depth limit, strings of 32 bytes. */
void config_init(struct config *cfg);

/*
 * Load a filter, -F FILE|NAME: a NAME without '/' and not ending in .yaml
 * is looked up in $LTRUSS_FILTER_PATH (colon-separated), then
 * ~/.config/ltruss/filters, then the installed filters directory.  Its
 * rules, prototypes and types are appended; its depth and strsize replace
 * cfg's.  Any error is printed as "ltruss: error: FILE:LINE:COL: what"
 * and exits 2.
 */
void config_load_filter(struct config *cfg, const char *name);

/*
 * Load the shipped prototypes: the table compiled from them at build time
 * (bin/config/shipped.c), mapped, when it is there and up to date; else, with a
 * warning, the sources themselves (config_parse_shipped()).  A source
 * that cannot be read is an error naming it.
 */
void config_load_prototypes(struct config *cfg);

/*
 * Parse the shipped prototypes of dir: every .yaml file of prototypes/
 * by name, then types.yaml, then annotations.yaml, which win.
 */
void config_parse_shipped(struct config *cfg, const char *dir);

/*
 * Load the default config, used when no rule was given:
 * ~/.config/ltruss/ltruss.yaml if it exists, else the installed one;
 * from the form compiled into ltruss when the file holds the text it was
 * compiled from, else parsed (bin/config/config-default.c).
 * What the command line set wins over it: a depth or strsize from an
 * option or a filter, and --from globs (they narrow the default's rules
 * instead of adding to its "from").
 */
void config_load_default(struct config *cfg);

/*
 * Parse the default config at path into cfg, as config_load_default()
 * does when it cannot use the compiled form; role and hint word the
 * error when the file cannot be read ("the default config").
 */
void config_parse_default(struct config *cfg, const char *path,
			  const char *role, const char *hint);

/* $HOME/.config/ltruss/rel, malloc'd, or NULL without a HOME. */
char *config_user_path(const char *rel);

/*
 * After loading: check that every named type a prototype uses exists
 * (else exit 2), and index prototypes and types by name for the finders.
 */
void config_check(struct config *cfg);

/*
 * The prototype of function name (the last loaded wins: a filter's over
 * the shipped ones), or NULL.
 */
const struct proto *config_find_proto(const struct config *cfg,
				      const char *name);

/*
 * Resolve p's named types (ptype.def) and [if:] names (parg.if_values) in
 * cfg, once it is complete, so that printing a value looks nothing up:
 * config_check() does it for the filters' prototypes, the compiled table
 * for each shipped one it parses.  An unknown name stays unresolved.
 */
void config_resolve(const struct config *cfg, struct proto *p);

/* config_resolve() with the named types find(name, ctx) gives (a trace file's). */
void proto_resolve(struct proto *p,
		   const struct named_type *(*find)(const char *name,
						    const void *ctx),
		   const void *ctx);

/* The named type called name (the last loaded wins), or NULL. */
const struct named_type *config_find_type(const struct config *cfg,
					  const char *name);


/* The value of the name (len bytes) of type t, an enum or a flag; false if none. */
bool config_type_value(const struct named_type *t, const char *name,
		       size_t len, uint64_t *value);

/* Free everything. */
void config_free(struct config *cfg);

#endif
