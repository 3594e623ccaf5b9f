/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perfmap.h: -k, names of JIT code from /tmp/perf-PID.map. */
#ifndef LTRUSS_PERFMAP_H
#define LTRUSS_PERFMAP_H

#include <stdint.h>

/*
 * The name process pid's perf map gives code address addr, or NULL; its
 * offset in *off, and in *path the file as read (a string that lives
 * until perfmap_done(), its own for each reading of the file).
 */
const char *perfmap_name(int pid, uint64_t addr, uint64_t *off,
			 const char **path);

/* Forget every map read. */
void perfmap_done(void);

#endif
