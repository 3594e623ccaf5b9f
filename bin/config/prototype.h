/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prototype.h: C declarations that give a traced function's arguments and
 * return value their types, as written in a filter's "prototypes" list:
 *
 *     "ssize_t read(int fd, [out:ret] void *buf, size_t count)"
 *     "[errno] int open(const char *path, open_flags flags, ...)"
 *
 * The parser knows C's own types and the common typedefs; any other
 * identifier used as a type is a named type (an enum or flags set declared
 * under "types:"), or, before a '*', an opaque struct.
 */
#ifndef LTRUSS_PROTOTYPE_H
#define LTRUSS_PROTOTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/session.h"

struct named_type;

/* What a value is, as far as printing it goes. */
enum ctype {
	CT_VOID = 1,
	CT_INT,      /* signed integer of size bytes */
	CT_UINT,     /* unsigned integer of size bytes */
	CT_BOOL,
	CT_CHAR,     /* plain char: printed as 'c' */
	CT_FLOAT,
	CT_DOUBLE,
	CT_LDOUBLE,  /* long double (x87) */
	CT_POINTER,  /* any other pointer: hex, or NULL */
	CT_STRING,   /* char * or const char *: a C string */
	CT_FUNCPTR,  /* a function pointer: printed as a symbol name */
	CT_FILE,     /* FILE * */
	CT_NAMED,    /* an enum or flags type declared under "types:" */
	CT_VALIST,   /* va_list */
};

/* A type. */
struct ptype {
	enum ctype kind;
	uint8_t size;      /* bytes of the value (integers, named types) */
	enum ctype target; /* CT_POINTER: what it points to (CT_VOID if unknown) */
	uint8_t target_size;
	char *named;       /* CT_NAMED: the type's name (malloc'd) */
	/* CT_NAMED or a pointer to one: that type, once resolved (config_resolve) */
	const struct named_type *def;
	bool writable;     /* CT_STRING: char * without const, a buffer */
	bool octal;        /* CT_UINT: printed in octal (a file mode, 0755) */
};

/* Output-argument annotations: printed on return, not on entry. */
enum out_mode {
	OUT_NONE = 0,
	OUT_PLAIN, /* [out]: the pointee (a scalar, or a char * string) */
	OUT_RET,   /* [out:ret]: as many bytes as the call returned */
	OUT_ARG,   /* [out:argN]: as many bytes as parameter N (1-based) says */
};

/* Input-buffer annotations: the bytes copied on entry (for --playback). */
enum in_mode {
	IN_NONE = 0,
	IN_ARG, /* [in:argN]: as many bytes as parameter N (1-based) says */
};

/*
 * [struct:SIZE,in:P/L,out:P/L]: the pointee is a struct of SIZE bytes the
 * program owns (zlib's z_stream), copied on entry and on return; at byte
 * offset P it holds a pointer to a buffer the call reads (in) or writes
 * (out), of as many bytes as the 32-bit unsigned at offset L says.
 */
#define PROTO_STRUCT_BUFS 2 /* in buffers, and out buffers, at most */
struct pstruct {
	unsigned size; /* 0: none */
	unsigned nin, nout;
	struct { uint8_t ptr, len; } in[PROTO_STRUCT_BUFS], out[PROTO_STRUCT_BUFS];
};

/* A parameter. */
struct parg {
	struct ptype type;
	char *name;          /* NULL when unnamed (malloc'd) */
	enum out_mode out;
	unsigned out_arg;    /* OUT_ARG: 1-based parameter number of the length */
	enum in_mode in;
	unsigned in_arg;     /* IN_ARG: 1-based parameter number of the length */
	struct pstruct st;   /* [struct:...] */
	bool format;         /* [format]: the printf format of the varargs */
	unsigned if_arg;     /* [if:argN:NAMES]: shown only when parameter N */
	char *if_names;      /* (1-based) has one of NAMES ("A|B", malloc'd) */
	uint64_t *if_values; /* NAMES' values, once resolved (malloc'd) */
	size_t if_nvalues;
	unsigned col;        /* 1-based column in the declaration where it starts */
};

#define PROTO_MAX_ARGS 16

/* A parsed declaration. */
struct proto {
	char *name;          /* the function (malloc'd) */
	struct ptype ret;
	struct parg *args;   /* nargs of them (malloc'd), NULL when none */
	size_t nargs;
	bool variadic;       /* ends with ... */
	enum ltr_err err;    /* [errno], [errno:-1], [errno:null], [errno:neg], [errnum] */
	unsigned ret_col;    /* column of the return type, for errors */
	/* Where the declaration was written (set by the config loader). */
	const char *file;
	unsigned line, col;
	char *decl;          /* its text, when the loader keeps it (malloc'd) */
};

/*
 * Parse one declaration into p.  On failure returns false, with *err a
 * static message ("expected ')'", "unknown annotation [oot]") and *errcol
 * the 1-based column in decl where the problem is; p is then left freed.
 */
bool proto_parse(const char *decl, struct proto *p, unsigned *errcol,
		 const char **err);

/* Free what proto_parse allocated in p. */
void proto_free(struct proto *p);

/* The C spelling of a type, for --list and messages ("const char *"). */
const char *ptype_name(const struct ptype *t, char *buf, size_t size);

#endif
