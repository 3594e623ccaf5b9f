/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefile-read.h: a trace file (--read) as an event source for trace.c. */
#ifndef LTRUSS_TRACEFILE_READ_H
#define LTRUSS_TRACEFILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/*
 * Open file and check all of it (exit 2 with one line if it is not a
 * trace or is corrupt); set the clock from it.  The catalog (catalog.h)
 * the formatters read names from is filled as tracefile_replay() goes;
 * its strings are shown up to strsize bytes (-s; 0: as recorded).
 */
void tracefile_load(const char *file, uint32_t strsize);

/* Pass the file's events and process ends to trace.c (through narrow.c). */
void tracefile_replay(void);

/* Are the file's counters the summary's rows (a whole file, not narrowed)? */
bool tracefile_counts_recorded(void);

/* The summary's rows: the calls trace.c counted (narrowed or cut), not the file's counters. */
void tracefile_counts_from_trace(void);

/* Does the file hold the events of more than one process? */
bool tracefile_processes(void);

/* Was the file cut (no END block)?  *at: where what was read ends. */
bool tracefile_was_cut(size_t *at);


/* What the recording run reported at its end: events dropped, lost returns. */
void tracefile_ends(unsigned long long *dropped, uint32_t *lost);

/* The signal that killed the recorded command (0: none), *core if it dumped core. */
int tracefile_command_signal(bool *core);

/* Close the file and free what was loaded from it. */
void tracefile_unload(void);

#endif
