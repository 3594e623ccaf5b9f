/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-die.c: let the config harness come back from ltruss's errors
 * (harness-only; ltruss itself is unchanged).
 *
 * ltruss's config loader ends the process on the first mistake: bin/util/error.c
 * prints one line and calls exit(2).  A libFuzzer harness must come back
 * for the next input, so the harness links the real bin/util/error.c with
 * -Wl,--wrap=exit,--wrap=fprintf: error.c's calls to exit() and fprintf()
 * land here.  __wrap_exit longjmps to the harness's fuzz_die_env while a
 * load runs; __wrap_fprintf takes the messages error.c writes to stderr and
 * checks each, an oracle ltruss cannot have: a message is one line of text
 * ending in its newline, with no control character from the input in it (a
 * newline would break it up, an escape sequence would reach the user's
 * terminal).  Messages are printed only when FUZZ_VERBOSE is set.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bin/util/error.h"
#include "tests/fuzz/fuzz.h"

jmp_buf fuzz_die_env;
bool fuzz_die_armed;
unsigned fuzz_die_count;
static bool messages_seen;

void __wrap_exit(int status) __attribute__((noreturn));
void __real_exit(int status) __attribute__((noreturn));
int __wrap_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Say what broke and abort (fprintf itself is wrapped here). */
static void __attribute__((noreturn, format(printf, 1, 2)))
broken(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	abort();
}

/* error.c's exit(2) during a load: back to the harness, as if ltruss ended. */
void __wrap_exit(int status)
{
	/* libFuzzer's own exit() is wrapped too. */
	if (!fuzz_die_armed)
		__real_exit(status);
	if (status != EXIT_LTRUSS_ERROR)
		broken("fuzz: exit(%d) in a fuzzed call\n", status);
	fuzz_die_armed = false;
	fuzz_die_count++;
	longjmp(fuzz_die_env, 1);
}

/* Check one message of error.c's, and show it with FUZZ_VERBOSE. */
int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	size_t i, len;
	int n;

	va_start(ap, fmt);
	if (f != stderr) {
		n = vfprintf(f, fmt, ap);
		va_end(ap);
		return n;
	}
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	messages_seen = true;
	len = strlen(buf);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < ' ' || c == 0x7f) && !(c == '\n' && i + 1 == len)) {
			broken("fuzz: control character 0x%02x at byte %zu of the message: %s\n",
			       c, i, buf);
		}
	}
	if (strncmp(buf, "ltruss: ", 8) != 0 || len < 9 || buf[len - 1] != '\n') {
		broken("fuzz: not one 'ltruss: ' line: %s\n", buf);
	}
	if (getenv("FUZZ_VERBOSE"))
		fputs(buf, stderr);
	return n;
}

void fuzz_die_init(void)
{
	/* The wrappers must see error.c's messages, or nothing is checked. */
	error_msg("the fuzz harness checks messages");
	if (!messages_seen) {
		broken("fuzz: error.c's messages bypass __wrap_fprintf\n");
	}
}
