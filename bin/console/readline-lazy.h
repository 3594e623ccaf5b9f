/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readline-lazy.h: readline's variables, in the library loaded when the
 * console first needs it (lazylib.c).  Include it after readline's own
 * headers: each variable becomes the one in the loaded library.
 */
#ifndef LTRUSS_READLINE_LAZY_H
#define LTRUSS_READLINE_LAZY_H

/* The address of readline's variable name, loading readline first. */
void *readline_var(const char *name);

#define history_base (*(int *)readline_var("history_base"))
#define history_length (*(int *)readline_var("history_length"))
#define rl_catch_signals (*(int *)readline_var("rl_catch_signals"))
#define rl_catch_sigwinch (*(int *)readline_var("rl_catch_sigwinch"))
#define rl_attempted_completion_over \
	(*(int *)readline_var("rl_attempted_completion_over"))
#define rl_attempted_completion_function \
	(*(rl_completion_func_t **)readline_var("rl_attempted_completion_function"))
#define rl_line_buffer (*(char **)readline_var("rl_line_buffer"))
#define rl_readline_name (*(const char **)readline_var("rl_readline_name"))

#endif
