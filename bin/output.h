/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.h: where the trace and the reports go (-o FILE or stderr). */
#ifndef LTRUSS_OUTPUT_H
#define LTRUSS_OUTPUT_H

#include <stdio.h>

/* Open -o FILE (or stderr when file is NULL); a file that cannot be made dies. */
FILE *output_open(const char *file);
/* Flush and close out; a write that failed at any time is reported once. */
void output_close(FILE *out, const char *file);

#endif
