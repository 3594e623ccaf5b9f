/* SPDX-License-Identifier: GPL-2.0-or-later */
/* readline-lazy.c: the readline functions the console calls, loaded at the first (lazylib.c). */
#include "config.h"

#include <stdio.h>
#include <readline/history.h>
#include <readline/readline.h>

#include "lazylib.h"
#include "readline-lazy.h"

static struct lazylib readline_lib = { READLINE_SONAME, "the console",
				       "libreadline8", NULL };

void *readline_var(const char *name)
{
	return lazylib_sym(&readline_lib, name);
}

LAZYLIB_VOID(readline_lib, add_history, (const char *l), (l))
LAZYLIB_FN(readline_lib, int, append_history, (int n, const char *f), (n, f))
LAZYLIB_FN(readline_lib, HIST_ENTRY *, history_get, (int i), (i))
LAZYLIB_FN(readline_lib, int, history_truncate_file, (const char *f, int n),
	   (f, n))
LAZYLIB_FN(readline_lib, int, read_history, (const char *f), (f))
LAZYLIB_VOID(readline_lib, rl_callback_handler_install,
	     (const char *prompt, rl_vcpfunc_t *handler), (prompt, handler))
LAZYLIB_VOID(readline_lib, rl_callback_handler_remove, (void), ())
LAZYLIB_VOID(readline_lib, rl_callback_read_char, (void), ())
LAZYLIB_FN(readline_lib, char **, rl_completion_matches,
	   (const char *text, rl_compentry_func_t *entry), (text, entry))
LAZYLIB_FN(readline_lib, int, rl_crlf, (void), ())
LAZYLIB_FN(readline_lib, int, rl_on_new_line, (void), ())
LAZYLIB_VOID(readline_lib, rl_redisplay, (void), ())
LAZYLIB_VOID(readline_lib, rl_replace_line, (const char *text, int clear),
	     (text, clear))
LAZYLIB_VOID(readline_lib, rl_resize_terminal, (void), ())
LAZYLIB_VOID(readline_lib, using_history, (void), ())
LAZYLIB_FN(readline_lib, int, write_history, (const char *f), (f))
