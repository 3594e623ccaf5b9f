/* SPDX-License-Identifier: GPL-2.0-or-later */
/* refusal.h: why the loader stopped a traced program before it started. */
#ifndef LTRUSS_REFUSAL_H
#define LTRUSS_REFUSAL_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The program path that ltruss started exited with status 127 before the
 * loader was done: if the loader's dry run of it says that ltruss left it
 * too little static TLS, print that as ltruss's error and return true.
 */
bool refusal_explain(const char *path);

/* The same for process pid, a program exec'd or spawned: a warning. */
void refusal_warn(pid_t pid);

#endif
