/* SPDX-License-Identifier: GPL-2.0-or-later */
/* demangle.h: C++ symbol names as people read them. */
#ifndef LTRUSS_DEMANGLE_H
#define LTRUSS_DEMANGLE_H

/* The demangled form of a mangled C++ name (malloc'd), or NULL if name is not one. */
char *demangle(const char *name);

#endif
