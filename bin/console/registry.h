/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.h: the running sessions of this user, for the console to find. */
#ifndef LTRUSS_REGISTRY_H
#define LTRUSS_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

/* One registered session: where its memfd can be opened. */
struct registry_entry {
	int pid;                /* ltruss's */
	int fd;                 /* ltruss's descriptor of the session memfd */
	unsigned long long ino; /* the memfd's inode */
};

/*
 * Register this ltruss's session (memfd session_fd) until it exits; if
 * that cannot be done, warn: the run goes on without a console.
 */
void registry_add(int session_fd);

/* The directory of the entries (for messages); exits 2 if it is unusable. */
const char *registry_path(void);

/* Every entry, sorted by pid, in *entries (malloc'd); exits 2 on errors. */
size_t registry_list(struct registry_entry **entries);

/* The entry of ltruss pid, if there is one. */
bool registry_find(int pid, struct registry_entry *e);

/* Remove the entry of pid (its ltruss is gone). */
void registry_forget(int pid);

#endif
