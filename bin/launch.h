/* SPDX-License-Identifier: GPL-2.0-or-later */
/* launch.h: run the command with the interposer and wait for it. */
#ifndef LTRUSS_LAUNCH_H
#define LTRUSS_LAUNCH_H

/* How the traced command ended. */
struct outcome {
	int exit_status; /* what ltruss exits with: status, or 128+signal */
	int signal;      /* the killing signal, or 0 */
	int core_dumped;
};

/* Path of libltruss.so: the build tree's when ltruss runs from it. */
const char *launch_interposer_path(void);

/*
 * Start path with argv, the interposer preloaded and the session fd and
 * trace fd inherited; wait for it and return how it ended.  Exits 2 when
 * the command cannot be started.
 */
struct outcome launch_and_wait(const char *path, char **argv, int session_fd,
			       int out_fd);

#endif
