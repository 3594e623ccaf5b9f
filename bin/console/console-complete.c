/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * console-complete.c: Tab completion of commands, function names and sort
 * keys (readline).
 *
 * The first word completes to a command; the arguments to what the
 * command's table entry says.  Function names come from the session's
 * function table as the program binds them: a word without ':' completes
 * to a bare name (fix_add), one with ':' to LIB:FUNC (libfix:fix_add).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>

#include "console.h"
#include "readline-lazy.h"
#include "error.h"
#include "format.h"
#include "session.h"
#include "xmalloc.h"

static struct console *console;
static char **cands; /* the candidates of this completion, sorted, unique */
static size_t ncands, next_cand;

/* Add s to the candidates if it starts with text. */
static void cand_add(const char *s, const char *text)
{
	static size_t cap;

	if (strncmp(s, text, strlen(text)) != 0)
		return;
	if (ncands == cap) {
		cap = cap ? 2 * cap : 64;
		cands = xrealloc(cands, cap * sizeof(*cands));
	}
	cands[ncands] = xstrdup(s);
	ncands++;
}

/* Order candidates alphabetically. */
static int cand_compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the candidates and drop repeats. */
static void cands_unique(void)
{
	size_t i, k = 0;

	qsort(cands, ncands, sizeof(*cands), cand_compare);
	for (i = 0; i < ncands; i++) {
		if (k && strcmp(cands[k - 1], cands[i]) == 0)
			free(cands[i]);
		else
			cands[k++] = cands[i];
	}
	ncands = k;
}

/* The names of the functions bound so far. */
static void add_functions(const char *text)
{
	const struct ltr_session *s = console->s;
	uint32_t n = session_funcs_used(s), fn;
	bool qualified = strchr(text, ':') != NULL;
	char full[2 * LTR_GLOB_MAX + 1024];

	for (fn = 0; fn < n; fn++) {
		if (!session_func_ready(s, fn))
			continue;
		if (!qualified) {
			cand_add(format_func_raw(fn), text);
			continue;
		}
		snprintf(full, sizeof(full), "%s:%s", format_lib(fn),
			 format_func_raw(fn));
		cand_add(full, text);
	}
}

/* The command names. */
static void add_commands(const char *text)
{
	const struct console_command *cmd;

	for (cmd = console_commands; cmd->name; cmd++)
		cand_add(cmd->name, text);
}

/* The keys stats sorts by. */
static void add_sort_keys(const char *text)
{
	int k;

	for (k = 0; k < SORT_KEYS; k++)
		cand_add(sort_key_name((enum sort_key)k), text);
}

/* readline's generator: the candidates one by one. */
static char *generate(const char *text, int state)
{
	if (state == 0)
		next_cand = 0;
	if (next_cand == ncands)
		return NULL;
	return xstrdup(cands[next_cand++]); /* readline frees it */
}

/* Copy word i (0: the command) of line[0..end) into buf; false if none. */
static bool word_at(const char *line, int end, int i, char *buf, size_t size)
{
	int p = 0, n = 0, start;

	for (;;) {
		while (p < end && (line[p] == ' ' || line[p] == '\t'))
			p++;
		if (p == end)
			return false;
		start = p;
		while (p < end && line[p] != ' ' && line[p] != '\t')
			p++;
		if (n++ == i) {
			snprintf(buf, size, "%.*s", p - start, line + start);
			return true;
		}
	}
}

/* How many whole words line[0..end) holds. */
static int words_before(const char *line, int end)
{
	char w[8];
	int n = 0;

	while (word_at(line, end, n, w, sizeof(w)))
		n++;
	return n;
}

/* Complete text, which starts at start of the line. */
static char **complete(const char *text, int start, int end)
{
	const struct console_command *cmd;
	int nwords = words_before(rl_line_buffer, start);
	char first[32], prev[32];
	size_t i;

	rl_attempted_completion_over = 1; /* never file names */
	for (i = 0; i < ncands; i++)
		free(cands[i]);
	ncands = 0;
	if (nwords == 0) {
		add_commands(text);
	} else if (word_at(rl_line_buffer, start, 0, first, sizeof(first)) &&
		   (cmd = console_command_find(first)) != NULL) {
		switch (cmd->complete) {
		case COMPLETE_FUNCS:
			if (nwords == 1)
				add_functions(text);
			break;
		case COMPLETE_STATS:
			word_at(rl_line_buffer, start, nwords - 1, prev,
				sizeof(prev));
			if (strcmp(prev, "sort") == 0) {
				add_sort_keys(text);
			} else {
				cand_add("sort", text);
				add_functions(text);
			}
			break;
		case COMPLETE_COMMANDS:
			if (nwords == 1)
				add_commands(text);
			break;
		case COMPLETE_NONE:
			break;
		}
	}
	cands_unique();
	return rl_completion_matches(text, generate);
}

void console_complete_init(struct console *c)
{
	console = c;
	rl_readline_name = "ltruss";
	rl_attempted_completion_function = complete;
}
