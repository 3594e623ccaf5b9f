/* SPDX-License-Identifier: GPL-2.0-or-later */
/* playback.h: --playback OUT.c, a C program that makes the recorded calls again. */
#ifndef LTRUSS_PLAYBACK_H
#define LTRUSS_PLAYBACK_H

#include "format.h"

/* The calls trace.c gives it become the program's (struct format). */
extern const struct format format_playback;

/* Start writing to path, from the recording file (named in the program). */
void playback_init(const char *path, const char *file);

/* Write the program out, and say on stderr what it could not play back. */
void playback_finish(void);

#endif
