/* SPDX-License-Identifier: GPL-2.0-or-later */
/* glob.h: shell globs as fnmatch(3) matches them in the C locale, without libc. */
#ifndef LTRUSS_COMMON_GLOB_H
#define LTRUSS_COMMON_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Does s match the shell glob, as fnmatch(3) with flags 0 (pathname false)
 * or FNM_PATHNAME (true) does in the C locale?
 */
bool sel_glob_match(const char *glob, const char *s, bool pathname);

#endif
